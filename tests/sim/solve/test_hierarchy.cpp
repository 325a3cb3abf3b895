// Hierarchical PBD (hierarchy.hpp): the levels' structure, and what they do
// to a hanging cloth's stretch.

#include <gtest/gtest.h>

#include <utility>

#include <algorithm>
#include <cmath>

#include "scene_helpers.hpp"
#include "sim/solve/coloring.hpp"
#include "sim/solve/hierarchy.hpp"
#include "sim/stats.hpp"
#include "sim/step/context.hpp"
#include "sim/step/step.hpp"

using namespace drape;
using test_support::buildScene;

namespace {

void run(sim::World& w, int frames) {
  for (int f = 0; f < frames; ++f) sim::step(w);
}

}  // namespace

TEST(Hierarchy, EveryFinerVertexFollowsItsParentsAndPinsStayOnEveryLevel) {
  sim::World w = buildScene("hang", {"resolution=32"});
  const sim::Hierarchy h = sim::buildHierarchy(w.cloth, w.state.w, 4);
  ASSERT_GE(h.levels.size(), 2u);
  std::size_t finer = w.vertexCount();
  for (const sim::HierarchyLevel& level : h.levels) {
    // About a quarter of the finer level's vertices, each kept or led.
    EXPECT_LT(level.vertex.size(), finer / 2);
    EXPECT_GT(level.vertex.size(), finer / 8);
    EXPECT_EQ(level.vertex.size() + level.fine.size(), finer);
    for (std::uint32_t pin : {0u, 31u})
      EXPECT_NE(std::find(level.vertex.begin(), level.vertex.end(), pin), level.vertex.end());
    for (std::size_t k = 0; k < level.fine.size(); ++k) {
      ASSERT_LT(level.parentStart[k], level.parentStart[k + 1]);
      float sum = 0.0f;
      for (std::uint32_t q = level.parentStart[k]; q < level.parentStart[k + 1]; ++q)
        sum += level.weight[q];
      EXPECT_NEAR(sum, 1.0f, 1e-5f);
    }
    // Limits no shorter than the distance at rest: the rest shape satisfies them.
    for (std::size_t j = 0; j < level.a.size(); ++j) {
      const glm::vec3 d = w.cloth.restPositions[level.vertex[level.a[j]]] -
                          w.cloth.restPositions[level.vertex[level.b[j]]];
      EXPECT_GE(level.rest[j], glm::length(d) * (1.0f - 1e-6f));
    }
    finer = level.vertex.size();
  }
}

TEST(Hierarchy, APassAtRestMovesNothingAndAStretchedClothComesBack) {
  sim::World w = buildScene("drape", {"resolution=24"});
  sim::Hierarchy h = sim::buildHierarchy(w.cloth, w.state.w, 4);
  ASSERT_FALSE(h.levels.empty());
  w.state.p = w.state.x;
  sim::solveHierarchy(sim::Points::of(w.state), h, 1.0f);
  for (std::size_t i = 0; i < w.vertexCount(); ++i) ASSERT_EQ(w.state.p[i], w.state.x[i]);
  // Stretched to twice its size in x: one pass brings the coarse distances
  // back within their limits, and momentum along x is kept (no pins).
  for (glm::vec3& p : w.state.p) p.x *= 2.0f;
  double before = 0.0, after = 0.0;
  for (const glm::vec3& p : w.state.p) before += double(p.x);
  for (int pass = 0; pass < 3; ++pass) sim::solveHierarchy(sim::Points::of(w.state), h, 1.0f);
  for (const glm::vec3& p : w.state.p) after += double(p.x);
  EXPECT_NEAR(after, before, 1e-3 * double(w.vertexCount()));
  float width = 0.0f;
  for (const glm::vec3& p : w.state.p) width = std::max(width, std::abs(p.x));
  EXPECT_LT(width, 1.3f);  // from 2 m: the rest half-width is 1 m
}

// The pins' load reaches the far side of the cloth: at the same ten
// projections per frame, the coarse levels cut a 64² hanging cloth's mean
// strain several times over, and the worst percent of its edges with it.
TEST(Hierarchy, HangingClothStretchesFarLessWithLevels) {
  const std::vector<std::string> base = {"resolution=64", "substeps=2", "iterations=5"};
  auto strain = [&](const char* levels) {
    std::vector<std::string> sets = base;
    sets.push_back(levels);
    sim::World w = buildScene("hang", sets);
    run(w, 240);
    EXPECT_TRUE(sim::allFinite(w));
    return sim::strainStats(w);
  };
  const sim::StrainStats with = strain("levels=4"), without = strain("levels=0");
  EXPECT_LT(with.mean, 0.25f * without.mean);
  EXPECT_LT(with.p99, 0.5f * without.p99);
  EXPECT_LT(with.mean, 0.01f);
}

TEST(Hierarchy, SoftMaterialStillStretches) {
  // k_stretch 0.1 (Y = 123 N/m): the limits give way to 1.9 × rest, so the
  // hierarchy does not make a soft cloth rigid.
  sim::World soft = buildScene("hang", {"resolution=32", "k_stretch=0.1"});
  sim::World stiff = buildScene("hang", {"resolution=32"});
  run(soft, 180);
  run(stiff, 180);
  EXPECT_GT(sim::strainStats(soft).mean, 3.0f * sim::strainStats(stiff).mean);
}

TEST(Hierarchy, RebuiltWhenPinsOrTheGrabChange) {
  sim::World w = buildScene("hang", {"resolution=16"});
  sim::step(w);
  ASSERT_FALSE(sim::contextOf(w).hierarchy.empty());
  auto kept = [&](std::uint32_t v) {
    const auto& level = sim::contextOf(w).hierarchy.levels.front().vertex;
    return std::find(level.begin(), level.end(), v) != level.end();
  };
  // A soft grab leaves the vertex its mass: the levels stay as they were.
  const std::uint32_t v = 16 * 9 + 7;
  const std::vector<std::uint32_t> before = sim::contextOf(w).hierarchy.levels.front().vertex;
  sim::startGrab(w, v);
  sim::step(w);
  EXPECT_EQ(sim::contextOf(w).hierarchy.levels.front().vertex, before);
  sim::endGrab(w, glm::vec3(0.0f));
  sim::pinVertex(w, 16 * 15 + 3);
  sim::step(w);
  EXPECT_TRUE(kept(16 * 15 + 3));
}

// A flat cloth in free fall (no pins, no colliders) stays flat with either
// bending model at k_bend 1, at the origin and 100 m from it: isometric
// bending's rest value of a flat stencil is exactly 0, and its curvature is
// taken relative to the stencil (it buckled the cloth by 29 cm in 3 s).
TEST(Bending, FlatClothStaysFlatInFreeFall) {
  for (const char* bending : {"bending=dihedral", "bending=isometric"})
    for (float offset : {0.0f, 100.0f}) {
      sim::World w =
          buildScene("drape", {"resolution=24", "k_bend=1", "drag=0", "lift=0", bending});
      w.colliders.clear();
      for (glm::vec3& x : w.state.x) x.x += offset;
      run(w, 180);  // 3 s
      ASSERT_TRUE(sim::allFinite(w)) << bending;
      const sim::Bounds b = sim::bounds(w);
      EXPECT_LT(b.max.y - b.min.y, 1e-3f) << bending << " at x = " << offset;
    }
}

// At 64² the finest level's fine vertices are moved on all the solver's
// threads (Batched.ThreadCountDoesNotChangeTheResult then covers that
// split); the coarsest level's are few and stay on one.
TEST(Hierarchy, LargeLevelsAreSplitSmallOnesAreNot) {
  sim::World w = buildScene("hang", {"resolution=64"});
  const sim::Hierarchy h = sim::buildHierarchy(w.cloth, w.state.w, 4);
  ASSERT_GE(h.levels.size(), 2u);
  EXPECT_GE(h.levels.front().fine.size(), sim::kSplitFine);
  EXPECT_LT(h.levels.back().fine.size(), sim::kSplitFine);
  // The large level's constraints are in blocks (each block's in the
  // level's order, none joining two blocks), the small one's are not.
  const sim::HierarchyLevel& fine = h.levels.front();
  ASSERT_EQ(fine.blockStart.size(), sim::kSolveBlocks + 1);
  EXPECT_TRUE(h.levels.back().blockStart.empty());
  const std::size_t n = w.cloth.vertexCount();
  for (std::size_t g = 0; g < sim::kSolveBlocks; ++g)
    for (std::uint32_t j = fine.blockStart[g]; j < fine.blockStart[g + 1]; ++j) {
      EXPECT_EQ(std::size_t(fine.vertex[fine.a[j]]) * sim::kSolveBlocks / n, g);
      EXPECT_EQ(std::size_t(fine.vertex[fine.b[j]]) * sim::kSolveBlocks / n, g);
      if (j > fine.blockStart[g]) {
        EXPECT_LT(std::make_pair(fine.a[j - 1], fine.b[j - 1]),
                  std::make_pair(fine.a[j], fine.b[j]));
      }
    }
  EXPECT_LT(double(fine.a.size() - fine.blockStart[sim::kSolveBlocks]),
            0.1 * double(fine.a.size()));
}
