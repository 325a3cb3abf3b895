#include "scene/scenes.hpp"

#include "scene/shapes.hpp"

namespace drape::scene {
namespace {

void noDefaults(sim::Params&) {}

// hang: a 2 m × 2 m cloth of resolution² vertices, horizontal at y = 1 m,
// centred on the y axis, its two corners at z = −1 pinned; floor at y = −1.5.
Result<Scene> buildHang(const sim::Params& params) {
  const int n = params.resolution;
  auto world = worldFromMesh(makeGrid(n, 2.0f, glm::vec3(0.0f, 1.0f, 0.0f)), params);
  if (!world) return fail(world.error());
  Scene scene{"hang", std::move(world.value()), {}};
  sim::pinVertex(scene.world, 0);                   // (x, z) = (−1, −1)
  sim::pinVertex(scene.world, std::uint32_t(n - 1));  // (x, z) = (+1, −1)
  scene.world.colliders.push_back(sim::Collider::plane({0.0f, -1.5f, 0.0f}, {0.0f, 1.0f, 0.0f}));
  scene.camera = {{0.0f, -0.1f, -0.4f}, 5.6f, 0.65f, 0.3f};
  return scene;
}

// drape: the cloth of hang, unpinned, falling onto a sphere of radius 0.5 m
// at the origin; floor at y = −1.
Result<Scene> buildDrape(const sim::Params& params) {
  auto world = worldFromMesh(makeGrid(params.resolution, 2.0f, glm::vec3(0.0f, 1.0f, 0.0f)), params);
  if (!world) return fail(world.error());
  Scene scene{"drape", std::move(world.value()), {}};
  scene.world.colliders.push_back(sim::Collider::sphere({0.0f, 0.0f, 0.0f}, 0.5f));
  scene.world.colliders.push_back(sim::Collider::plane({0.0f, -1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}));
  scene.camera = {{0.0f, 0.0f, 0.0f}, 5.0f, 0.6f, 0.45f};
  return scene;
}

// balloon: an icosphere of radius 0.5 m (642 vertices, 1280 triangles),
// centre at y = 0.5, falling onto a floor at y = −1.
Result<Scene> buildBalloon(const sim::Params& params) {
  auto world = worldFromMesh(makeIcosphere(3, 0.5f, glm::vec3(0.0f, 0.5f, 0.0f)), params);
  if (!world) return fail(world.error());
  Scene scene{"balloon", std::move(world.value()), {}};
  scene.world.colliders.push_back(sim::Collider::plane({0.0f, -1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}));
  scene.camera = {{0.0f, -0.2f, 0.0f}, 4.0f, 0.6f, 0.35f};
  return scene;
}

void balloonDefaults(sim::Params& p) {
  p.k_bend = 0.2f;
  p.iterations = 20;
}

const std::vector<SceneInfo> kScenes = {
    {"hang", "a 2 m square cloth pinned at two corners, hanging above the floor", noDefaults,
     buildHang},
    {"drape", "the same cloth, unpinned, falling onto a sphere", noDefaults, buildDrape},
    {"balloon", "a closed icosphere under pressure (k_pressure) falling onto the floor",
     balloonDefaults, buildBalloon},
};

}  // namespace

const std::vector<SceneInfo>& builtinScenes() { return kScenes; }

const SceneInfo* findScene(const std::string& name) {
  for (const SceneInfo& s : kScenes)
    if (name == s.name) return &s;
  return nullptr;
}

const char* defaultSceneName() { return "hang"; }

sim::Params sceneParams(const SceneInfo& scene) {
  sim::Params p;
  scene.defaults(p);
  return p;
}

Result<sim::World> worldFromMesh(const sim::TriMesh& mesh, const sim::Params& params) {
  auto prepared = sim::prepareMesh(mesh);
  if (!prepared) return fail(prepared.error());
  return sim::makeWorld(sim::buildCloth(prepared.value(), params.density), params);
}

}  // namespace drape::scene
