#include "scene/paper_scenes.hpp"

#include <cmath>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/quaternion.hpp>

#include "scene/shapes.hpp"
#include "sim/sim.hpp"

namespace drape::scene::paper {
namespace {

constexpr float kPi = 3.14159265358979f;

// UVs survive only when both pieces have them.
sim::TriMesh append(sim::TriMesh a, const sim::TriMesh& b) {
  const std::uint32_t base = std::uint32_t(a.positions.size());
  const bool uvs = (a.hasUVs() || a.triangles.empty()) && b.hasUVs();
  a.positions.insert(a.positions.end(), b.positions.begin(), b.positions.end());
  for (const glm::uvec3& t : b.triangles) a.triangles.push_back(t + glm::uvec3(base));
  if (uvs)
    a.cornerUVs.insert(a.cornerUVs.end(), b.cornerUVs.begin(), b.cornerUVs.end());
  else
    a.cornerUVs.clear();
  return a;
}

}  // namespace

// bag (paper Fig. 3): six closed cloth bags, flattened icospheres of 162
// vertices, each hung from the few vertices at its top. Columns left to
// right: k_stretch × 1, 1/2, 1/100; back row k_bend × 1, front row
// k_bend × 0. The materials are per-constraint multipliers of the global
// k_stretch and k_bend (both 1 here). The bags are cloth, not balloons: no
// pressure. No tethers or coarse levels either: their stretch limits would
// hold the soft bags near their rest length and hide the very stretching
// the scene shows. The figure is the paper's PBD, whose k (§3.3) bending
// does not change stretching; under XPBD's material a stiff shell carries
// the load in bending, as a real one does. PBD's stiffness is
// relative to the step (§3.3): at one step per frame the 1/100 bags would
// run down to the floor; five sub-steps of four iterations keep them bag-shaped.
void bagDefaults(sim::Params& p) {
  p.solver = sim::SolverKind::Pbd;
  p.iterations = 4;
  p.k_stretch = 1.0f;
  p.k_bend = 1.0f;
  p.tethers = 0;
  p.levels = 0;
  p.substeps = 5;
}

Result<Scene> buildBag(const sim::Params& params) {
  const glm::vec3 radii(0.16f, 0.2f, 0.08f);
  glm::vec3 centres[6];
  sim::TriMesh mesh;
  for (int b = 0; b < 6; ++b) {
    centres[b] = glm::vec3(-0.6f + 0.6f * float(b % 3), 1.3f, b < 3 ? -0.35f : 0.35f);
    sim::TriMesh bag = makeIcosphere(2, 1.0f, glm::vec3(0.0f));
    for (glm::vec3& x : bag.positions) x = centres[b] + radii * x;
    mesh = append(std::move(mesh), bag);
  }
  auto world = worldFromMesh(mesh, params);
  if (!world) return fail(world.error());
  Scene scene{"bag", std::move(world.value()), {}};
  sim::World& w = scene.world;
  w.cloth.pressureActive = false;
  auto bagOf = [&](std::uint32_t v) {
    const glm::vec3& x = w.cloth.restPositions[v];
    return (x.x < -0.3f ? 0 : x.x < 0.3f ? 1 : 2) + (x.z < 0.0f ? 0 : 3);
  };
  for (sim::StretchConstraint& c : w.cloth.stretch) c.stiffness = kBagMaterials[bagOf(c.a)].stretch;
  for (sim::BendConstraint& c : w.cloth.bend) c.stiffness = kBagMaterials[bagOf(c.v[0])].bend;
  for (sim::IsoBendConstraint& c : w.cloth.isoBend) c.stiffness = kBagMaterials[bagOf(c.v[0])].bend;
  for (std::uint32_t v = 0; v < w.vertexCount(); ++v) {
    const glm::vec3& x = w.cloth.restPositions[v];
    if (x.y > centres[bagOf(v)].y + 0.85f * radii.y) sim::pinVertex(w, v);
  }
  w.colliders.push_back(sim::Collider::plane({0.0f, -0.6f, 0.0f}, {0.0f, 1.0f, 0.0f}));
  scene.camera = framedFrom(0.35f, 0.25f);
  return scene;
}

// character (paper Figs. 7, 11): a closed gingerbread figure (shapes.hpp,
// 2562 vertices) inflated by the overpressure constraint (k_pressure 1.2:
// 20 % more than its rest volume), dropped onto a ball and a floor.
// Self collision is off by default: the inflated limbs pressed together
// make many contacts (self_collision=1 works, at a fraction of the rate).
void characterDefaults(sim::Params& p) {
  p.k_pressure = 1.2f;
  p.k_bend = 0.2f;
  p.substeps = 1;
  p.iterations = 15;
}

Result<Scene> buildCharacter(const sim::Params& params) {
  auto world = worldFromMesh(makeCharacter(4, 1.0f, glm::vec3(0.0f, 0.9f, 0.0f)), params);
  if (!world) return fail(world.error());
  Scene scene{"character", std::move(world.value()), {}};
  scene.world.colliders.push_back(sim::Collider::sphere({-0.2f, -0.45f, 0.1f}, 0.35f));
  scene.world.colliders.push_back(sim::Collider::plane({0.0f, -1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}));
  scene.camera = framedFrom(0.5f, 0.3f);
  return scene;
}

// stripes (paper Fig. 8): three stripes of cloth, each pinned at the top to
// a static box (one-way) and attached along its bottom edge to a box that
// is a rigid body (two-way: the stripe holds the body up, the body pulls the
// stripe down and twists it). The bodies start with a push and a spin, so
// they swing and twist. Small steps (substeps) keep the stripes from
// stretching under bodies twenty times their mass: Gauss-Seidel corrects
// the body by only its share w_body / (w_vertex + w_body) per projection.
void stripesDefaults(sim::Params& p) {
  p.substeps = 5;
  p.iterations = 10;
  p.k_bend = 0.2f;
}

Result<Scene> buildStripes(const sim::Params& params) {
  constexpr int kStripes = 3, nu = 5, nv = 19;
  const float width = 0.16f, length = 0.9f, top = 1.6f, thick = params.thickness;
  sim::TriMesh mesh;
  for (int s = 0; s < kStripes; ++s) {
    const float x = -0.6f + 0.6f * float(s);
    // Row 0 at the bottom, row nv − 1 at the top; normal +z.
    mesh = append(std::move(mesh), makeSheet(nu, nv, {x - 0.5f * width, top - length, 0.0f},
                                             {width, 0.0f, 0.0f}, {0.0f, length, 0.0f}));
  }
  auto world = worldFromMesh(mesh, params);
  if (!world) return fail(world.error());
  Scene scene{"stripes", std::move(world.value()), {}};
  sim::World& w = scene.world;
  const glm::vec3 pushes[kStripes] = {{0.8f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.6f}, {-0.4f, 0.0f, 0.5f}};
  const glm::vec3 spins[kStripes] = {{0.0f, 2.0f, 0.0f}, {0.0f, -4.0f, 0.0f}, {0.0f, 3.0f, 0.0f}};
  for (int s = 0; s < kStripes; ++s) {
    const float x = -0.6f + 0.6f * float(s);
    const std::uint32_t first = std::uint32_t(s * nu * nv);
    // Static block at the top; the top row is pinned to it.
    w.colliders.push_back(
        sim::Collider::box({x, top + 0.05f + 1.5f * thick, 0.0f}, {0.14f, 0.05f, 0.06f}));
    for (int i = 0; i < nu; ++i)
      sim::pinVertex(w, w.cloth.inputToVertex[first + std::uint32_t((nv - 1) * nu + i)]);
    // The rigid body below, 0.3 kg; the bottom row is attached to its top face.
    sim::RigidBody body = sim::makeBoxBody({x, top - length - 0.04f - 1.5f * thick, 0.0f},
                                           {0.12f, 0.04f, 0.08f}, 0.3f);
    body.v = pushes[s];
    body.omega = spins[s];
    const std::uint32_t b = sim::addBody(w, body);
    for (int i = 0; i < nu; ++i)
      sim::attachToBody(w, w.cloth.inputToVertex[first + std::uint32_t(i)], b);
  }
  scene.camera = framedFrom(0.4f, 0.15f);
  return scene;
}

// barrel (paper Fig. 9): a square cloth tumbling in a drum of radius 0.7 m
// and depth 1 m turning at 1.2 rad/s about the z axis. The drum is a ring
// of 16 box staves and three ribs that rotate with it (kinematic
// colliders), closed behind
// by a static wall and in front by an invisible plane (z = 0.5), so the
// camera looks in. Friction carries the cloth up the rising side until it
// slides and falls back; self collision keeps its folds apart.
void barrelDefaults(sim::Params& p) {
  p.resolution = 20;
  p.self_collision = 1;
  p.friction = 0.8f;
  p.substeps = 2;
  p.iterations = 8;
}

Result<Scene> buildBarrel(const sim::Params& params) {
  const float radius = 0.7f, depth = 1.0f, rate = 1.2f;
  const glm::vec3 axis(0.0f, 0.0f, 1.0f);
  auto world =
      worldFromMesh(makeGrid(params.resolution, 0.8f, glm::vec3(0.0f, -0.2f, 0.0f)), params);
  if (!world) return fail(world.error());
  Scene scene{"barrel", std::move(world.value()), {}};
  sim::World& w = scene.world;
  sim::Motion spin;
  spin.angularVelocity = rate * axis;
  constexpr int kStaves = 16;
  const float halfThick = 0.05f;
  // Staves a little wider than the polygon's side, so neighbours overlap.
  const float halfWidth = radius * std::tan(kPi / float(kStaves)) + 0.04f;
  for (int i = 0; i < kStaves; ++i) {
    const float angle = 2.0f * kPi * float(i) / float(kStaves);
    const glm::vec3 radial(std::cos(angle), std::sin(angle), 0.0f);
    sim::Collider stave = sim::Collider::box((radius + halfThick) * radial,
                                             {halfThick, halfWidth, 0.5f * depth + halfThick},
                                             glm::angleAxis(angle, axis));
    stave.motion = spin;
    w.colliders.push_back(stave);
  }
  // Three ribs along the inside, as in a tumble drier: friction alone lets
  // the cloth slide back once the wall is steeper than atan(friction); the
  // ribs lift it further, until it falls over them.
  for (int i = 0; i < 3; ++i) {
    const float angle = 2.0f * kPi * (float(i) + 0.25f) / 3.0f;
    const glm::vec3 radial(std::cos(angle), std::sin(angle), 0.0f);
    sim::Collider rib = sim::Collider::box((radius - 0.07f) * radial, {0.07f, 0.02f, 0.5f * depth},
                                           glm::angleAxis(angle, axis));
    rib.motion = spin;
    w.colliders.push_back(rib);
  }
  w.colliders.push_back(sim::Collider::box({0.0f, 0.0f, -0.5f * depth - halfThick},
                                           {radius + 0.15f, radius + 0.15f, halfThick}));
  w.colliders.push_back(sim::Collider::plane({0.0f, 0.0f, 0.5f * depth}, -axis));
  scene.camera = framedFrom(0.25f, 0.2f);
  return scene;
}

// flag: a 1.2 m × 0.8 m flag pinned along a pole (a capsule) in the wind,
// with aerodynamic drag and lift per triangle (aerodynamics.hpp). resolution
// sets the vertices along the flag's length (two thirds of it across).
void flagDefaults(sim::Params& p) {
  p.resolution = 31;
  p.wind = glm::vec3(8.0f, 0.0f, 2.0f);
  p.k_bend = 0.02f;
}

Result<Scene> buildFlag(const sim::Params& params) {
  const float poleRadius = 0.03f, width = 1.2f, height = 0.8f, top = 2.4f;
  const int nu = params.resolution, nv = (2 * (nu - 1) + 2) / 3 + 1;
  const float x0 = poleRadius + 1.5f * params.thickness;
  sim::TriMesh sheet =
      makeSheet(nu, nv, {x0, top - height, 0.0f}, {width, 0.0f, 0.0f}, {0.0f, height, 0.0f});
  // A flag is never quite flat: a ripple of a few millimetres. Flat, in a
  // plane through the gravity, an inextensible sheet held along its edge is
  // a cantilever in its own plane; only a solve that leaves it stretchy lets
  // it sag, and a converged one keeps it out in still air. Rippled, it
  // buckles and hangs in folds by the pole as cloth does.
  constexpr float kRipple = 0.002f;
  for (glm::vec3& q : sheet.positions) {
    const float u = (q.x - x0) / width;
    q.z = kRipple * u * std::sin(3.0f * glm::pi<float>() * u);
  }
  auto world = worldFromMesh(sheet, params);
  if (!world) return fail(world.error());
  Scene scene{"flag", std::move(world.value()), {}};
  sim::World& w = scene.world;
  for (int j = 0; j < nv; ++j)
    sim::pinVertex(w, w.cloth.inputToVertex[std::size_t(j) * std::size_t(nu)]);
  w.colliders.push_back(sim::Collider::capsule({0.0f, 1.25f, 0.0f}, poleRadius, 1.25f));
  w.colliders.push_back(sim::Collider::plane({0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}));
  scene.camera = framedFrom(0.5f, 0.15f);
  return scene;
}

}  // namespace drape::scene::paper
