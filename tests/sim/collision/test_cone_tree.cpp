// The normal-cone tree of the crossing search (cone_tree.hpp): its shape
// (connected nodes, every triangle and edge in one leaf), that it rules a
// flat or gently curved cloth out whole, and that the culled search finds
// what the search of every edge finds, on a tangle, on any thread count.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "scene_helpers.hpp"
#include "sim/collision/cone_tree.hpp"
#include "sim/collision/untangle.hpp"
#include "sim/solve/step.hpp"
#include "sim/thread_team.hpp"

namespace drape {
namespace {

using test_support::buildScene;

sim::World sheet(int n, float bend) {
  sim::TriMesh mesh = scene::makeGrid(n, 1.0f, glm::vec3(0.0f));
  // Rolled about the z axis into an arc of radius 1 / (2 bend): the normal
  // turns by up to ±bend radians from the middle's.
  if (bend > 0.0f) {
    const float r = 0.5f / bend;
    for (glm::vec3& p : mesh.positions)
      p = glm::vec3(r * std::sin(p.x / r), r * (1.0f - std::cos(p.x / r)), p.z);
  }
  sim::Params params;
  auto world = scene::worldFromMesh(mesh, params);
  EXPECT_TRUE(world) << world.error();
  return std::move(world.value());
}

// Finds crossings the culled way twice (the first search of a topology
// searches every edge, the second builds the tree and uses it).
sim::Tangles culled(const sim::World& w, int threads) {
  sim::Tangles tangles;
  for (int k = 0; k < 2; ++k)
    EXPECT_TRUE(sim::findCrossings(w.cloth, w.state.x, &sim::threadTeam(threads), tangles,
                                   sim::CrossingSearch::Culled));
  EXPECT_EQ(tangles.conesTopology, w.cloth.topologyVersion);
  return tangles;
}

TEST(ConeTree, EveryNodeOfOnePieceIsConnectedAndEveryTriangleAndEdgeIsInOneLeaf) {
  sim::World w = sheet(33, 0.0f);
  sim::Tangles tangles = culled(w, 1);
  const sim::ConeTree& tree = tangles.cones;
  ASSERT_TRUE(tree.usable);
  std::vector<int> triangleSeen(w.cloth.triangles.size(), 0), edgeSeen(w.cloth.stretch.size(), 0);
  for (std::uint32_t l = 0; l < tree.leafNode.size(); ++l) {
    const sim::ConeTree::Node& leaf = tree.nodes[tree.leafNode[l]];
    EXPECT_EQ(leaf.child[0], sim::ConeTree::kNoChild);
    EXPECT_LE(leaf.triEnd - leaf.triBegin, sim::kConeLeaf);
    EXPECT_EQ(leaf.leafBegin, l);
    for (std::uint32_t k = leaf.triBegin; k < leaf.triEnd; ++k) ++triangleSeen[tree.triangles[k]];
    for (std::uint32_t k = leaf.edgeBegin; k < leaf.edgeEnd; ++k) {
      const std::uint32_t e = tree.edges[k];
      ++edgeSeen[e];
      // The edge borders one of its leaf's triangles.
      bool borders = false;
      for (std::uint32_t j = leaf.triBegin; j < leaf.triEnd; ++j) {
        const glm::uvec3& t = w.cloth.triangles[tree.triangles[j]];
        int shared = 0;
        for (int c = 0; c < 3; ++c)
          shared += (t[c] == w.cloth.stretch[e].a) + (t[c] == w.cloth.stretch[e].b);
        borders = borders || shared == 2;
      }
      EXPECT_TRUE(borders) << "edge " << e;
    }
  }
  EXPECT_TRUE(std::all_of(triangleSeen.begin(), triangleSeen.end(), [](int c) { return c == 1; }));
  EXPECT_TRUE(std::all_of(edgeSeen.begin(), edgeSeen.end(), [](int c) { return c == 1; }));
  for (const sim::ConeTree::Node& node : tree.nodes) EXPECT_TRUE(node.connected);
  // About as many leaves as a full tree would have.
  EXPECT_LE(tree.leafNode.size(), 2 * w.cloth.triangles.size() / sim::kConeLeaf + 1);
}

TEST(ConeTree, AFlatOrGentlyCurvedSheetIsRuledOutWhole) {
  // Rolled by up to ±60° from its middle: every normal within 60° of the
  // middle's. Rolled by ±120°, the ends face each other: pairs are left.
  for (const float bend : {0.0f, 1.0f}) {
    sim::World w = sheet(65, bend);
    sim::Tangles tangles = culled(w, 2);
    EXPECT_TRUE(tangles.crossings.empty());
    EXPECT_TRUE(tangles.cones.pairs.empty()) << "bend " << bend;
  }
  sim::World rolled = sheet(65, 2.1f);
  sim::Tangles tangles = culled(rolled, 2);
  EXPECT_FALSE(tangles.cones.pairs.empty());
}

TEST(ConeTree, CulledSearchFindsWhatEveryEdgeFindsInATangleOnAnyThreadCount) {
  // The 64² fold at one sub-step of four iterations, kept at one sub-step
  // while crossed, passes through itself in hundreds of places.
  sim::World w =
      buildScene("fold", {"resolution=64", "substeps=1", "iterations=4", "crossing_substeps=1"});
  int compared = 0;
  for (int frame = 1; frame <= 60; ++frame) {
    sim::step(w);
    if (frame % 12 != 0) continue;
    sim::Tangles every;
    ASSERT_TRUE(sim::findCrossings(w.cloth, w.state.x, nullptr, every));
    ASSERT_GT(every.crossings.size(), 0u) << "frame " << frame;
    for (int threads : {1, 2}) {
      const sim::Tangles found = culled(w, threads);
      ASSERT_EQ(found.crossings.size(), every.crossings.size()) << "frame " << frame;
      for (std::size_t k = 0; k < found.crossings.size(); ++k) {
        EXPECT_EQ(found.crossings[k].edge, every.crossings[k].edge);
        EXPECT_EQ(found.crossings[k].triangle, every.crossings[k].triangle);
      }
      // The tree left out most of the cloth: fewer pairs left to test than
      // there are leaves side by side (each pair of neighbours counts twice).
      EXPECT_LT(found.cones.pairs.size(), found.cones.adjacent.size());
    }
    ++compared;
  }
  EXPECT_EQ(compared, 5);
}

// A cloth that tears changes its topology from one search to the next: the
// tree is built only when a second search finds the same topology.
TEST(ConeTree, ATreeIsBuiltOnlyWhenTheTopologyHoldsFromOneSearchToTheNext) {
  sim::World w = sheet(17, 0.0f);
  sim::Tangles tangles;
  ASSERT_TRUE(
      sim::findCrossings(w.cloth, w.state.x, nullptr, tangles, sim::CrossingSearch::Culled));
  EXPECT_NE(tangles.conesTopology, w.cloth.topologyVersion);  // asked once: not built
  ASSERT_TRUE(
      sim::findCrossings(w.cloth, w.state.x, nullptr, tangles, sim::CrossingSearch::Culled));
  EXPECT_EQ(tangles.conesTopology, w.cloth.topologyVersion);
}

}  // namespace
}  // namespace drape
