// Balloons from tetrahedra (balloon_model=tets, volume constraints per tetrahedron): the
// constraint's gradient, the tetrahedra of a sphere and of a torus, momentum, the balloon scene
// keeping and gaining volume, determinism, and a torn balloon.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "gradient_check.hpp"
#include "scene_helpers.hpp"
#include "sim/constraints.hpp"
#include "sim/models/tet_volume.hpp"
#include "sim/stats.hpp"
#include "sim/step/context.hpp"
#include "sim/step/step.hpp"
#include "sim/watchdog.hpp"

using namespace drape;
using test_support::buildScene;
using test_support::hashPositions;

namespace {

// A torus around the y axis (major radius 1 m, tube 0.3 m), outward.
sim::TriMesh torus(int around = 32, int tube = 12) {
  sim::TriMesh mesh;
  const float pi = 3.14159265f;
  for (int i = 0; i < around; ++i)
    for (int j = 0; j < tube; ++j) {
      const float u = 2.0f * pi * float(i) / float(around), v = 2.0f * pi * float(j) / float(tube);
      const float r = 1.0f + 0.3f * std::cos(v);
      mesh.positions.push_back({r * std::cos(u), 1.0f + 0.3f * std::sin(v), r * std::sin(u)});
    }
  auto at = [&](int i, int j) { return std::uint32_t((i % around) * tube + (j % tube)); };
  for (int i = 0; i < around; ++i)
    for (int j = 0; j < tube; ++j) {
      mesh.triangles.push_back({at(i, j), at(i, j + 1), at(i + 1, j + 1)});
      mesh.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i + 1, j)});
    }
  if (sim::sixVolume(mesh.positions, mesh.triangles) < 0.0f)
    for (glm::uvec3& t : mesh.triangles) std::swap(t[1], t[2]);
  return mesh;
}

float volumeRatio(const sim::World& w) {
  return sim::currentVolume(w) / sim::restVolume(w);
}

}  // namespace

TEST(Gradient, TetVolumeMatchesFiniteDifferences) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<glm::dvec3> x(4);
    for (glm::dvec3& p : x) p = {u(rng), u(rng), u(rng)};
    const double rest = u(rng);
    const auto e = sim::evalTetVolume(x[0], x[1], x[2], x[3], rest);
    ASSERT_TRUE(e.valid);
    // C + rest is six times the signed volume (a determinant).
    const glm::dmat3 m(x[0] - x[3], x[1] - x[3], x[2] - x[3]);
    EXPECT_NEAR(e.C + rest, glm::determinant(m), 1e-12);
    auto C = [&](const std::vector<glm::dvec3>& p) {
      return sim::evalTetVolume(p[0], p[1], p[2], p[3], rest).C;
    };
    for (std::size_t i = 0; i < 4; ++i) {
      SCOPED_TRACE("trial " + std::to_string(trial) + " vertex " + std::to_string(i));
      drape::test_support::expectNear(e.grad[i], drape::test_support::numericGradient(C, x, i),
                                      1e-7);
    }
  }
}

TEST(TetVolume, ASphereIsSplitAtItsCentroid) {
  sim::World w = buildScene("balloon", {"balloon_model=tets"});
  const sim::TetVolumes tv = sim::buildTetVolumes(w.cloth);
  EXPECT_EQ(tv.centres.size(), 1u);
  EXPECT_EQ(tv.skipped, 0u);
  ASSERT_EQ(tv.tets.size(), w.cloth.triangles.size());
  double sum = 0.0;
  for (const sim::VolumeTet& t : tv.tets) {
    EXPECT_GT(t.restSixVolume, 0.0f);
    sum += double(t.restSixVolume);
  }
  // Around one point, the tetrahedra add up to the enclosed volume.
  EXPECT_NEAR(sum, double(w.cloth.restSixVolume), 1e-4 * double(w.cloth.restSixVolume));
}

TEST(TetVolume, ATorusGetsSeveralInteriorPoints) {
  sim::Params params;
  params.balloon_model = sim::BalloonModel::Tets;
  auto built = scene::worldFromMesh(torus(), params);
  ASSERT_TRUE(built) << built.error();
  sim::World w = std::move(built.value());
  ASSERT_TRUE(w.cloth.pressureActive);
  const sim::TetVolumes tv = sim::buildTetVolumes(w.cloth);
  // The centroid lies in the hole: it cannot serve the inner half.
  EXPECT_GT(tv.centres.size(), 2u);
  EXPECT_EQ(tv.skipped, 0u);
  EXPECT_EQ(tv.tets.size(), w.cloth.triangles.size());
  for (const sim::VolumeTet& t : tv.tets) EXPECT_GT(t.restSixVolume, 0.0f);
  // And it holds its volume when dropped on a floor.
  w.colliders.push_back(sim::Collider::plane({0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}));
  w.params.iterations = 20;
  for (int frame = 0; frame < 120; ++frame) sim::step(w);
  ASSERT_TRUE(sim::allFinite(w));
  EXPECT_NEAR(volumeRatio(w), 1.0f, 0.15f);
}

TEST(TetVolume, ProjectionKeepsMomentum) {
  // Unequal masses, a distorted balloon: Σ m Δp = 0 after a pass.
  sim::World w = buildScene("balloon", {"balloon_model=tets"});
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (float& m : w.cloth.mass) m *= 1.0f + 0.8f * u(rng);
  sim::refreshInverseMasses(w);
  sim::TetVolumes tv = sim::buildTetVolumes(w.cloth);
  for (glm::vec3& p : w.state.p) p += 0.05f * glm::vec3(u(rng), u(rng), u(rng));
  const std::vector<glm::vec3> before = w.state.p;
  sim::solveTetVolumes(w.state, tv, 1.0f);
  glm::dvec3 moved(0.0), scale(0.0);
  for (std::size_t i = 0; i < before.size(); ++i) {
    const glm::dvec3 d = glm::dvec3(w.state.p[i] - before[i]);
    moved += double(w.cloth.mass[i]) * d;
    scale += double(w.cloth.mass[i]) * glm::abs(d);
  }
  ASSERT_GT(scale.x + scale.y + scale.z, 0.0);
  EXPECT_LT(glm::length(moved), 1e-4 * (scale.x + scale.y + scale.z));
}

TEST(TetVolume, BalloonKeepsItsVolumeOnTheFloor) {
  for (const char* kernels : {"kernels=batched", "kernels=reference"}) {
    sim::World w = buildScene("balloon", {"balloon_model=tets", kernels});
    float lo = 1.0f, hi = 1.0f;
    for (int frame = 0; frame < 250; ++frame) {
      sim::step(w);
      lo = std::min(lo, volumeRatio(w));
      hi = std::max(hi, volumeRatio(w));
    }
    ASSERT_TRUE(sim::allFinite(w));
    EXPECT_GT(lo, 0.85f) << kernels;
    EXPECT_LT(hi, 1.15f) << kernels;
    // It fell and lies on the floor (y = −1).
    EXPECT_LT(sim::bounds(w).min.y, -0.95f) << kernels;
    EXPECT_GT(sim::minColliderDistance(w), -0.02f) << kernels;
  }
}

TEST(TetVolume, HigherPressureInflates) {
  sim::World w = buildScene("balloon", {"balloon_model=tets", "k_pressure=1.5", "gravity=0"});
  for (int frame = 0; frame < 120; ++frame) sim::step(w);
  ASSERT_TRUE(sim::allFinite(w));
  EXPECT_GT(volumeRatio(w), 1.05f);
}

TEST(TetVolume, IsDeterministic) {
  auto run = [] {
    sim::World w = buildScene("balloon", {"balloon_model=tets"});
    for (int frame = 0; frame < 120; ++frame) sim::step(w);
    return hashPositions(w);
  };
  EXPECT_EQ(run(), run());
}

TEST(TetVolume, TornBalloonLosesItsTetrahedra) {
  // As the pressure test in test_tearing.cpp: pull a balloon apart until it tears.
  sim::World w = buildScene("balloon", {"balloon_model=tets", "tear=1.3", "gravity=0"});
  const auto [top, bottom] = test_support::pullTopAndBottomApart(w);
  sim::Watchdog dog;
  dog.reset(w);
  sim::step(w);
  EXPECT_FALSE(sim::contextOf(w).tets.tets.empty());
  for (int frame = 0; frame < 60 && w.cloth.pressureActive; ++frame) {
    sim::step(w);
    ASSERT_TRUE(dog.afterStep(w).ok);
  }
  EXPECT_FALSE(w.cloth.pressureActive);
  EXPECT_GT(w.tornEdges, 0u);
  // Torn and open: no tetrahedra on it, even when built directly.
  EXPECT_TRUE(sim::buildTetVolumes(w.cloth).tets.empty());
  sim::unpinVertex(w, top);
  sim::unpinVertex(w, bottom);
  w.params.gravity = glm::vec3(0.0f, -9.81f, 0.0f);
  for (int frame = 0; frame < 120; ++frame) {
    sim::step(w);
    ASSERT_TRUE(dog.afterStep(w).ok);
  }
  EXPECT_LT(sim::currentVolume(w), 0.5f * sim::restVolume(w));
}
