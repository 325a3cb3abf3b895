#pragma once
// Built-in scenes: the same definitions serve the app, the tests
// and the benchmarks, so what is measured is what users see.

#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "sim/sim.hpp"

namespace drape::scene {

// Where the camera looks first: orbit target, distance and angles (radians).
// With `frame`, the viewer finds target and distance itself, so that the
// whole scene fits its window seen from yaw and pitch (app/window_state.hpp);
// a scene file's camera never frames: it is kept as written.
struct CameraHint {
  glm::vec3 target{0.0f};
  float distance = 5.0f;
  float yaw = 0.6f;     // about +y, 0 looks along −z
  float pitch = 0.35f;  // above the horizon
  bool frame = false;
};

// The scene framed from `yaw` and `pitch`.
inline CameraHint framedFrom(float yaw, float pitch) {
  return {glm::vec3(0.0f), 5.0f, yaw, pitch, true};
}

struct Scene {
  std::string name;
  sim::World world;
  CameraHint camera;
};

struct SceneInfo {
  const char* name;
  const char* description;
  // Scene defaults, applied to the global defaults before the user's --set.
  void (*defaults)(sim::Params& params);
  Result<Scene> (*build)(const sim::Params& params);
};

const std::vector<SceneInfo>& builtinScenes();
const SceneInfo* findScene(const std::string& name);
const char* defaultSceneName();

// Parameters of a scene: global defaults, then the scene's own.
sim::Params sceneParams(const SceneInfo& scene);

// The cloth of a scene from a triangle mesh: prepare (weld, repair, orient),
// build constraints and masses with params.density, and make a world.
Result<sim::World> worldFromMesh(const sim::TriMesh& mesh, const sim::Params& params);
sim::World worldFromPrepared(const sim::PreparedMesh& mesh, const sim::Params& params);

}  // namespace drape::scene
