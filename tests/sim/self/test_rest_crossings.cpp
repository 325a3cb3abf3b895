// Pieces that cross at rest (rest_crossings.hpp): two overlapping balls
// keep their crossings as they are (never untangled, never more sub-steps,
// no more crossings than without self collision), while a sheet dropped on
// them is still kept from passing through either.

#include <gtest/gtest.h>

#include <vector>

#include "scene/mesh_scene.hpp"
#include "scene/shapes.hpp"
#include "sim/self/untangle.hpp"
#include "sim/stats.hpp"
#include "sim/step/step.hpp"

using namespace drape;

namespace {

// Two balls of 0.3 m overlapping by a third of their size (off
// symmetry: their vertices would meet), and a sheet
// 0.6 m wide flat above them: three pieces.
constexpr std::uint32_t kBallVertices = 642;  // an icosphere of 3 levels
sim::TriMesh ballsAndSheet() {
  sim::TriMesh mesh;
  auto append = [&](const sim::TriMesh& part) {
    const auto base = std::uint32_t(mesh.positions.size());
    mesh.positions.insert(mesh.positions.end(), part.positions.begin(), part.positions.end());
    for (const glm::uvec3& t : part.triangles) mesh.triangles.push_back(t + base);
  };
  append(scene::makeIcosphere(3, 0.3f, {-0.2f, 0.5f, 0.0f}));
  append(scene::makeIcosphere(3, 0.3f, {0.21f, 0.52f, 0.03f}));
  append(scene::makeSheet(16, 16, {-0.3f, 0.9f, 0.3f}, {0.6f, 0.0f, 0.0f}, {0.0f, 0.0f, -0.6f}));
  return mesh;
}

sim::World world(int selfCollision) {
  sim::Params params;
  params.self_collision = selfCollision;
  scene::MeshSceneOptions options;
  options.as = scene::MeshAs::Cloth;
  // The balls held by their upper halves, as a model hangs from its top:
  // their lower halves sag, and the circle where they cross slides.
  const sim::TriMesh mesh = ballsAndSheet();
  options.pin.kind = scene::MeshPin::Kind::List;
  for (std::uint32_t i = 0; i < 2 * kBallVertices; ++i)
    if (mesh.positions[i].y > 0.5f) options.pin.vertices.push_back(i);
  auto built = scene::meshScene(mesh, params, options);
  EXPECT_TRUE(built) << built.error();
  return std::move(built->world);
}

// Crossings of the sheet (the piece of the last vertex) with anything.
std::size_t sheetCrossings(const sim::World& w) {
  sim::Tangles tangles;
  EXPECT_TRUE(sim::findCrossings(w.cloth, w.state.x, nullptr, tangles));
  const std::uint32_t sheet = w.cloth.piece.back();
  std::size_t n = 0;
  for (const sim::Crossing& c : tangles.crossings)
    n += w.cloth.piece[c.a] == sheet || w.cloth.piece[c.tri[0]] == sheet ? 1 : 0;
  return n;
}

TEST(RestCrossings, OverlappingPartsAreLeftAsTheyAreAndOthersStillCollide) {
  sim::World on = world(1), off = world(0);
  ASSERT_EQ(on.cloth.pieceCount, 3u);
  const std::size_t atRest = sim::countSelfIntersections(on).value_or(0);
  ASSERT_GT(atRest, 20u);  // the balls' circle of contact
  const std::uint32_t sheet = on.cloth.piece.back();
  int framesUncrossed = 0, framesAtOwnSubsteps = 0;
  for (int f = 0; f < 90; ++f) {
    sim::step(on);
    sim::step(off);
    // The balls' crossings of each other are not the step's to undo: none
    // of them is known (a ball folding through itself would be), and they
    // call for no extra sub-steps.
    for (const sim::Crossing& c : on.solver.crossings.crossings) {
      const std::uint32_t a = on.cloth.piece[c.a], b = on.cloth.piece[c.tri[0]];
      ASSERT_TRUE(a == b || a == sheet || b == sheet) << "frame " << f;
    }
    if (on.solver.crossings.crossings.empty()) ++framesUncrossed;
    if (on.stats.substeps == on.params.substeps) ++framesAtOwnSubsteps;
  }
  EXPECT_GE(framesUncrossed, 85);
  EXPECT_GE(framesAtOwnSubsteps, 85);
  EXPECT_EQ(on.stats.restCrossings, atRest);
  EXPECT_EQ(on.stats.restCrossedPairs, 1u);  // the two balls
  EXPECT_FALSE(on.stats.selfCollisionTooDense);
  // The sheet rests on the balls, through neither, with self collision;
  // without, it falls through them to the floor (the test's own check).
  EXPECT_GT(on.state.x.back().y, 0.5f);
  EXPECT_EQ(sheetCrossings(on), 0u);
  EXPECT_LT(off.state.x.back().y, 0.0f);
  EXPECT_LE(sim::countSelfIntersections(on).value_or(0),
            sim::countSelfIntersections(off).value_or(0));
}

TEST(RestCrossings, AShapeThatDoesNotCrossItselfIsSearchedOnce) {
  const sim::World w = world(1);
  sim::RestCrossings rest;
  sim::Tangles tangles;
  // The sheet alone (no balls): drop the balls' triangles.
  sim::Cloth sheet = w.cloth;
  const std::uint32_t piece = sheet.piece.back();
  std::vector<glm::uvec3> kept;
  for (const glm::uvec3& t : sheet.triangles)
    if (sheet.piece[t[0]] == piece) kept.push_back(t);
  sheet.triangles = kept;
  std::vector<sim::StretchConstraint> edges;
  for (const sim::StretchConstraint& e : sheet.stretch)
    if (sheet.piece[e.a] == piece) edges.push_back(e);
  sheet.stretch = edges;
  sheet.topologyVersion = sim::nextVersion();
  sim::prepareRestCrossings(sheet, nullptr, tangles, rest);
  EXPECT_TRUE(rest.searched);
  EXPECT_TRUE(rest.empty());
  // A new topology (a tear) of a shape found clean is not searched again:
  // handed the crossed balls as that next topology, it finds nothing.
  sim::prepareRestCrossings(w.cloth, nullptr, tangles, rest);
  EXPECT_EQ(rest.topology, w.cloth.topologyVersion);
  EXPECT_TRUE(rest.empty());
  // The balls cross each other, and only each other.
  sim::RestCrossings balls;
  sim::prepareRestCrossings(w.cloth, nullptr, tangles, balls);
  ASSERT_EQ(balls.pairs.size(), 1u);
  const std::uint32_t first = w.cloth.piece.front(), second = w.cloth.piece[kBallVertices];
  EXPECT_NE(first, second);
  EXPECT_TRUE(balls.has(second, first));
  EXPECT_FALSE(balls.has(piece, first));
  EXPECT_FALSE(balls.has(first, first));
}

}  // namespace
