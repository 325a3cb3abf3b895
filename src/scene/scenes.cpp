#include "scene/scenes.hpp"

#include <algorithm>
#include <cmath>

#include "scene/garment_scene.hpp"
#include "scene/paper_scenes.hpp"
#include "scene/rope_scene.hpp"
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
  sim::pinVertex(scene.world, 0);                     // (x, z) = (−1, −1)
  sim::pinVertex(scene.world, std::uint32_t(n - 1));  // (x, z) = (+1, −1)
  scene.world.colliders.push_back(sim::Collider::plane({0.0f, -1.5f, 0.0f}, {0.0f, 1.0f, 0.0f}));
  scene.camera = framedFrom(0.65f, 0.3f);
  return scene;
}

// drape: the cloth of hang, unpinned, falling onto a sphere of radius 0.5 m
// at the origin; floor at y = −1.
Result<Scene> buildDrape(const sim::Params& params) {
  auto world =
      worldFromMesh(makeGrid(params.resolution, 2.0f, glm::vec3(0.0f, 1.0f, 0.0f)), params);
  if (!world) return fail(world.error());
  Scene scene{"drape", std::move(world.value()), {}};
  scene.world.colliders.push_back(sim::Collider::sphere({0.0f, 0.0f, 0.0f}, 0.5f));
  scene.world.colliders.push_back(sim::Collider::plane({0.0f, -1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}));
  scene.camera = framedFrom(0.6f, 0.45f);
  return scene;
}

// balloon: an icosphere of radius 0.5 m (642 vertices, 1280 triangles),
// centre at y = 0.5, falling onto a floor at y = −1.
Result<Scene> buildBalloon(const sim::Params& params) {
  auto world = worldFromMesh(makeIcosphere(3, 0.5f, glm::vec3(0.0f, 0.5f, 0.0f)), params);
  if (!world) return fail(world.error());
  Scene scene{"balloon", std::move(world.value()), {}};
  scene.world.colliders.push_back(sim::Collider::plane({0.0f, -1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}));
  scene.camera = framedFrom(0.6f, 0.35f);
  return scene;
}

void balloonDefaults(sim::Params& p) {
  p.k_bend = 0.2f;
  p.substeps = 1;  // a balloon's inflation is its stretch: no coarse levels, one step of 20
  p.iterations = 20;
}

// tear: a vertical cloth of 2 m × 1.5 m (resolution² vertices) in the x–y
// plane, its top edge at y = 2. The middle third of the top edge is pinned
// still; the outer sixths of the top edge are held by pins that move apart
// at 0.25 m/s each, so the cloth rips (paper Fig. 10 in spirit).
Result<Scene> buildTear(const sim::Params& params) {
  const int n = params.resolution;
  sim::TriMesh mesh = makeGrid(n, 2.0f, glm::vec3(0.0f));
  // Grid row j (z from −1 to 1) becomes a height from 2 m down to 0.5 m.
  for (glm::vec3& x : mesh.positions) x = glm::vec3(x.x, 1.25f - 0.75f * x.z, 0.0f);
  auto world = worldFromMesh(mesh, params);
  if (!world) return fail(world.error());
  Scene scene{"tear", std::move(world.value()), {}};
  sim::Motion left, right;
  left.velocity = glm::vec3(-0.25f, 0.0f, 0.0f);
  right.velocity = glm::vec3(0.25f, 0.0f, 0.0f);
  for (int i = 0; i < n; ++i) {
    const std::uint32_t v = scene.world.cloth.inputToVertex[std::size_t(i)];  // top row
    if (6 * i < n)
      sim::pinVertex(scene.world, v, left);
    else if (6 * i >= 5 * (n - 1))
      sim::pinVertex(scene.world, v, right);
    else if (3 * i >= n - 1 && 3 * i <= 2 * (n - 1))
      sim::pinVertex(scene.world, v);
  }
  scene.world.colliders.push_back(sim::Collider::plane({0.0f, -0.5f, 0.0f}, {0.0f, 1.0f, 0.0f}));
  scene.camera = framedFrom(0.0f, 0.1f);
  return scene;
}

void tearDefaults(sim::Params& p) {
  p.tear = 1.5f;
}

// fold: a 1.5 m square cloth of resolution² vertices (37² = 1369 by
// default, as paper Fig. 6), flat at rest. It starts bent along its middle
// (for odd resolutions a row of vertices lies on the fold line, so nothing is
// stretched): one half 0.1 m above the floor
// (y = 0), the other raised from the fold line and leaning 30° back over the
// first. Dropped, it lands and the raised half falls onto the other: the
// cloth folds onto itself. Self collision on; without it the layers pass
// through each other.
Result<Scene> buildFold(const sim::Params& params) {
  auto world = worldFromMesh(makeGrid(params.resolution, 1.5f, glm::vec3(0.0f)), params);
  if (!world) return fail(world.error());
  Scene scene{"fold", std::move(world.value()), {}};
  const float angle = 2.0943951f;  // 120° from the flat half
  const glm::vec3 raised(0.0f, std::sin(angle), std::cos(angle));
  for (glm::vec3& x : scene.world.state.x) {
    const float beyond = std::max(x.z, 0.0f);  // distance past the fold line z = 0
    x = glm::vec3(x.x, 0.1f, std::min(x.z, 0.0f) + 0.35f) + beyond * raised;
  }
  scene.world.state.p = scene.world.state.x;
  scene.world.colliders.push_back(sim::Collider::plane({0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}));
  scene.camera = framedFrom(0.6f, 0.5f);
  return scene;
}

// The raised half lands at about 4 m/s, more than an edge length per frame:
// three sub-steps keep each step's motion, and so what one set of self
// contacts must cover, within a fraction of an edge.
void foldDefaults(sim::Params& p) {
  p.resolution = 37;
  p.self_collision = 1;
  p.substeps = 3;
  p.iterations = 5;
}

const std::vector<SceneInfo> kScenes = {
    {"hang", "a 2 m square cloth pinned at two corners, hanging above the floor", noDefaults,
     buildHang},
    {"drape", "the same cloth, unpinned, falling onto a sphere", noDefaults, buildDrape},
    {"balloon", "a closed icosphere under pressure (k_pressure) falling onto the floor",
     balloonDefaults, buildBalloon},
    {"tear", "a hanging cloth pulled apart by its top corners until it tears (tear)", tearDefaults,
     buildTear},
    {"fold", "a cloth dropped at an angle onto the floor, folding onto itself (self_collision)",
     foldDefaults, buildFold},
    {"bag",
     "six closed bags hung from their tops, k_stretch x 1, 1/2, 1/100 with and without bending "
     "(paper Fig. 3)",
     paper::bagDefaults, paper::buildBag},
    {"character", "an inflated gingerbread figure (k_pressure) dropped onto a ball and the floor",
     paper::characterDefaults, paper::buildCharacter},
    {"stripes",
     "cloth stripes pinned to static blocks, swinging rigid bodies hung from them, coupled two "
     "ways (paper Fig. 8)",
     paper::stripesDefaults, paper::buildStripes},
    {"barrel", "a cloth tumbling in a rotating barrel with friction and self collision (Fig. 9)",
     paper::barrelDefaults, paper::buildBarrel},
    {"flag", "a flag on a pole streaming in the wind (wind, drag, lift)", paper::flagDefaults,
     paper::buildFlag},
    {"rope", "ropes swinging onto a ball and a washing line holding a small flag", noDefaults,
     buildRope},
    {"garment",
     "a T-shirt of two panels sewn around a mannequin that raises its arms and turns (seams, "
     "a deforming collider)",
     garmentDefaults, buildGarment},
};

}  // namespace

const std::vector<SceneInfo>& builtinScenes() {
  return kScenes;
}

const SceneInfo* findScene(const std::string& name) {
  for (const SceneInfo& s : kScenes)
    if (name == s.name) return &s;
  return nullptr;
}

const char* defaultSceneName() {
  return "hang";
}

sim::Params sceneParams(const SceneInfo& scene) {
  sim::Params p;
  scene.defaults(p);
  return p;
}

Result<sim::World> worldFromMesh(const sim::TriMesh& mesh, const sim::Params& params) {
  auto prepared = sim::prepareMesh(mesh);
  if (!prepared) return fail(prepared.error());
  return worldFromPrepared(prepared.value(), params);
}

sim::World worldFromPrepared(const sim::PreparedMesh& mesh, const sim::Params& params) {
  return sim::makeWorld(sim::buildCloth(mesh, params.density), params);
}

}  // namespace drape::scene
