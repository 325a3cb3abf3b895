#pragma once
// The window's decisions that need no window: which recording the Record
// panel asks for, the panel's facts about the scene, view presets, whether a
// parameter change rebuilds the scene (and the opening camera, in
// opening_camera.hpp).

#include <string>
#include <vector>

#include "app/recorder.hpp"
#include "app/session.hpp"
#include "render/camera.hpp"
#include "render/renderer.hpp"
#include "ui/panel.hpp"

namespace drape::app {

// The target the Record panel's choices describe.
RecordTarget panelRecordTarget(const ui::PanelState& state);

// Frames per second over half-second windows: steady enough to read.
struct FpsCounter {
  double start = -1.0;
  int frames = 0;
  float fps = 0.0f;
  void frame(double now);
};

// Whether going from `before` to `after` changes a parameter that rebuilds
// the scene (resolution, density, ...).
bool needsRebuild(const sim::Params& before, const sim::Params& after);

// The index of `name` in `names`, or −1.
int sceneIndex(const std::vector<const char*>& names, const std::string& name);

ui::SceneFacts factsOf(const Session& session);

// The three view presets of keys 1, 2, 3 (and V, which cycles them): shaded,
// wireframe, strain; presetOf tells which one a view is.
render::ViewOptions preset(const render::ViewOptions& current, int which);
int presetOf(const render::ViewOptions& v);

// Side by side's settings field: its words.
std::vector<std::string> splitSettings(const char* text);

}  // namespace drape::app
