#include "app/window_state.hpp"

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

bool needsRebuild(const sim::Params& before, const sim::Params& after) {
  for (const sim::ParamDesc& d : sim::paramTable())
    if (d.rebuild && sim::formatParam(before, d) != sim::formatParam(after, d)) return true;
  return false;
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

}  // namespace drape::app
