// Every built-in scene runs and stays finite; the paper's scenes show what
// they are for: bags (Fig. 3) stretch by k_stretch whatever k_bend, the
// character is one clean closed manifold under pressure, the stripes' rigid
// bodies swing and pull back (Fig. 8), the barrel carries its cloth up
// (Fig. 9), and the flag streams downwind.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "scene_helpers.hpp"
#include "sim/models/aerodynamics.hpp"
#include "sim/models/rigid_body.hpp"
#include "sim/stats.hpp"
#include "sim/step/step.hpp"
#include "sim/world.hpp"

using namespace drape;
using test_support::buildScene;

namespace {

glm::vec3 meanPosition(const sim::World& w, std::size_t begin = 0,
                       std::size_t end = std::size_t(-1)) {
  end = std::min(end, w.vertexCount());
  glm::dvec3 sum(0.0);
  for (std::size_t i = begin; i < end; ++i) sum += glm::dvec3(w.state.x[i]);
  return glm::vec3(sum / double(end - begin));
}

}  // namespace

TEST(Scenes, EveryBuiltinSceneRunsFiniteWithADescription) {
  for (const scene::SceneInfo& info : scene::builtinScenes()) {
    SCOPED_TRACE(info.name);
    EXPECT_GT(std::string(info.description).size(), 10u);
    sim::World w = buildScene(info.name);
    ASSERT_GT(w.vertexCount(), 0u);
    for (int f = 0; f < 200; ++f) sim::step(w);
    EXPECT_TRUE(sim::allFinite(w));
    for (const sim::RigidBody& b : w.bodies) {
      EXPECT_TRUE(std::isfinite(b.x.x) && std::isfinite(b.x.y) && std::isfinite(b.x.z));
      EXPECT_TRUE(std::isfinite(b.omega.x) && std::isfinite(b.omega.y) && std::isfinite(b.omega.z));
    }
  }
}

// --- bag (Fig. 3) -----------------------------------------------------------

int bagOf(const glm::vec3& rest) {
  return (rest.x < -0.3f ? 0 : rest.x < 0.3f ? 1 : 2) + (rest.z < 0.0f ? 0 : 3);
}

// Each bag's mean strain (l − l0)/l0 over its edges.
std::vector<double> bagStrains(const sim::World& w) {
  std::vector<double> sum(6, 0.0), count(6, 0.0);
  for (const sim::StretchConstraint& c : w.cloth.stretch) {
    const std::size_t b = std::size_t(bagOf(w.cloth.restPositions[c.a]));
    sum[b] += double((glm::length(w.state.x[c.a] - w.state.x[c.b]) - c.rest) / c.rest);
    count[b] += 1.0;
  }
  for (std::size_t b = 0; b < 6; ++b) sum[b] /= count[b];
  return sum;
}

// Mean strain of each bag over frames 100 to 200 (the softest still sway).
std::vector<double> settledBagStrains(const std::vector<std::string>& sets = {}, int frames = 200) {
  sim::World w = buildScene("bag", sets);
  EXPECT_FALSE(w.cloth.pressureActive);
  std::vector<double> mean(6, 0.0);
  const int from = frames / 2;
  for (int f = 0; f < frames; ++f) {
    sim::step(w);
    if (f < from) continue;
    const auto s = bagStrains(w);
    for (std::size_t b = 0; b < 6; ++b) mean[b] += s[b] / double(frames - from);
  }
  EXPECT_TRUE(sim::allFinite(w));
  return mean;
}

TEST(Scenes, BagsStretchByTheirStretchingStiffnessWhateverTheirBending) {
  const std::vector<double> strain = settledBagStrains();
  // Softer bags stretch more, in both rows (k_bend × 1 behind, × 0 in front).
  for (std::size_t row : {0u, 3u}) {
    EXPECT_LT(strain[row], strain[row + 1]) << row;
    EXPECT_LT(5.0 * strain[row + 1], strain[row + 2]) << row;
    EXPECT_GT(strain[row + 2], 0.1) << row;  // 1/100 stretches visibly
  }
  // Bending does not change stretching (paper §5.1): for each k_stretch the
  // rows agree, far closer than the columns differ.
  for (std::size_t c = 0; c < 3; ++c)
    EXPECT_NEAR(strain[c], strain[c + 3], 0.35 * strain[c] + 0.01) << c;
}

TEST(Scenes, UniformMaterialMultipliersLeaveTheSolveUnchanged) {
  // A material multiplier of 1 everywhere is the global stiffness itself:
  // bit-identical to a cloth without materials on every solver path.
  for (const char* path : {"kernels=batched", "kernels=reference"})
    for (const char* solver : {"solver=pbd", "solver=xpbd"}) {
      sim::World a = buildScene("hang", {"resolution=16", path, solver, "threads=1"});
      sim::World b = a;
      // b has one constraint marked with a multiplier of exactly 1 × k.
      b.cloth.stretch[3].stiffness = 2.0f;  // min(1, 1 × 2) = 1, the same k
      for (int f = 0; f < 30; ++f) {
        sim::step(a);
        sim::step(b);
      }
      EXPECT_EQ(test_support::hashPositions(a), test_support::hashPositions(b))
          << path << " " << solver;
    }
}

TEST(Scenes, MaterialMultipliersAgreeAcrossKernelPaths) {
  // Each bag stretches as far with the batched kernels as with plain
  // Gauss-Seidel (the orders differ, so not bit for bit), and XPBD orders
  // the bags without bending the same way.
  const auto batched = settledBagStrains({"kernels=batched", "substeps=2"}, 120);
  const auto reference = settledBagStrains({"kernels=reference", "substeps=2"}, 120);
  for (std::size_t b = 0; b < 6; ++b)
    EXPECT_NEAR(batched[b], reference[b], 0.25 * batched[b] + 0.005) << b;
  // The front row (no bending): under XPBD's material the stiff-bending
  // bags behind carry their weight in bending, as shells do.
  const auto xpbd = settledBagStrains({"solver=xpbd", "substeps=2"}, 120);
  EXPECT_LE(xpbd[3], xpbd[4] + 1e-4);
  EXPECT_LT(2.0 * xpbd[4], xpbd[5]);
}

// --- character (Figs. 7, 11) ------------------------------------------------

TEST(Scenes, CharacterIsOneClosedOrientedManifoldThatNeedsNoRepair) {
  const sim::TriMesh mesh = scene::makeCharacter(4, 1.0f, glm::vec3(0.0f));
  auto prepared = sim::prepareMesh(mesh);
  ASSERT_TRUE(prepared);
  const sim::MeshReport& r = prepared->report;
  EXPECT_TRUE(r.repairs().empty()) << r.repairs().front();
  EXPECT_TRUE(r.closed);
  EXPECT_TRUE(r.orientable);
  EXPECT_EQ(r.pieces, 1u);
  EXPECT_EQ(r.flippedTriangles, 0u);
  EXPECT_GT(sim::sixVolume(mesh.positions, mesh.triangles), 0.0f);  // outward
  // No sliver and no fold: no triangle much smaller than the mean, and
  // across every edge the two triangles' normals within 90° of each other.
  std::vector<glm::vec3> normal;
  float total = 0.0f, smallest = 1e9f;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> firstOfEdge;
  for (const glm::uvec3& t : mesh.triangles) {
    const glm::vec3 &a = mesh.positions[t[0]], &b = mesh.positions[t[1]], &c = mesh.positions[t[2]];
    const glm::vec3 n = glm::cross(b - a, c - a);
    total += 0.5f * glm::length(n);
    smallest = std::min(smallest, 0.5f * glm::length(n));
    normal.push_back(glm::normalize(n));
  }
  int folds = 0;
  for (std::size_t i = 0; i < mesh.triangles.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      std::uint32_t u = mesh.triangles[i][k], v = mesh.triangles[i][(k + 1) % 3];
      auto key = std::make_pair(std::min(u, v), std::max(u, v));
      auto [it, fresh] = firstOfEdge.emplace(key, i);
      if (!fresh && glm::dot(normal[it->second], normal[i]) < 0.0f) ++folds;
    }
  EXPECT_EQ(folds, 0);
  EXPECT_GT(smallest, 0.1f * total / float(mesh.triangles.size()));
}

TEST(Scenes, CharacterInflatesAndLandsOnItsColliders) {
  sim::World w = buildScene("character");
  ASSERT_TRUE(w.cloth.pressureActive);
  const float rest = sim::restVolume(w);
  for (int f = 0; f < 150; ++f) sim::step(w);
  ASSERT_TRUE(sim::allFinite(w));
  EXPECT_GT(sim::currentVolume(w), 1.1f * rest);  // k_pressure = 1.2
  const sim::Bounds b = sim::bounds(w);
  EXPECT_LT(b.min.y, -0.6f);                       // fell past the ball
  EXPECT_GT(sim::minColliderDistance(w), -0.02f);  // and through nothing
}

// --- stripes (Fig. 8) ---------------------------------------------------------

TEST(Scenes, AttachmentKeepsMomentumOfClothAndBody) {
  // One free vertex tied to a free body, no gravity: equal and opposite
  // corrections keep the total linear momentum.
  sim::World w =
      buildScene("stripes", {"gravity=0,0,0", "damping=0", "tethers=0", "drag=0", "lift=0"});
  // Nothing from outside: no air, no pins, no colliders (a body's collider pushes
  // the cloth one way).
  w.pins.clear();
  ++w.pinsVersion;
  sim::refreshInverseMasses(w);
  w.colliders.clear();
  for (sim::RigidBody& b : w.bodies) b.collider = UINT32_MAX;
  auto momentum = [&] {
    glm::dvec3 p(0.0);
    for (std::size_t i = 0; i < w.vertexCount(); ++i)
      p += double(w.cloth.mass[i]) * glm::dvec3(w.state.v[i]);
    for (const sim::RigidBody& b : w.bodies) p += glm::dvec3(sim::linearMomentum(b));
    return p;
  };
  const glm::dvec3 before = momentum();
  for (int f = 0; f < 60; ++f) sim::step(w);
  const glm::dvec3 after = momentum();
  EXPECT_LT(glm::length(after - before), 1e-3 * glm::length(before) + 1e-5);
}

TEST(Scenes, FreeBodyKeepsItsEnergyAndAngularMomentum) {
  sim::RigidBody b = sim::makeBoxBody({0, 0, 0}, {0.3f, 0.1f, 0.05f}, 2.0f);
  b.omega = {0.1f, 0.05f, 3.0f};  // about the axis of largest inertia, slightly off
  std::vector<sim::RigidBody> bodies{b};
  std::vector<sim::Collider> colliders;
  const float e0 = sim::kineticEnergy(bodies[0]);
  const glm::vec3 l0 = sim::angularMomentum(bodies[0]);
  for (int i = 0; i < 600; ++i) {
    sim::predictBodies(bodies, glm::vec3(0.0f), 1.0f / 300.0f);
    sim::updateBodies(bodies, colliders, 1.0f / 300.0f);
  }
  EXPECT_NEAR(sim::kineticEnergy(bodies[0]), e0, 0.05f * e0);
  EXPECT_LT(glm::length(sim::angularMomentum(bodies[0]) - l0), 0.05f * glm::length(l0));
}

TEST(Scenes, StripeBodiesSwingAndTwist) {
  sim::World w = buildScene("stripes");
  ASSERT_EQ(w.bodies.size(), 3u);
  ASSERT_EQ(w.attachments.size(), 15u);
  std::vector<glm::quat> q0;
  for (const auto& b : w.bodies) q0.push_back(b.q);
  std::vector<float> maxAngle(3, 0.0f), maxSwing(3, 0.0f);
  std::vector<glm::vec3> x0;
  for (const auto& b : w.bodies) x0.push_back(b.x);
  for (int f = 0; f < 120; ++f) {
    sim::step(w);
    for (std::size_t i = 0; i < 3; ++i) {
      const sim::RigidBody& b = w.bodies[i];
      const float angle = 2.0f * std::acos(std::min(1.0f, std::abs(glm::dot(b.q, q0[i]))));
      maxAngle[i] = std::max(maxAngle[i], angle);
      const glm::vec3 d = b.x - x0[i];
      maxSwing[i] = std::max(maxSwing[i], std::sqrt(d.x * d.x + d.z * d.z));
    }
    // The collider that shows the body follows it.
    const sim::Pose pose = sim::poseAt(w.colliders[w.bodies[0].collider], w.time);
    ASSERT_LT(glm::length(pose.position - w.bodies[0].x), 1e-6f);
  }
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_GT(maxAngle[i], 0.3f) << i;   // twisted
    EXPECT_GT(maxSwing[i], 0.03f) << i;  // swung
  }
  // Still attached: every attached vertex sits at its point on the body.
  for (const sim::BodyAttachment& a : w.attachments)
    EXPECT_LT(glm::length(w.state.x[a.vertex] - w.bodies[a.body].toWorld(a.local)), 0.01f);
}

TEST(Scenes, AHeavierBodyStretchesItsStripeMore) {
  // Two-way coupling: the stripe carries the body's weight, so a heavier
  // body hangs lower; and it holds the body up (it does not fall freely).
  auto settledDrop = [](float mass) {
    sim::World w = buildScene("stripes");
    for (sim::RigidBody& b : w.bodies) {
      const float scale = mass / b.mass;
      b.mass = mass;
      b.inertia *= scale;
      b.v = glm::vec3(0.0f);
      b.omega = glm::vec3(0.0f);
    }
    const float y0 = w.bodies[1].x.y;
    for (int f = 0; f < 150; ++f) sim::step(w);
    return y0 - w.bodies[1].x.y;
  };
  const float light = settledDrop(0.1f), heavy = settledDrop(1.0f);
  EXPECT_GT(light, 0.0f);
  EXPECT_GT(heavy, light + 0.002f);
  EXPECT_LT(heavy, 0.1f);  // held up by the stripe
}

// --- barrel (Fig. 9) ----------------------------------------------------------

TEST(Scenes, BarrelKeepsItsClothInsideAndCarriesItUp) {
  sim::World w = buildScene("barrel");
  float lowest = 1e9f, riseAfterLowest = 0.0f, maxX = -1e9f;
  for (int f = 0; f < 300; ++f) {
    sim::step(w);
    const glm::vec3 c = meanPosition(w);
    if (f > 30) {  // landed
      if (c.y < lowest) lowest = c.y;
      riseAfterLowest = std::max(riseAfterLowest, c.y - lowest);
      maxX = std::max(maxX, c.x);
    }
  }
  ASSERT_TRUE(sim::allFinite(w));
  for (const glm::vec3& x : w.state.x) {
    EXPECT_LT(std::sqrt(x.x * x.x + x.y * x.y), 0.72f);
    EXPECT_LT(std::abs(x.z), 0.52f);
  }
  // The drum turns counter-clockwise seen from +z: its bottom moves to +x
  // and carries the cloth up that side.
  EXPECT_GT(maxX, 0.1f);
  EXPECT_GT(riseAfterLowest, 0.05f);
}

// --- flag ---------------------------------------------------------------------

TEST(Scenes, AeroForceFollowsTheFormula) {
  // A unit right triangle (area ½) in the x–y plane, air along −z + x.
  const glm::vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  const glm::vec3 wind(3.0f, 0.0f, -4.0f);  // |v| = 5, v·n = −4
  const glm::vec3 dragOnly = sim::triangleAeroForce(a, b, c, glm::vec3(0.0f), wind, 1.0f, 0.0f);
  const float q = 0.5f * sim::kAirDensity * 0.5f;
  EXPECT_NEAR(dragOnly.z, q * 5.0f * -4.0f, 1e-5f);
  EXPECT_NEAR(dragOnly.x, 0.0f, 1e-6f);
  const glm::vec3 liftOnly = sim::triangleAeroForce(a, b, c, glm::vec3(0.0f), wind, 0.0f, 1.0f);
  EXPECT_NEAR(glm::dot(liftOnly, wind), 0.0f, 1e-4f);  // perpendicular to the air
  // |F_l| = q |v|² cos θ sin θ = q · 25 · 0.8 · 0.6.
  EXPECT_NEAR(glm::length(liftOnly), q * 25.0f * 0.8f * 0.6f, 1e-4f);
  // Flipping the triangle changes nothing; moving with the air, no force.
  EXPECT_NEAR(
      glm::length(sim::triangleAeroForce(a, c, b, {}, wind, 1.0f, 1.0f) - (dragOnly + liftOnly)),
      0.0f, 1e-5f);
  EXPECT_EQ(sim::triangleAeroForce(a, b, c, wind, wind, 1.0f, 1.0f), glm::vec3(0.0f));
}

TEST(Scenes, FlagStreamsDownwindAndHangsInStillAir) {
  auto meanX = [](const std::vector<std::string>& sets) {
    sim::World w = buildScene("flag", sets);
    for (int f = 0; f < 200; ++f) sim::step(w);
    EXPECT_TRUE(sim::allFinite(w));
    return meanPosition(w).x;
  };
  const float windy = meanX({}), still = meanX({"wind=0,0,0"}), back = meanX({"wind=-8,0,2"});
  EXPECT_GT(windy, 0.4f);  // half the 1.2 m flag is 0.6 m out
  EXPECT_LT(still, 0.2f);  // hangs down by the pole
  EXPECT_LT(back, -0.2f);  // turned round to stream the other way
}

TEST(Scenes, StillAirSlowsAFallingClothAndDragZeroTurnsItOff) {
  // The drape cloth (0.1 kg/m², flat) in its first 15 frames, before the
  // sphere: without air it falls as a stone does; in still air it nears
  // its terminal speed, √(ρ_s g / (½ ρ_air drag)) ≈ 1.3 m/s.
  auto fallSpeed = [](const std::vector<std::string>& sets) {
    sim::World w = buildScene("drape", sets);
    const float y0 = meanPosition(w).y;
    for (int f = 0; f < 15; ++f) sim::step(w);
    glm::dvec3 v(0.0);
    for (const glm::vec3& vi : w.state.v) v += glm::dvec3(vi);
    EXPECT_LT(meanPosition(w).y, y0);
    return -v.y / double(w.vertexCount());
  };
  const double t = 15.0 / 60.0;
  EXPECT_NEAR(fallSpeed({"resolution=16", "drag=0", "lift=0", "damping=0"}), 9.81 * t,
              0.01 * 9.81 * t);
  const double still = fallSpeed({"resolution=16"});
  EXPECT_GT(still, 0.8);
  EXPECT_LT(still, 1.6);
}

TEST(Scenes, StillAirOnlyTakesEnergyHoweverTheClothMoves) {
  // Random velocities of up to 100 m/s on a cloth stretched to 20 times its
  // size (a cloth torn or without stretch stiffness): the explicit air step
  // may move energy between vertices, never add it.
  sim::World w = buildScene("hang", {"resolution=10", "drag=3", "lift=2"});
  std::uint32_t seed = 12345u;
  auto rnd = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return float(seed >> 8) / float(1u << 24) - 0.5f;
  };
  for (std::size_t i = 0; i < w.vertexCount(); ++i) {
    w.state.x[i] *= 20.0f;
    w.state.v[i] = 200.0f * glm::vec3(rnd(), rnd(), rnd());
  }
  auto energy = [&w] {
    double e = 0.0;
    for (std::size_t i = 0; i < w.vertexCount(); ++i)
      if (w.state.w[i] > 0.0f)
        e += 0.5 * double(glm::dot(w.state.v[i], w.state.v[i])) / w.state.w[i];
    return e;
  };
  sim::AirScratch scratch;
  const double start = energy();
  for (int k = 0; k < 50; ++k) {
    const double before = energy();
    sim::applyAerodynamics(w.cloth, w.params, w.state, 1.0f / 60.0f, sim::solverTeam(w), scratch);
    EXPECT_LE(energy(), before);
  }
  EXPECT_LT(energy(), 0.9 * start);  // and it did act (on the triangles' mean motion)
}
