#pragma once
// Scene files (JSON): a description of a run's start that reproduces it bit
// for bit. Which cloth (a built-in scene or an OBJ file), every parameter by
// its one name (the parameter table), pins, colliders with their motion, and
// the camera. The format is documented in README.md ("Scene files"):
//
//   { "drape_scene": 1,
//     "mesh": { "scene": "hang" }            or { "obj": "cloth.obj", "as": "cloth",
//                                                 "seams": [[0, 9], [1, 10]] },
//     "params": { "k_stretch": 0.5, "solver": "xpbd", "gravity": [0, -9.81, 0], ... },
//     "pins": [ { "vertex": 0, "anchor": [x, y, z], "motion": {...}, "start": 0 } ],
//     "colliders": [ { "shape": "sphere", "center": [0, 0, 0], "radius": 0.5,
//                      "motion": { "angular_velocity": [0, 0, 1], "pivot": [0, 0, 0] } } ],
//     "camera": { "target": [0, 0, 0], "distance": 5, "yaw": 0.6, "pitch": 0.35 } }
//
// Only "drape_scene" and "mesh" are required; parameters left out take the
// base scene's defaults, and absent "pins"/"colliders"/"camera" keep the base
// scene's. Errors name the file and the field ("params.k_stretch: ...").

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scene/mesh_scene.hpp"
#include "scene/scenes.hpp"
#include "sim/sim.hpp"

namespace drape::scene {

inline constexpr int kSceneFileVersion = 1;

// A pin as a scene file gives it: the anchor defaults to where the vertex is.
struct PinSpec {
  std::uint32_t vertex = 0;  // index into the simulated (welded) mesh
  std::optional<glm::vec3> anchor;
  sim::Motion motion;
  double start = 0.0;  // s, when the motion starts
};

// Where a mesh collider comes from: an OBJ file (relative paths relative to
// the scene file) and the scale from its units to metres.
struct MeshColliderSource {
  std::size_t collider = 0;  // index in SceneFile::colliders
  std::string objPath;
  float scale = 1.0f;
  // An OBJ sequence (objPath a folder): its frames per second, 0 for one
  // file per simulated frame.
  float fps = 0.0f;
};

// Reads a mesh collider's OBJ (io::readMeshShape in the app).
using MeshShapeLoader = Result<std::shared_ptr<const sim::MeshShape>> (*)(const std::string& path,
                                                                          float scale);

struct SceneFile {
  // The cloth: a built-in scene's name, or else an OBJ file.
  std::string builtin;
  std::string objPath;  // as read: relative paths are relative to the scene file
  MeshAs objAs = MeshAs::Auto;
  bool objZUp = false;    // the OBJ's up axis is +z
  float objScale = 1.0f;  // the OBJ's units to metres
  // Seams sewn beside the OBJ's own `l` seams: pairs of its vertices,
  // 0-based in its vertex order ("mesh": {"seams": [[i, j], ...]}).
  std::vector<glm::uvec2> seams;
  // Parameters, typed and checked against the table; the loader applies
  // them over the base scene's defaults. Values are written so that they
  // read back as the same float.
  std::vector<sim::ParamSetting> params;
  std::optional<std::vector<PinSpec>> pins;
  std::optional<std::vector<sim::Collider>> colliders;
  // The mesh colliders' files. Parsing leaves their shapes empty; they are
  // read by loadMeshColliders.
  std::vector<MeshColliderSource> meshColliders;
  std::optional<CameraHint> camera;
};

// A deforming collider a built-in scene made in memory (no folder): it comes
// with the scene, not with the file.
inline bool generatedSequence(const sim::Collider& c) {
  return c.sequence && c.sequence->source.empty();
}

// Parse scene-file text. `name` prefixes every message (the file's path).
Result<SceneFile> parseSceneFile(const std::string& text, const std::string& name);
// Read and parse a scene file; objPath comes back resolved against the file's folder.
Result<SceneFile> readSceneFile(const std::string& path);

// Read the OBJ of every mesh collider whose shape is not there yet. Errors
// name the file and the field (colliders[1].obj: ...).
Result<void> loadMeshColliders(SceneFile& file, MeshShapeLoader load, const std::string& name);

// Pins, colliders and camera of the file replace the built scene's. Fails
// when a pin names a vertex the cloth does not have, or a mesh collider's
// shape was not loaded.
Result<void> applySceneFile(const SceneFile& file, Scene& scene, const std::string& name);

// The scene file of a world: its parameters (all of them), pins, colliders and `camera`.
SceneFile describeScene(const sim::World& world, const CameraHint& camera);
// Text of a scene file (objPath written as given).
std::string sceneFileText(const SceneFile& file);
// The text of `file` to be saved at `path`: the OBJ paths made relative to
// that file's folder when it can be. Refused when the OBJ path is not UTF-8
// (JSON text cannot hold it).
Result<std::string> sceneFileTextFor(const std::string& path, SceneFile file);

// Whether a --scene argument names a scene file rather than a built-in scene.
bool looksLikeSceneFile(const std::string& nameOrPath);

}  // namespace drape::scene
