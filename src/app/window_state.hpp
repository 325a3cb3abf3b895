#pragma once
// The window's decisions that need no window: which recording the Record
// panel asks for, how the Scene panel loads a mesh, the panel's facts about
// the scene, view presets, side by side's labels (and the opening camera, in
// opening_camera.hpp).

#include <optional>
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

// How the Scene panel says the next OBJ (`path`) loads: as, pin, up, scale;
// `as` (a ui::LoadAs) stands for the panel's own when not −1. Collider
// loads as auto here (only the up axis and the scale apply to it).
scene::MeshSceneOptions panelMeshOptions(const ui::PanelState& state, const std::string& path,
                                         int as = -1);

// The Scene panel's pin, up and scale as a loaded mesh's options set them:
// what the panel showed when the scene's mesh was loaded.
struct MeshPanel {
  int pin = 0, up = 0;
  float scale = 1.0f;
};
// Show a mesh scene's options in the panel (pins given as a list show as
// none); returns what it shows.
MeshPanel showMeshOptions(ui::PanelState& state, const scene::MeshSceneOptions& options);
// What a reset applies to a mesh scene whose options are `current`: those
// with the panel's pin, up and scale where they changed since `shown`; none
// when nothing changed.
std::optional<scene::MeshSceneOptions> changedMeshOptions(const scene::MeshSceneOptions& current,
                                                          const ui::PanelState& state,
                                                          const MeshPanel& shown);

// How the Scene panel names a collider: its kind, and a mesh's file name
// (shortened to 28 characters): "mesh statue.obj", "sphere", "plane".
std::string colliderLabel(const sim::Collider& c);
// The Scene panel's list of the session's colliders: a run of alike ones
// (the same shape, not meshes, moving alike, none showing a rigid body) in
// one row, "19 boxes (turning)", removed together.
std::vector<ui::ColliderRow> colliderRows(const Session& session);

// Frames per second over half-second windows: steady enough to read.
struct FpsCounter {
  double start = -1.0;
  int frames = 0;
  float fps = 0.0f;
  void frame(double now);
};

// The index of `name` in `names`, or −1.
int sceneIndex(const std::vector<const char*>& names, const std::string& name);

ui::SceneFacts factsOf(const Session& session);

// The three view presets of keys 1, 2, 3 (and V, which cycles them): shaded,
// wireframe, strain; presetOf tells which one a view is.
render::ViewOptions preset(const render::ViewOptions& current, int which);
int presetOf(const render::ViewOptions& v);

// The median of the last `count` step times (ms), or −1 when none: a step
// time steady enough to read while it changes every frame.
double recentStepMs(const std::vector<double>& stepMs, std::size_t count = 30);

// Side by side's labels over each half: what it runs, and its step time.
std::string compareLabel(bool left, const std::vector<std::string>& sets,
                         const std::vector<double>& stepMs, bool stopped);

// Side by side's settings field: its words.
std::vector<std::string> splitSettings(const char* text);

}  // namespace drape::app
