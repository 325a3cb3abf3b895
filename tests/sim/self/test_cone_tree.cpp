// The normal-cone tree of the crossing search (cone_tree.hpp): its shape
// (connected nodes, every triangle and edge in one leaf), that it rules a
// flat or gently curved cloth out whole, and that the culled search finds
// what the search of every edge finds, on a tangle, on any thread count.
// The self contacts' walk of the same tree: the contacts it leaves are the
// full lookups', and it gives up on a pile.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "scene_helpers.hpp"
#include "sim/self/cone_tree.hpp"
#include "sim/self/self_collision.hpp"
#include "sim/self/untangle.hpp"
#include "sim/step/context.hpp"
#include "sim/step/plan.hpp"
#include "sim/step/step.hpp"
#include "sim/tearing.hpp"
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
    EXPECT_TRUE(tangles.coneSearch.pairs.empty()) << "bend " << bend;
  }
  sim::World rolled = sheet(65, 2.1f);
  sim::Tangles tangles = culled(rolled, 2);
  EXPECT_FALSE(tangles.coneSearch.pairs.empty());
}

TEST(ConeTree, CulledSearchFindsWhatEveryEdgeFindsInATangleOnAnyThreadCount) {
  // The 64² fold under PBD at one sub-step of four iterations, kept at one sub-step
  // while crossed, passes through itself in hundreds of places.
  sim::World w = buildScene("fold", {"resolution=64", "solver=pbd", "substeps=1", "iterations=4",
                                     "drag=0", "crossing_substeps=1"});
  int compared = 0;
  for (int frame = 1; frame <= 60; ++frame) {
    sim::step(w);
    if (frame % 12 != 0) continue;
    sim::Tangles every;
    ASSERT_TRUE(sim::findCrossings(w.cloth, w.state.x, nullptr, every));
    ASSERT_GT(every.crossings.size(), 0u) << "frame " << frame;
    std::vector<glm::uvec2> onePairs;
    for (int threads : {1, 2}) {
      const sim::Tangles found = culled(w, threads);
      // The walk leaves the same pairs, in the same order, on any number
      // of threads.
      if (threads == 1) onePairs = found.coneSearch.pairs;
      EXPECT_TRUE(found.coneSearch.pairs == onePairs) << "frame " << frame;
      ASSERT_EQ(found.crossings.size(), every.crossings.size()) << "frame " << frame;
      for (std::size_t k = 0; k < found.crossings.size(); ++k) {
        EXPECT_EQ(found.crossings[k].edge, every.crossings[k].edge);
        EXPECT_EQ(found.crossings[k].triangle, every.crossings[k].triangle);
      }
      // The tree left out most of the cloth: fewer pairs left to test than
      // there are leaves side by side (each pair of neighbours counts twice).
      EXPECT_LT(found.coneSearch.pairs.size(), found.cones.adjacent.size());
    }
    ++compared;
  }
  EXPECT_EQ(compared, 5);
}

// A strip 0.3 m wide wound 1.3 times round a circle of radius 1 m in the
// plane y = 0, rising 2 cm a turn and banked ever more across its width
// (by 0 to 0.4 m/m). Every normal is within 25° of +y, every part joined
// to the next, but where the strip comes round again its banked end passes
// through its start.
sim::World woundStrip() {
  constexpr int along = 240, across = 8;
  constexpr float turns = 1.3f, width = 0.3f, rise = 0.02f, bank = 0.4f;
  sim::TriMesh mesh;
  for (int i = 0; i <= along; ++i)
    for (int j = 0; j <= across; ++j) {
      const float u = float(i) / along, v = width * (float(j) / across - 0.5f);
      const float angle = 2.0f * float(M_PI) * turns * u, r = 1.0f + v;
      mesh.positions.push_back(
          {r * std::cos(angle), rise * turns * u + bank * u * v, -r * std::sin(angle)});
    }
  for (int i = 0; i < along; ++i)
    for (int j = 0; j < across; ++j) {
      const std::uint32_t a = std::uint32_t(i * (across + 1) + j), b = a + 1;
      const std::uint32_t c = a + across + 1, d = c + 1;
      mesh.triangles.push_back({a, b, c});
      mesh.triangles.push_back({b, d, c});
    }
  for (const glm::uvec3& t : mesh.triangles) {
    const glm::vec3 n = glm::cross(mesh.positions[t[1]] - mesh.positions[t[0]],
                                   mesh.positions[t[2]] - mesh.positions[t[0]]);
    EXPECT_GT(glm::normalize(n).y, std::cos(0.44f));
  }
  sim::Params params;
  auto world = scene::worldFromMesh(mesh, params);
  EXPECT_TRUE(world) << world.error();
  return std::move(world.value());
}

TEST(ConeTree, AStripWoundRoundInItsOwnPlaneIsSearchedWhereItsOutlineCrossesItself) {
  // Narrow cones alone would rule the whole strip out; its outline, seen
  // along its cone's axis, crosses itself, and the culled search finds
  // every crossing the search of every edge finds.
  sim::World w = woundStrip();
  sim::Tangles every;
  ASSERT_TRUE(sim::findCrossings(w.cloth, w.state.x, nullptr, every));
  ASSERT_GT(every.crossings.size(), 10u);
  for (int threads : {1, 2}) {
    const sim::Tangles found = culled(w, threads);
    ASSERT_EQ(found.crossings.size(), every.crossings.size());
    for (std::size_t k = 0; k < found.crossings.size(); ++k) {
      EXPECT_EQ(found.crossings[k].edge, every.crossings[k].edge);
      EXPECT_EQ(found.crossings[k].triangle, every.crossings[k].triangle);
    }
  }
  // A flat sheet, whose outline is simple, is still ruled out whole, 100 m
  // from the origin too.
  sim::World flat = sheet(65, 0.0f);
  for (glm::vec3& p : flat.state.x) p += glm::vec3(100.0f, 0.0f, -100.0f);
  EXPECT_TRUE(culled(flat, 1).coneSearch.pairs.empty());
}

// A cloth that tears changes its topology from one search to the next: the
// plan asks for the tree (a culled search) only at the second search of a
// topology.
TEST(ConeTree, ATreeIsBuiltOnlyWhenTheTopologyHoldsFromOneSearchToTheNext) {
  sim::World w = sheet(17, 0.0f);
  w.params.self_collision = 1;
  const std::uint64_t topology = w.cloth.topologyVersion;
  sim::CrossingPlan plan = sim::planCrossingSearch(w);
  ASSERT_EQ(plan.kind, sim::CrossingSearchKind::Search);
  EXPECT_FALSE(plan.culled);  // asked once: not built
  sim::step(w);
  EXPECT_EQ(w.solver.crossings.treeAsked, topology);
  EXPECT_NE(w.solver.crossings.treeBuilt, topology);
  while (sim::planCrossingSearch(w).kind != sim::CrossingSearchKind::Search) sim::step(w);
  EXPECT_TRUE(sim::planCrossingSearch(w).culled);
  sim::step(w);
  EXPECT_EQ(w.solver.crossings.treeBuilt, topology);
  // A tear: the first search of the new topology is not culled.
  ASSERT_TRUE(sim::tearEdge(w, 40).split);
  plan = sim::planCrossingSearch(w);
  EXPECT_EQ(plan.kind, sim::CrossingSearchKind::Search);
  EXPECT_FALSE(plan.culled);
}

// Two flat sheets, the second 4 mm above the first and shifted along x by
// `shift` m, so that they overlap over 1 − shift of their width.
sim::World twoSheets(float shift) {
  sim::TriMesh mesh = scene::makeGrid(33, 1.0f, glm::vec3(0.0f));
  const sim::TriMesh upper = scene::makeGrid(33, 1.0f, glm::vec3(shift, 0.004f, 0.0f));
  const std::uint32_t base = std::uint32_t(mesh.positions.size());
  mesh.positions.insert(mesh.positions.end(), upper.positions.begin(), upper.positions.end());
  for (const glm::uvec3& t : upper.triangles) mesh.triangles.push_back(t + glm::uvec3(base));
  mesh.cornerUVs.insert(mesh.cornerUVs.end(), upper.cornerUVs.begin(), upper.cornerUVs.end());
  sim::Params params;
  params.self_collision = 1;
  auto world = scene::worldFromMesh(mesh, params);
  EXPECT_TRUE(world) << world.error();
  return std::move(world.value());
}

// The self contacts of the world's state moving by `motion` over the
// sub-step, with the cone walk (cone_tree.hpp) or without.
std::vector<sim::SelfContact> contacts(test_support::SelfSearchRun& run, sim::World& w,
                                       const glm::vec3& motion, bool walk) {
  for (std::size_t i = 0; i < w.state.x.size(); ++i) w.state.p[i] = w.state.x[i] + motion;
  return run.search(w, walk);
}

TEST(ConeTree, TheContactsWalkLeavesTheSmoothPartsOutAndFindsTheSameContacts) {
  // Each sheet is flat and whole: only where one lies over the other are
  // triangles left to look up, and they find every contact the lookups of
  // all the triangles find.
  sim::World w = twoSheets(0.75f);
  test_support::SelfSearchRun run;
  run.tangles = culled(w, 1);
  ASSERT_TRUE(run.tangles.cones.usable);
  for (const glm::vec3 motion : {glm::vec3(0.0f), glm::vec3(0.3f, -0.2f, 0.1f)}) {
    const std::vector<sim::SelfContact> walked = contacts(run, w, motion, true);
    const std::vector<std::uint8_t> exposed = run.self.exposed;
    ASSERT_EQ(exposed.size(), w.cloth.triangles.size());
    const std::size_t left = std::size_t(std::count(exposed.begin(), exposed.end(), 1));
    EXPECT_GT(left, 0u);
    EXPECT_LT(left, w.cloth.triangles.size() / 2);
    const std::vector<sim::SelfContact> all = contacts(run, w, motion, false);
    EXPECT_TRUE(run.self.exposed.empty());
    ASSERT_GT(all.size(), 100u);
    ASSERT_EQ(walked.size(), all.size());
    for (std::size_t k = 0; k < all.size(); ++k)
      EXPECT_EQ(std::memcmp(walked[k].v, all[k].v, sizeof all[k].v), 0) << "contact " << k;
  }
  // Apart, nothing is left.
  sim::World apart = twoSheets(1.5f);
  test_support::SelfSearchRun apartRun;
  apartRun.tangles = culled(apart, 2);
  EXPECT_TRUE(contacts(apartRun, apart, glm::vec3(0.0f), true).empty());
  EXPECT_EQ(std::count(apartRun.self.exposed.begin(), apartRun.self.exposed.end(), 1), 0);
}

TEST(ConeTree, TheContactsWalkGivesUpOnAPileAndRestsBeforeTheNext) {
  // The 64² fold piled up leaves most of its leaves: the walk gives up and
  // the lookups take every triangle, for 16 sub-steps; each time it gives
  // up again, twice as many, up to 128.
  sim::World w = buildScene("fold", {"resolution=64"});
  for (int frame = 0; frame < 60; ++frame) sim::step(w);
  ASSERT_EQ(w.solver.crossings.treeBuilt, w.cloth.topologyVersion);
  test_support::SelfSearchRun run;
  run.tangles = culled(w, 2);
  const std::vector<sim::SelfContact> after = contacts(run, w, glm::vec3(0.0f), true);
  EXPECT_TRUE(run.self.exposed.empty());
  EXPECT_EQ(run.state.coneRest, 16);
  EXPECT_GT(after.size(), 1000u);
  for (const int rest : {32, 64, 128, 128}) {
    EXPECT_EQ(contacts(run, w, glm::vec3(0.0f), true).size(), after.size());
    EXPECT_TRUE(run.self.exposed.empty());
    EXPECT_EQ(run.state.coneRest, rest);
  }
  // The searches of a step count a rest down, walking no tree, and walk
  // again at its end.
  run.state.coneRest = 2;
  EXPECT_FALSE(sim::planConeWalk(run.state, true));
  EXPECT_FALSE(sim::planConeWalk(run.state, true));
  EXPECT_EQ(run.state.coneRest, 0);
  EXPECT_TRUE(sim::planConeWalk(run.state, true));
  EXPECT_FALSE(sim::planConeWalk(run.state, false));  // no tree: nothing to walk
  // A walk that leaves few triangles starts the count again.
  sim::World apart = twoSheets(1.5f);
  test_support::SelfSearchRun apartRun;
  apartRun.tangles = culled(apart, 2);
  apartRun.state.coneGiveUps = 3;
  EXPECT_TRUE(contacts(apartRun, apart, glm::vec3(0.0f), true).empty());
  EXPECT_FALSE(apartRun.self.exposed.empty());
  EXPECT_EQ(apartRun.state.coneGiveUps, 0);
}

}  // namespace
}  // namespace drape
