// Untangling (untangle.hpp): the contour-shortening direction against the
// contour's length measured by finite differences, the crossing search
// against brute force on any thread count, and a sheet poked through
// another that comes back out.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "scene_helpers.hpp"
#include "sim/self/self_collision.hpp"
#include "sim/self/untangle.hpp"
#include "sim/self/vertex_triangle.hpp"
#include "sim/stats.hpp"
#include "sim/step/plan.hpp"
#include "sim/step/step.hpp"
#include "sim/thread_team.hpp"

using namespace drape;
using test_support::buildScene;

namespace {

// Where segment u–v meets the plane y = plane (u and v on either side).
glm::vec3 cutAt(const glm::vec3& u, const glm::vec3& v, float plane) {
  const float s = (u.y - plane) / (u.y - v.y);
  return u + s * (v - u);
}

// Length of the contour where the two triangles beside edge a–b (third
// corners o1, o2) meet the plane y = plane: from the edge's crossing point
// to where each triangle's other side crosses the plane.
float contourLength(const glm::vec3& a, const glm::vec3& b, const glm::vec3& o1,
                    const glm::vec3& o2, float plane) {
  const glm::vec3 P = cutAt(a, b, plane);
  float length = 0.0f;
  for (const glm::vec3& o : {o1, o2}) {
    const bool withA = (o.y > plane) == (a.y > plane);
    length += glm::length(cutAt(o, withA ? b : a, plane) - P);
  }
  return length;
}

}  // namespace

TEST(Untangle, ContourGradientShortensTheContour) {
  // An edge through a large triangle in the plane y = 0, and the two
  // triangles beside it, well shaped: every corner at least 5 cm off the
  // plane. A millimetre along G shortens the contour within the two
  // triangles (its length measured) in more than nine cases of ten, and by
  // far more in all than it lengthens it in the rest: G is the paper's
  // estimate of the descent direction, which leaves out how the contour's
  // far ends move.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f), off(0.05f, 0.5f);
  int tried = 0, shorter = 0;
  double shortened = 0.0, lengthened = 0.0;
  for (int trial = 0; trial < 500; ++trial) {
    const glm::vec3 a(u(rng), -off(rng), u(rng)), b(u(rng), off(rng), u(rng));
    glm::vec3 o[2];
    for (glm::vec3& c : o) c = glm::vec3(u(rng), (u(rng) < 0.0f ? -1.0f : 1.0f) * off(rng), u(rng));
    // Triangles beside the edge at least 20° from lying in it.
    bool thin = false;
    for (const glm::vec3& c : o) {
      const glm::vec3 e = glm::normalize(b - a), s = c - a;
      thin = thin || glm::length(s - glm::dot(s, e) * e) < 0.35f * glm::length(s);
    }
    if (thin) continue;
    ++tried;
    std::vector<glm::vec3> p = {
        {-20.0f, 0.0f, -10.0f}, {20.0f, 0.0f, -10.0f}, {0.0f, 0.0f, 20.0f}, a, b, o[0], o[1]};
    std::vector<float> w(p.size(), 1.0f);
    const sim::Points pts{&p[0].x, w.data(), 3, 1};
    const sim::Crossing c{0, 0, 3, 4, {5, 6}, {0, 1, 2}};
    const glm::vec3 G = sim::contourGradient(pts, c);
    ASSERT_GT(glm::length(G), 0.0f);
    const glm::vec3 d = 1e-3f * glm::normalize(G);
    const float before = contourLength(a, b, o[0], o[1], 0.0f);
    const float after = contourLength(a + d, b + d, o[0], o[1], 0.0f);
    if (after < before) ++shorter;
    (after < before ? shortened : lengthened) += std::abs(double(after - before));
  }
  EXPECT_GT(tried, 100);
  EXPECT_GT(shorter, 9 * tried / 10) << shorter << " of " << tried;
  EXPECT_GT(shortened, 10.0 * lengthened);
}

TEST(Untangle, SearchFindsWhatBruteForceFindsOnAnyThreadCount) {
  sim::World w = buildScene("fold", {"self_collision=0", "resolution=20"});
  for (int frame = 0; frame < 150; ++frame) sim::step(w);
  std::set<std::tuple<std::uint32_t, std::uint32_t>> expected;
  const std::vector<glm::vec3>& x = w.state.x;
  for (std::uint32_t k = 0; k < w.cloth.stretch.size(); ++k)
    for (std::uint32_t t = 0; t < w.cloth.triangles.size(); ++t) {
      const sim::StretchConstraint& e = w.cloth.stretch[k];
      const glm::uvec3& tri = w.cloth.triangles[t];
      bool shared = false;
      for (int j = 0; j < 3; ++j) shared = shared || tri[j] == e.a || tri[j] == e.b;
      if (!shared && sim::segmentCrossesTriangleStrictly(
                         glm::dvec3(x[e.a]), glm::dvec3(x[e.b]), glm::dvec3(x[tri[0]]),
                         glm::dvec3(x[tri[1]]), glm::dvec3(x[tri[2]])))
        expected.insert({k, t});
    }
  ASSERT_GT(expected.size(), 10u);
  for (int threads : {1, 2}) {
    sim::Tangles tangles;
    ASSERT_TRUE(sim::findCrossings(w.cloth, x, &sim::threadTeam(threads), tangles));
    std::set<std::tuple<std::uint32_t, std::uint32_t>> found;
    for (const sim::Crossing& c : tangles.crossings) {
      found.insert({c.edge, c.triangle});
      EXPECT_EQ(w.cloth.stretch[c.edge].a, c.a);
      EXPECT_EQ(w.cloth.stretch[c.edge].b, c.b);
    }
    EXPECT_EQ(found, expected) << threads << " threads";
    EXPECT_EQ(found.size(), tangles.crossings.size());
  }
}

namespace {

// Two square sheets 0.5 m wide, n × n vertices: A flat at y = 0, B at
// y = −2 cm with a bump in its middle `bump` high (5 cm: pushed up through
// A to y = +3 cm), shifted by a part of a cell so that no edge of one meets
// an edge of the other. Still: no gravity.
// Two n² sheets of 0.5 m, one at y = 0 and one at `lower`, the lower one
// raised by a bump of height `bump` in the middle; still (no gravity), with
// self collision.
sim::World twoSheets(int n, const glm::vec3& lower, float bump) {
  sim::TriMesh mesh = scene::makeGrid(n, 0.5f, glm::vec3(0.0f));
  sim::TriMesh b = scene::makeGrid(n, 0.5f, lower);
  for (glm::vec3& p : b.positions)
    p.y += bump * std::exp(-(p.x * p.x + p.z * p.z) / (0.08f * 0.08f));
  const std::uint32_t base = std::uint32_t(mesh.positions.size());
  mesh.positions.insert(mesh.positions.end(), b.positions.begin(), b.positions.end());
  for (const glm::uvec3& t : b.triangles) mesh.triangles.push_back(t + base);
  mesh.cornerUVs.insert(mesh.cornerUVs.end(), b.cornerUVs.begin(), b.cornerUVs.end());
  // Two sub-steps of four PBD iterations, no air: the frames whose
  // searches and sub-steps the tests below count.
  sim::Params params;
  params.gravity = glm::vec3(0.0f);
  params.self_collision = 1;
  params.solver = sim::SolverKind::Pbd;
  params.substeps = 2;
  params.iterations = 4;
  params.drag = params.lift = 0.0f;
  auto world = scene::worldFromMesh(mesh, params);
  EXPECT_TRUE(world) << world.error();
  return std::move(world.value());
}

// The lower sheet 2 cm down and a little aside, its bump through the upper.
sim::World pokedThrough(int n, float bump = 0.05f) {
  const float cell = 0.5f / float(n - 1);
  return twoSheets(n, glm::vec3(0.3f * cell, -0.02f, 0.21f * cell), bump);
}

// pokedThrough's lower sheet (flat: bump 0) turned rigidly by 0.2 rad about
// the line through its middle along z, through the upper one.
void turnLowerSheet(sim::World& w) {
  const float c = std::cos(0.2f), s = std::sin(0.2f);
  for (std::size_t v = w.state.x.size() / 2; v < w.state.x.size(); ++v) {
    glm::vec3& p = w.state.x[v];
    const float y = p.y + 0.02f;
    p = glm::vec3(c * p.x - s * y, s * p.x + c * y - 0.02f, p.z);
  }
}

}  // namespace

TEST(Untangle, ASheetPokedThroughAnotherComesBackOut) {
  sim::World w = pokedThrough(16);
  ASSERT_EQ(w.cloth.pieceCount, 2u);
  const std::size_t start = sim::countSelfIntersections(w).value_or(0);
  ASSERT_GT(start, 8u);
  // The contour is closed on both sheets: it cuts a part out of each.
  sim::Tangles tangles;
  ASSERT_TRUE(sim::findCrossings(w.cloth, w.state.x, nullptr, tangles));
  sim::findRegions(w.cloth, tangles.crossings, tangles);
  ASSERT_FALSE(tangles.region.empty());
  std::set<std::uint32_t> parts(tangles.region.begin(), tangles.region.end());
  EXPECT_EQ(parts.size(), 3u);  // outside, A's disc, B's bump
  int frame = 0;
  while (frame < 60 && sim::countSelfIntersections(w).value_or(1) > 0) {
    sim::step(w);
    ++frame;
  }
  EXPECT_EQ(sim::countSelfIntersections(w), 0u) << "after " << frame << " frames";
  EXPECT_LE(frame, 30);
  // And it stays out.
  for (int k = 0; k < 30; ++k) sim::step(w);
  EXPECT_EQ(sim::countSelfIntersections(w), 0u);
  EXPECT_TRUE(sim::allFinite(w));
}

TEST(Untangle, FramesTakeMoreSubstepsWhileCrossed) {
  // Each frame that starts with crossings doubles the sub-steps, up to
  // crossing_substeps times; eight frames without halve them again.
  sim::World w = pokedThrough(16);
  ASSERT_EQ(w.params.substeps, 2);
  ASSERT_EQ(w.params.crossing_substeps, 4);
  std::vector<int> taken;
  for (int frame = 0; frame < 40; ++frame) {
    sim::step(w);
    taken.push_back(w.stats.substeps);
  }
  EXPECT_EQ(sim::countSelfIntersections(w), 0u);
  EXPECT_EQ(taken.front(), 4);
  EXPECT_EQ(taken.back(), 2);
  // Down from the most, through exactly eight frames at 4, to 2.
  const auto peak = std::max_element(taken.begin(), taken.end());
  EXPECT_LE(*peak, 8);
  EXPECT_TRUE(std::is_sorted(taken.rbegin(), std::make_reverse_iterator(peak)));
  EXPECT_EQ(std::count(taken.begin(), taken.end(), 4), 8);

  sim::World fixed = pokedThrough(16);
  fixed.params.crossing_substeps = 1;
  for (int frame = 0; frame < 10; ++frame) {
    sim::step(fixed);
    EXPECT_EQ(fixed.stats.substeps, 2);
  }
}

TEST(Untangle, ACalmClothIsSearchedEveryEighthFrame) {
  // Two flat sheets 2 cm apart, still (no gravity): searched at frames 0
  // and 4, which find nothing, then every eighth frame. The lower sheet is
  // then turned rigidly through the upper one (its rest shape kept, and a
  // layer too thin for contacts to push it: it stays still) at the start
  // of frame 17, and again (on a fresh pair) of frame 1: the first is found
  // by the search at the start of frame 24, the second by that of frame 4,
  // each frame finding them taking twice the sub-steps.
  auto firstCrossedFrame = [](int turnAt) {
    sim::World w = pokedThrough(16, 0.0f);
    w.params.thickness = 1e-5f;
    EXPECT_EQ(sim::countSelfIntersections(w), 0u);
    for (int frame = 0; frame < 40; ++frame) {
      if (frame == turnAt) {
        turnLowerSheet(w);
        EXPECT_GT(sim::countSelfIntersections(w).value_or(0), 8u);
      }
      sim::step(w);
      if (w.stats.substeps > w.params.substeps) {
        EXPECT_GE(frame, turnAt);
        return frame;
      }
    }
    return -1;
  };
  EXPECT_EQ(firstCrossedFrame(17), 24);
  EXPECT_EQ(firstCrossedFrame(1), 4);
}

TEST(Untangle, AClothThatMovesIsSearchedEveryFourthFrame) {
  // As above, with the layer's 1 cm: the turned sheet's vertices beside the
  // other one are pushed apart, so the cloth is not calm and the search at
  // the start of frame 20 finds the crossings made at frame 17.
  sim::World w = pokedThrough(16, 0.0f);
  int found = -1;
  for (int frame = 0; frame < 40 && found < 0; ++frame) {
    if (frame == 17) turnLowerSheet(w);
    sim::step(w);
    if (w.stats.substeps > w.params.substeps) found = frame;
  }
  EXPECT_EQ(found, 20);
}

TEST(Untangle, CrossingsThatCannotComeOutStopHoldingTheSubstepsUp) {
  // Two sheets pinned through each other: the same crossings frame after
  // frame, none new. After 60 frames they count as none.
  sim::World w = pokedThrough(16);
  for (std::uint32_t v = 0; v < std::uint32_t(w.state.x.size()); ++v) sim::pinVertex(w, v);
  std::vector<int> taken;
  for (int frame = 0; frame < 80; ++frame) {
    sim::step(w);
    taken.push_back(w.stats.substeps);
  }
  ASSERT_GT(sim::countSelfIntersections(w).value_or(0), 8u);
  std::vector<int> expected(80, 8);
  expected[0] = 4;                                             // doubled once
  std::fill(expected.begin() + 67, expected.begin() + 75, 4);  // 8 clean frames after 60
  std::fill(expected.begin() + 75, expected.end(), 2);
  EXPECT_EQ(taken, expected);
}

TEST(Untangle, AVertexInManyCrossingsSharesTheirStep) {
  sim::Tangles tangles;
  // Ten edges from vertex 0 through ten triangles, and one crossing apart.
  for (std::uint32_t k = 0; k < 10; ++k)
    tangles.crossings.push_back(
        {k, k, 0, 1 + k, {UINT32_MAX, UINT32_MAX}, {20 + 3 * k, 21 + 3 * k, 22 + 3 * k}});
  tangles.crossings.push_back({10, 10, 60, 61, {UINT32_MAX, UINT32_MAX}, {62, 63, 64}});
  sim::shareCrossings(65, tangles.crossings, tangles.crossingsAt);
  for (std::size_t k = 0; k < 10; ++k)
    EXPECT_FLOAT_EQ(tangles.crossings[k].share, float(sim::tuning::kUntangleCrowd) / 10.0f);
  EXPECT_EQ(tangles.crossings[10].share, 1.0f);
  // The counts are left at zero for the next call: two crossings at a
  // vertex take full steps.
  tangles.crossings.resize(2);
  sim::shareCrossings(65, tangles.crossings, tangles.crossingsAt);
  EXPECT_EQ(tangles.crossings[0].share, 1.0f);
  EXPECT_EQ(tangles.crossings[1].share, 1.0f);
}

// The 64² fold under PBD at one sub-step of four iterations lands faster than its
// contacts hold, and passes through itself in hundreds of places. Full
// steps at every crossing threw vertices through the layers beside, and it
// ran away (27,000 crossings and 16 % mean strain at frame 60); shared
// steps keep it where the contacts leave it.
TEST(Untangle, AWholesaleTangleDoesNotRunAway) {
  sim::World w =
      buildScene("fold", {"resolution=64", "solver=pbd", "substeps=1", "iterations=4", "drag=0"});
  std::size_t most = 0;
  for (int frame = 0; frame < 60; ++frame) {
    sim::step(w);
    if (frame % 10 == 9) most = std::max(most, sim::countSelfIntersections(w).value_or(SIZE_MAX));
  }
  EXPECT_FALSE(w.stats.selfCollisionTooDense);
  EXPECT_GT(most, 0u);  // the budget is too small for this fold: it does tangle
  EXPECT_LT(most, 2000u);
  EXPECT_LT(sim::strainStats(w).mean, 0.06f);
  EXPECT_TRUE(sim::allFinite(w));
}

TEST(Untangle, ACalmClothFindsItsSelfContactsOnceAFrame) {
  // Two still sheets 15 mm apart: within a contact's reach (twice the 10 mm
  // thickness), beyond the thickness, so nothing pushes them. Once the
  // searches for crossings at the starts of frames 0 and 4 have found none,
  // the cloth is calm, and one search for contacts serves both sub-steps of
  // a frame: one search a frame instead of two, the same contacts projected
  // in every sub-step (none of them pushing), and the sheets stay as they
  // were.
  sim::World w = twoSheets(16, glm::vec3(0.0f, -0.015f, 0.0f), 0.0f);
  ASSERT_EQ(w.params.substeps, 2);
  const std::vector<glm::vec3> start = w.state.x;
  std::vector<int> searches;
  std::vector<std::size_t> projected;
  for (int frame = 0; frame < 12; ++frame) {
    sim::step(w);
    searches.push_back(w.stats.selfSearches);
    projected.push_back(w.stats.selfContacts);
    EXPECT_EQ(w.stats.selfContactsActive, 0u) << "frame " << frame;
  }
  std::vector<int> expected(12, 1);
  std::fill(expected.begin(), expected.begin() + 4, 2);
  EXPECT_EQ(searches, expected);
  ASSERT_GT(projected[0], 0u);
  EXPECT_EQ(projected, std::vector<std::size_t>(12, projected[0]));
  for (std::size_t v = 0; v < start.size(); ++v)
    ASSERT_LT(glm::length(w.state.x[v] - start[v]), 1e-6f) << "vertex " << v;
  // Not in a frame of extra sub-steps, nor while a hand drags the cloth or
  // it moves as a whole (5 cm/s: 0.42 mm a sub-step, past a fortieth of the
  // 10 mm thickness), nor with self collision off.
  // (The plan of the next frame, its crossing search as planned.)
  auto span = [](const sim::World& world) {
    return sim::planStep(world, sim::planCrossingSearch(world)).selfSpan;
  };
  EXPECT_EQ(span(w), 2);
  w.solver.crossingFactor = 2;
  EXPECT_EQ(span(w), 1);
  w.solver.crossingFactor = 1;
  w.grab.active = true;
  EXPECT_EQ(span(w), 1);
  w.grab.active = false;
  for (glm::vec3& v : w.state.v) v.x += 0.05f;
  EXPECT_EQ(span(w), 1);
  for (glm::vec3& v : w.state.v) v.x -= 0.05f;
  EXPECT_EQ(span(w), 2);
  w.params.self_collision = 0;
  EXPECT_EQ(span(w), 1);
}
