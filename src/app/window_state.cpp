#include "app/window_state.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace drape::app {

RecordTarget panelRecordTarget(const ui::PanelState& state) {
  switch (state.recordFormat) {
    case ui::RecordChoice::Mp4:
      return {RecordFormat::Mp4, state.recordVideo, false, state.recordWholeWindow};
    case ui::RecordChoice::ObjSequence:
      return objSequenceTarget(state.recordMeshFolder, state.recordOverwrite);
    case ui::RecordChoice::PngSequence:
      break;
  }
  return {RecordFormat::PngSequence, state.recordFolder, state.recordOverwrite,
          state.recordWholeWindow};
}

void FpsCounter::frame(double now) {
  if (start < 0.0) start = now;
  ++frames;
  if (now - start >= 0.5) {
    fps = float(frames / (now - start));
    start = now;
    frames = 0;
  }
}

int sceneIndex(const std::vector<const char*>& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (name == names[i]) return int(i);
  return -1;
}

ui::SceneFacts factsOf(const Session& session) {
  const sim::World& w = session.world();
  ui::SceneFacts f;
  f.vertices = w.vertexCount();
  f.triangles = w.cloth.triangles.size();
  f.pieces = w.cloth.pieceCount;
  f.closed = w.cloth.report.closed;
  f.repairs = &session.warnings();
  return f;
}

render::ViewOptions preset(const render::ViewOptions& current, int which) {
  render::ViewOptions v = current;
  v.shading = which == 2 ? render::Shading::Strain : render::Shading::Lit;
  v.wireframe = which == 1;
  return v;
}
int presetOf(const render::ViewOptions& v) {
  if (v.shading == render::Shading::Strain) return 2;
  return v.wireframe ? 1 : 0;
}

std::vector<std::string> splitSettings(const char* text) {
  std::vector<std::string> sets;
  std::istringstream in(text);
  for (std::string word; in >> word;) sets.push_back(word);
  return sets;
}

scene::MeshSceneOptions panelMeshOptions(const ui::PanelState& state, const std::string& path,
                                         int as) {
  scene::MeshSceneOptions o;
  o.name = path;
  if (as < 0) as = state.loadAs;
  o.as = as == ui::kLoadCloth     ? scene::MeshAs::Cloth
         : as == ui::kLoadBalloon ? scene::MeshAs::Balloon
                                  : scene::MeshAs::Auto;
  o.pin.kind = state.loadPin == 1 ? scene::MeshPin::Kind::Top : scene::MeshPin::Kind::None;
  o.zUp = state.loadUp == 1;
  o.scale = state.loadScale;
  return o;
}

MeshPanel showMeshOptions(ui::PanelState& state, const scene::MeshSceneOptions& options) {
  state.loadPin = options.pin.kind == scene::MeshPin::Kind::Top ? 1 : 0;
  state.loadUp = options.zUp ? 1 : 0;
  state.loadScale = options.scale;
  return {state.loadPin, state.loadUp, state.loadScale};
}

std::optional<scene::MeshSceneOptions> changedMeshOptions(const scene::MeshSceneOptions& current,
                                                          const ui::PanelState& state,
                                                          const MeshPanel& shown) {
  scene::MeshSceneOptions next = current;
  bool changed = false;
  if (state.loadPin != shown.pin) {
    next.pin = {state.loadPin == 1 ? scene::MeshPin::Kind::Top : scene::MeshPin::Kind::None, {}};
    changed = true;
  }
  if (state.loadUp != shown.up) {
    next.zUp = state.loadUp == 1;
    changed = true;
  }
  if (state.loadScale != shown.scale) {
    next.scale = state.loadScale;
    changed = true;
  }
  if (!changed) return std::nullopt;
  return next;
}

std::string colliderLabel(const sim::Collider& c) {
  if (c.kind != sim::ColliderKind::Mesh) return sim::colliderKindName(c.kind);
  std::string name = c.mesh ? std::filesystem::path(c.mesh->source).filename().string() : "";
  constexpr std::size_t kLongest = 28;
  if (name.size() > kLongest) name = name.substr(0, kLongest - 3) + "...";
  return name.empty() ? "mesh" : "mesh " + name;
}

namespace {

bool sameMotion(const sim::Motion& a, const sim::Motion& b) {
  return a.velocity == b.velocity && a.angularVelocity == b.angularVelocity && a.pivot == b.pivot &&
         a.amplitude == b.amplitude && a.frequency == b.frequency;
}

// Whether `b` goes in the same row as `a`: alike, and both removable.
bool alike(const Session& session, std::size_t a, std::size_t b) {
  const sim::Collider& ca = session.world().colliders[a];
  const sim::Collider& cb = session.world().colliders[b];
  return ca.kind == cb.kind && ca.kind != sim::ColliderKind::Mesh &&
         sameMotion(ca.motion, cb.motion) && !session.showsBody(a) && !session.showsBody(b);
}

// "19 boxes (turning)": how many, the shape's plural, how they move.
std::string groupLabel(const sim::Collider& c, std::size_t count) {
  const std::string kind = sim::colliderKindName(c.kind);
  std::string label = std::to_string(count) + " " + kind + (kind == "box" ? "es" : "s");
  if (c.motion.isStatic()) return label;
  const bool turns = c.motion.angularVelocity != glm::vec3(0.0f);
  return label + (turns ? " (turning)" : " (moving)");
}

}  // namespace

std::vector<ui::ColliderRow> colliderRows(const Session& session) {
  std::vector<ui::ColliderRow> rows;
  const std::vector<sim::Collider>& colliders = session.world().colliders;
  for (std::size_t i = 0; i < colliders.size();) {
    std::size_t n = 1;
    while (i + n < colliders.size() && alike(session, i, i + n)) ++n;
    const std::string label = n > 1 ? groupLabel(colliders[i], n) : colliderLabel(colliders[i]);
    rows.push_back({label, !session.showsBody(i), i, n});
    i += n;
  }
  return rows;
}

double recentStepMs(const std::vector<double>& stepMs, std::size_t count) {
  if (stepMs.empty() || count == 0) return -1.0;
  std::vector<double> last(stepMs.end() - std::ptrdiff_t(std::min(count, stepMs.size())),
                           stepMs.end());
  std::nth_element(last.begin(), last.begin() + std::ptrdiff_t(last.size() / 2), last.end());
  return last[last.size() / 2];
}

std::string compareLabel(bool left, const std::vector<std::string>& sets,
                         const std::vector<double>& stepMs, bool stopped) {
  std::string text = left ? "left: as set" : "right:";
  if (!left)
    for (const std::string& set : sets) text += " " + set;
  if (const double ms = recentStepMs(stepMs); ms >= 0.0) {
    char step[32];
    std::snprintf(step, sizeof step, ", %.1f ms/step", ms);
    text += step;
  }
  if (left) text += " (the tools act here)";
  if (stopped) text += "  (stopped)";
  return text;
}

}  // namespace drape::app
