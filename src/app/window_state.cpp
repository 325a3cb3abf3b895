#include "app/window_state.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace drape::app {

RecordTarget panelRecordTarget(const ui::PanelState& state) {
  switch (state.recordFormat) {
    case ui::RecordChoice::Mp4:
      return {RecordFormat::Mp4, state.recordVideo, false};
    case ui::RecordChoice::ObjSequence:
      return objSequenceTarget(state.recordMeshFolder, state.recordOverwrite);
    case ui::RecordChoice::PngSequence:
      break;
  }
  return {RecordFormat::PngSequence, state.recordFolder, state.recordOverwrite};
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

std::string colliderLabel(const sim::Collider& c) {
  if (c.kind != sim::ColliderKind::Mesh) return sim::colliderKindName(c.kind);
  std::string name = c.mesh ? std::filesystem::path(c.mesh->source).filename().string() : "";
  constexpr std::size_t kLongest = 28;
  if (name.size() > kLongest) name = name.substr(0, kLongest - 3) + "...";
  return name.empty() ? "mesh" : "mesh " + name;
}

std::vector<ui::ColliderRow> colliderRows(const Session& session) {
  std::vector<ui::ColliderRow> rows;
  const std::vector<sim::Collider>& colliders = session.world().colliders;
  for (std::size_t i = 0; i < colliders.size(); ++i)
    rows.push_back({colliderLabel(colliders[i]), !session.showsBody(i)});
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
