#pragma once
// The running simulation as the app sees it: which scene, its parameters, the
// world, and the history of step times. The window and the headless runner
// both drive a Session.

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "scene/mesh_scene.hpp"
#include "scene/scene_file.hpp"
#include "scene/scenes.hpp"
#include "sim/sim.hpp"

namespace drape::app {

class Session {
 public:
  // Build `sceneName` with its defaults overridden by `settings` (a scene
  // file's), then by `sets` ("KEY=VALUE", as typed).
  static Result<Session> create(const std::string& sceneName, const std::vector<std::string>& sets,
                                const std::vector<sim::ParamSetting>& settings = {});
  // Build a scene from an OBJ file: options.as resolved from the mesh (Auto:
  // balloon when closed), that kind's scene defaults, then `settings` and
  // `sets`. The loaded mesh is kept, so reset() rebuilds without reading the
  // file again.
  static Result<Session> createFromMesh(const std::string& path, scene::MeshSceneOptions options,
                                        const std::vector<std::string>& sets,
                                        const std::vector<sim::ParamSetting>& settings = {});
  // Build the scene a scene file describes (scene_file.hpp); `sets` apply
  // over the file's parameters.
  static Result<Session> createFromFile(const std::string& path,
                                        const std::vector<std::string>& sets);
  // The same from a description in memory (`name` prefixes its errors): how
  // the side-by-side view makes its second copy of the current scene.
  static Result<Session> createFromDescription(const scene::SceneFile& file,
                                               const std::vector<std::string>& sets,
                                               const std::string& name);

  // The right side of side by side: `start` (the left's description) with
  // `sets` on top. When they change the cloth (another resolution), the
  // left's pins go to the nearest vertices of the right's cloth.
  static Result<Session> createBeside(const Session& left, const scene::SceneFile& start,
                                      const std::vector<std::string>& sets);

  // Add each OBJ file as a static mesh collider where the file puts it
  // (--collider); they stay through reset(), not switchScene().
  Result<void> addMeshColliders(const std::vector<std::string>& objPaths);
  // The same for one file, placed as a cloth from it would be: turned from
  // z-up when `zUp`, scaled about the origin (kept in the collider's
  // orientation and its shape's scale, so that scene files hold it). What
  // loading repaired joins warnings(). A file that cannot be read leaves
  // the scene as it was.
  Result<void> addMeshCollider(const std::string& path, bool zUp, float scale);
  // A deforming mesh collider from an OBJ sequence (a folder, or any frame
  // file in it), one file per simulated frame, holding the last; the files'
  // coordinates are the world's. A folder given to addMeshCollider comes here.
  Result<void> addMeshSequenceCollider(const std::string& path);
  // The colliders added to `previous` (as addMeshCollider's) go on in this
  // session, after its own.
  void takeAddedColliders(const Session& previous);
  // Whether world().colliders[index] shows a rigid body (it goes with the body).
  bool showsBody(std::size_t index) const;
  // Take world().colliders[index] out of the world now and out of every
  // rebuild (reset()); the cloth goes on as it is. Refused for a collider
  // that shows a rigid body, or an index out of range.
  Result<void> removeCollider(std::size_t index);

  // The current scene as a scene file: its source, every parameter, pins,
  // colliders, and `camera`.
  scene::SceneFile describe(const scene::CameraHint& camera) const;

  // Advance one frame and record its step time. False when the watchdog
  // caught an unstable step: the world is rolled back, lastError() says why.
  bool step();
  const std::string& lastError() const { return lastError_; }
  // Whether the watchdog caught a step since the scene was (re)built.
  bool watchdogTripped() const { return !lastError_.empty(); }
  // Rebuild the current scene with the current parameters.
  Result<void> reset();
  // Go on from `world` (a kept frame of this scene: the timeline's): its
  // step derives its context anew, the watchdog starts from it.
  void restoreWorld(sim::World world);
  // A scene from an OBJ file (not through a scene file): its options (as,
  // pin, up, scale); null otherwise.
  const scene::MeshSceneOptions* meshOptions() const {
    return mesh_ && !file_ ? &mesh_->options : nullptr;
  }
  // Rebuild such a scene from its file with other options (another pin, up
  // axis or scale): the new defaults under the user's settings, the colliders
  // added and removed as they were. Other scenes: reset().
  Result<void> reloadMesh(scene::MeshSceneOptions options);
  // Switch to another built-in scene with its own parameters, or, with
  // `keepSettings`, with the user's settings (settings()) on top of them;
  // with its own colliders only (those added to this scene are dropped).
  Result<void> switchScene(const std::string& name, bool keepSettings = false);
  // What the user changed: "KEY=VALUE" for every parameter that differs from
  // the scene's own (from --set, a scene file or the panel), in table order.
  std::vector<std::string> settings() const;
  // Apply edited parameters: live ones take effect at the next step; those
  // marked `rebuild` rebuild the scene.
  Result<void> applyParams(const sim::Params& edited);

  const std::string& sceneName() const { return sceneName_; }
  // What the window calls the scene (its title, the scene picker): the
  // label given, such as an example's "curtain (example)", else sceneName().
  // Kept through reset(); another scene starts without one.
  const std::string& label() const { return label_.empty() ? sceneName_ : label_; }
  void setLabel(std::string label) { label_ = std::move(label); }
  // The OBJ file the cloth came from (--mesh or a scene file's), or empty.
  const std::string& meshPath() const;
  // What loading ignored or repaired, one line each, starting with the file.
  const std::vector<std::string>& warnings() const { return warnings_; }
  sim::World& world() { return scene_.world; }
  const sim::World& world() const { return scene_.world; }
  const scene::CameraHint& camera() const { return scene_.camera; }
  sim::Params& params() { return scene_.world.params; }

  int framesStepped() const { return frames_; }
  const std::vector<double>& stepMs() const { return stepMs_; }

 private:
  std::string sceneName_;
  std::string label_;
  sim::Params defaults_;  // the scene's own parameters, before any of the user's
  struct MeshSource {
    sim::PreparedMesh mesh;           // as read, placed and prepared
    scene::MeshSceneOptions options;  // with `as` resolved
  };
  std::optional<MeshSource> mesh_;  // set when the scene came from a mesh file
  // Set when the scene came from a scene file: its pins, colliders and
  // camera, re-applied by reset().
  std::optional<scene::SceneFile> file_;
  std::vector<std::string> warnings_;
  std::vector<sim::Collider> extraColliders_;  // --collider's, after the scene's own
  // The scene's own colliders the user removed: indices in the list a
  // rebuild makes (before the extra ones), in the order removed.
  std::vector<std::size_t> removedOwn_;
  scene::Scene scene_;
  int frames_ = 0;
  std::vector<double> stepMs_;
  sim::Watchdog watchdog_;
  std::string lastError_;
};

}  // namespace drape::app
