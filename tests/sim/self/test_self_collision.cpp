// Self collision (paper §4.3): the constraint's gradient and momentum, the
// spatial hash, the crossing count, a fast vertex against a triangle, the
// exact test four vertices at a time against one at a time, the fold scene
// with and without it, the contacts after a tear, and the same pile-up on any
// thread count.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "gradient_check.hpp"
#include "scene/scenes.hpp"
#include "scene_helpers.hpp"
#include "sim/cpu.hpp"
#include "sim/self/self_collision.hpp"
#include "sim/self/self_contact.hpp"
#include "sim/self/spatial_hash.hpp"
#include "sim/self/vertex_triangle.hpp"
#include "sim/solve/kernel_args.hpp"
#include "sim/stats.hpp"
#include "sim/step/context.hpp"
#include "sim/step/step.hpp"
#include "sim/tearing.hpp"

using namespace drape;
using test_support::buildScene;
using test_support::hashPositions;
using dvec3 = glm::dvec3;

namespace {

dvec3 randomPoint(std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return {u(rng), u(rng), u(rng)};
}

// A vertex and a triangle (not a mesh edge apart): a large horizontal
// triangle at y = 0 and a small one `height` above it, pointing down.
sim::World vertexOverTriangle(float height) {
  sim::TriMesh mesh;
  mesh.positions = {{-1.0f, 0.0f, -1.0f}, {1.0f, 0.0f, -1.0f},         {0.0f, 0.0f, 1.0f},
                    {0.0f, height, 0.0f}, {0.1f, height + 0.1f, 0.0f}, {0.0f, height + 0.1f, 0.1f}};
  mesh.triangles = {{0, 2, 1}, {3, 4, 5}};
  sim::Params params;
  params.gravity = glm::vec3(0.0f);
  params.self_collision = 1;
  params.damping = 0.0f;
  auto world = scene::worldFromMesh(mesh, params);
  EXPECT_TRUE(world) << world.error();
  return std::move(world.value());
}

}  // namespace

TEST(SelfCollision, VertexTriangleGradientMatchesFiniteDifferences) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<dvec3> x = {randomPoint(rng), randomPoint(rng), randomPoint(rng), randomPoint(rng)};
    const double h = 0.01;
    const sim::ConstraintEval<4, double> e = sim::evalVertexTriangle(x[0], x[1], x[2], x[3], h);
    ASSERT_TRUE(e.valid);
    auto C = [&](const std::vector<dvec3>& p) {
      return sim::evalVertexTriangle(p[0], p[1], p[2], p[3], h).C;
    };
    // C is the signed distance of q to the triangle's plane, less h.
    const dvec3 n = glm::normalize(glm::cross(x[2] - x[1], x[3] - x[1]));
    EXPECT_NEAR(e.C, glm::dot(x[0] - x[1], n) - h, 1e-12);
    for (std::size_t i = 0; i < 4; ++i) {
      SCOPED_TRACE("trial " + std::to_string(trial) + " vertex " + std::to_string(i));
      test_support::expectNear(e.grad[i], test_support::numericGradient(C, x, i), 1e-6);
    }
  }
  // A sliver triangle is reported, not turned into NaN.
  const dvec3 a(0.0), b(1.0, 0.0, 0.0), c(2.0, 0.0, 0.0), q(0.5, 1.0, 0.0);
  EXPECT_FALSE(sim::evalVertexTriangle(q, a, b, c, 0.01).valid);
}

TEST(SelfCollision, ProjectionKeepsMomentumWithUnequalMasses) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> mass(0.1f, 10.0f);
  int projected = 0;
  for (int trial = 0; trial < 200; ++trial) {
    sim::State s;
    for (int i = 0; i < 4; ++i) {
      const dvec3 p = randomPoint(rng);
      s.p.push_back(glm::vec3(p));
      s.w.push_back(1.0f / mass(rng));
    }
    s.x = s.p;
    s.v.assign(4, glm::vec3(0.0f));
    sim::SelfContact c{{0, 1, 2, 3}, false};
    const float h = 0.05f;
    const auto before = sim::evalVertexTriangle(s.p[0], s.p[1], s.p[2], s.p[3], h);
    if (!before.valid || before.C >= 0.0f) continue;
    const sim::State start = s;
    sim::solveSelfContacts(sim::Points::of(s), &c, 1, h);
    ++projected;
    EXPECT_TRUE(c.touched);
    glm::dvec3 linear(0.0), angular(0.0);
    for (int i = 0; i < 4; ++i) {
      const double m = 1.0 / double(s.w[i]);
      const glm::dvec3 dp = glm::dvec3(s.p[i]) - glm::dvec3(start.p[i]);
      linear += m * dp;
      angular += glm::cross(glm::dvec3(start.p[i]), m * dp);
    }
    double moved = 0.0;
    for (int i = 0; i < 4; ++i) moved += glm::length(glm::dvec3(s.p[i]) - glm::dvec3(start.p[i]));
    EXPECT_GT(moved, 0.0);
    EXPECT_LT(glm::length(linear), 1e-4 * std::max(1.0, moved)) << "trial " << trial;
    EXPECT_LT(glm::length(angular), 1e-4 * std::max(1.0, moved)) << "trial " << trial;
    const auto after = sim::evalVertexTriangle(s.p[0], s.p[1], s.p[2], s.p[3], h);
    EXPECT_GT(after.C, before.C);
  }
  EXPECT_GT(projected, 50);
}

// One projection corrects at most the contact's `deepest` of its
// violation: a vertex deep behind a triangle that cannot move comes out by
// that much, straight along the normal; a shallow one all the way to the
// thickness.
TEST(SelfCollision, ProjectionCorrectsAtMostTheContactsDeepest) {
  const float h = 0.01f;
  for (const float depth : {0.5f * h, 5.0f * h}) {
    sim::State s;
    s.p = {{0.1f, -depth, 0.2f}, {-1.0f, 0.0f, -1.0f}, {0.0f, 0.0f, 1.0f}, {1.0f, 0.0f, -1.0f}};
    s.w = {1.0f, 0.0f, 0.0f, 0.0f};
    s.x = s.p;
    s.v.assign(4, glm::vec3(0.0f));
    const float deepest = 2.0f * h;
    sim::SelfContact c{{0, 1, 2, 3}, false, deepest};
    const auto before = sim::evalVertexTriangle(s.p[0], s.p[1], s.p[2], s.p[3], h);
    ASSERT_TRUE(before.valid);
    ASSERT_NEAR(before.C, -depth - h, 1e-7f);
    sim::solveSelfContacts(sim::Points::of(s), &c, 1, h);
    EXPECT_TRUE(c.touched);
    const auto after = sim::evalVertexTriangle(s.p[0], s.p[1], s.p[2], s.p[3], h);
    EXPECT_NEAR(after.C - before.C, std::min(depth + h, deepest), 1e-6f) << "depth " << depth;
    EXPECT_NEAR(s.p[0].x, 0.1f, 1e-7f);  // straight out along the normal
    EXPECT_NEAR(s.p[0].z, 0.2f, 1e-7f);
  }
}

TEST(SelfCollision, SpatialHashFindsExactlyTheOverlappingBoxes) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f), size(0.0f, 0.3f);
  std::vector<sim::Aabb> boxes;
  for (int i = 0; i < 400; ++i) {
    const glm::vec3 c(u(rng), u(rng), u(rng));
    const glm::vec3 half(size(rng), size(rng), size(rng));
    boxes.push_back({c - half, c + half});
  }
  boxes.push_back({glm::vec3(-50.0f), glm::vec3(50.0f)});  // over too many cells: the large list
  // Or only some of them: two in three, not the large one.
  std::vector<std::uint8_t> some(boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) some[i] = i % 3 != 0 && i + 1 < boxes.size();
  // Both ways of storing boxes, at cells smaller and larger than the boxes,
  // in both layouts of the cells.
  using Layout = sim::SpatialHash::Layout;
  for (const std::uint8_t* keep :
       {static_cast<const std::uint8_t*>(nullptr), static_cast<const std::uint8_t*>(some.data())})
    for (const auto insert :
         {sim::SpatialHash::Insert::EveryCell, sim::SpatialHash::Insert::Centre})
      for (const Layout layout : {Layout::Auto, Layout::Dense, Layout::Hashed})
        for (const float cell : {0.1f, 0.2f, 0.7f}) {
          sim::SpatialHash hash;
          hash.build(boxes, cell, insert, layout, keep);
          if (layout != Layout::Auto) {
            EXPECT_EQ(hash.dense(), layout == Layout::Dense);
          }
          std::vector<std::uint32_t> found;
          for (int q = 0; q < 200; ++q) {
            // Some queries beyond the cells the boxes occupy.
            const glm::vec3 c(1.5f * u(rng), 1.5f * u(rng), 1.5f * u(rng));
            const glm::vec3 half(size(rng));
            const sim::Aabb query{c - half, c + half};
            hash.query(query, found);
            std::vector<std::uint32_t> expected;
            for (std::uint32_t i = 0; i < boxes.size(); ++i)
              if (boxes[i].overlaps(query) && (!keep || keep[i])) expected.push_back(i);
            EXPECT_EQ(found, expected)
                << "query " << q << ", cell " << cell << ", layout " << int(layout);
            // collect(), which query() sorts: the same ids, some maybe more than
            // once, into a buffer that starts short and holds stale ids; the
            // same ones in the same order with AVX2 (eight at a time) and
            // without (four at a time).
            // What collect (or collectTagged) leaves in such a buffer, with
            // AVX2 or without.
            auto collected = [&](bool avx2, auto&& collect) {
              sim::setAvx2Enabled(avx2);
              std::vector<std::uint32_t> buffer(1, 12345u);
              const std::size_t count = collect(buffer);
              sim::setAvx2Enabled(true);  // for the tests after, whatever happens here
              EXPECT_LE(count, buffer.size());
              buffer.resize(std::min(count, buffer.size()));
              return buffer;
            };
            auto plain = [&](std::vector<std::uint32_t>& buffer) {
              return hash.collect(query, buffer);
            };
            std::vector<std::uint32_t> byPath = collected(true, plain);
            EXPECT_EQ(collected(false, plain), byPath) << "query " << q << ", cell " << cell;
            std::vector<std::uint32_t> ids = byPath;
            std::sort(ids.begin(), ids.end());
            ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
            EXPECT_EQ(ids, expected) << "query " << q << ", cell " << cell;
            // collectTagged(): against the query and a box beside it at once,
            // each box that overlaps either as 4 id + 1 (the query) + 2 (the
            // other); the same entries in the same order both ways.
            const glm::vec3 shift(size(rng), -size(rng), size(rng));
            const sim::Aabb other{query.min + shift, query.max + shift};
            std::vector<std::uint32_t> expectedTagged;
            for (std::uint32_t i = 0; i < boxes.size(); ++i) {
              const std::uint32_t tag =
                  (boxes[i].overlaps(query) ? 1u : 0u) | (boxes[i].overlaps(other) ? 2u : 0u);
              if (tag != 0 && (!keep || keep[i])) expectedTagged.push_back(4 * i + tag);
            }
            auto both = [&](std::vector<std::uint32_t>& buffer) {
              return hash.collectTagged(query, other, buffer);
            };
            std::vector<std::uint32_t> tagged = collected(true, both);
            EXPECT_EQ(collected(false, both), tagged) << "query " << q << ", cell " << cell;
            std::sort(tagged.begin(), tagged.end());
            tagged.erase(std::unique(tagged.begin(), tagged.end()), tagged.end());
            EXPECT_EQ(tagged, expectedTagged) << "query " << q << ", cell " << cell;
          }
        }
}

TEST(SelfCollision, SpatialHashQueriesBesideTheBlockOfCellsFindNothing) {
  // Boxes filling [0, 1]^3 in cells of 0.1 (indexed directly), then queries
  // beside that block on one axis only, where clamping the cells to the
  // block leaves none: nothing found, and nothing read outside the table.
  std::vector<sim::Aabb> boxes;
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j)
      for (int k = 0; k < 10; ++k) {
        const glm::vec3 c = 0.1f * glm::vec3(float(i), float(j), float(k)) + 0.05f;
        boxes.push_back({c - 0.01f, c + 0.01f});
      }
  for (const auto insert :
       {sim::SpatialHash::Insert::EveryCell, sim::SpatialHash::Insert::Centre}) {
    sim::SpatialHash hash;
    hash.build(boxes, 0.1f, insert, sim::SpatialHash::Layout::Dense);
    ASSERT_TRUE(hash.dense());
    std::vector<std::uint32_t> found;
    for (const float far : {-1e6f, -3.0f, 3.0f, 1e6f, 1e30f})
      for (int axis = 0; axis < 3; ++axis) {
        sim::Aabb query{glm::vec3(0.9f), glm::vec3(0.99f)};
        query.min[axis] = far;
        query.max[axis] = far + 0.5f;
        EXPECT_EQ(hash.collect(query, found), 0u) << far << " on axis " << axis;
      }
  }
}

TEST(SelfCollision, SpatialHashStoresTheFewWideBoxesInTheirCells) {
  // Points 1 cm apart on a 1 m plane, as a still cloth's swept vertices, and
  // one box almost two cells wide among them (a vertex that moved far).
  // Stored by its centre, the wide box would grow every query by its half
  // width; in the cells it overlaps, it grows none.
  std::vector<sim::Aabb> boxes;
  for (int i = 0; i < 100; ++i)
    for (int k = 0; k < 100; ++k) {
      const glm::vec3 c(0.01f * float(i), 0.0f, 0.01f * float(k));
      boxes.push_back({c - 1e-4f, c + 1e-4f});
    }
  boxes.push_back({glm::vec3(0.5f, -0.03f, 0.5f), glm::vec3(0.57f, 0.03f, 0.57f)});
  sim::SpatialHash hash;
  hash.build(boxes, 0.04f, sim::SpatialHash::Insert::Centre);
  std::vector<std::uint32_t> found;
  const sim::Aabb query{glm::vec3(0.21f, -0.001f, 0.21f), glm::vec3(0.211f, 0.001f, 0.211f)};
  std::size_t scanned = 0;
  hash.collect(query, found, &scanned);
  hash.query(query, found);
  EXPECT_EQ(found, (std::vector<std::uint32_t>{2121}));
  // The query, grown by the points' half width, lies in one cell of 16
  // points; grown by the wide box's, it would span 3 × 3 (144 points).
  EXPECT_LE(scanned, 16u);
  // And the wide box is still found wherever it is met.
  hash.query({glm::vec3(0.565f, 0.0f, 0.505f), glm::vec3(0.5655f, 0.0f, 0.5055f)}, found);
  EXPECT_EQ(found, (std::vector<std::uint32_t>{10000}));
}

TEST(SelfCollision, CountsEdgeTriangleCrossings) {
  sim::TriMesh mesh;
  // Two triangles apart, then the second moved to pierce the first.
  mesh.positions = {{-1.0f, 0.0f, -1.0f}, {1.0f, 0.0f, -1.0f}, {0.0f, 0.0f, 1.0f},
                    {0.0f, 0.5f, 0.0f},   {0.2f, 1.0f, 0.0f},  {0.0f, 1.0f, 0.2f}};
  mesh.triangles = {{0, 2, 1}, {3, 4, 5}};
  auto built = scene::worldFromMesh(mesh, sim::Params{});
  ASSERT_TRUE(built);
  sim::World& w = built.value();
  EXPECT_EQ(sim::countSelfIntersections(w), 0u);
  for (std::uint32_t i = 3; i < 6; ++i) w.state.x[i].y -= 0.75f;  // vertex 3 below, 4 and 5 above
  // Edges 3–4 and 3–5 pass through the big triangle.
  EXPECT_EQ(sim::countSelfIntersections(w), 2u);
  // Both triangles are where it crosses.
  std::vector<std::uint32_t> crossed;
  EXPECT_EQ(sim::countSelfIntersections(w, &crossed), 2u);
  EXPECT_EQ(crossed, (std::vector<std::uint32_t>{0, 1}));
}

TEST(SelfCollision, SurfacesThatOnlyTouchDoNotCross) {
  sim::TriMesh mesh;
  mesh.positions = {{-1.0f, 0.0f, -1.0f}, {1.0f, 0.0f, -1.0f}, {0.0f, 0.0f, 1.0f},
                    {0.0f, 0.0f, 0.0f},   {0.2f, 1.0f, 0.0f},  {0.0f, 1.0f, 0.2f}};
  mesh.triangles = {{0, 2, 1}, {3, 4, 5}};
  auto built = scene::worldFromMesh(mesh, sim::Params{});
  ASSERT_TRUE(built);
  sim::World& w = built.value();
  // A corner standing on the big triangle (a box's walls on its floor).
  EXPECT_EQ(sim::countSelfIntersections(w), 0u);
  // An edge lying in its plane.
  w.state.x[4] = {0.3f, 0.0f, 0.0f};
  EXPECT_EQ(sim::countSelfIntersections(w), 0u);
  // An edge through its boundary (the edge 0–1 at z = −1), the rest outside.
  w.state.x[3] = {0.0f, -0.5f, -1.0f};
  w.state.x[4] = {0.0f, 0.5f, -1.0f};
  w.state.x[5] = {0.0f, 0.5f, -1.2f};
  EXPECT_EQ(sim::countSelfIntersections(w), 0u);
  // Through the interior, however little a corner pokes out: its two edges cross.
  w.state.x[3] = {0.0f, -1e-3f, -0.5f};
  w.state.x[4] = {0.0f, 0.5f, -0.5f};
  w.state.x[5] = {0.1f, 0.5f, -0.4f};
  EXPECT_EQ(sim::countSelfIntersections(w), 2u);
}

namespace {

// A fan of `n` thin triangles around a hub vertex (its valence is n).
sim::World fan(std::uint32_t n) {
  sim::TriMesh mesh;
  mesh.positions.push_back(glm::vec3(0.0f));
  for (std::uint32_t i = 0; i < n; ++i) {
    const float a = 6.2831853f * float(i) / float(n);
    mesh.positions.emplace_back(std::cos(a), 0.0f, std::sin(a));
  }
  for (std::uint32_t i = 0; i < n; ++i) mesh.triangles.push_back({0, 1 + (i + 1) % n, 1 + i});
  sim::Params params;
  params.self_collision = 1;
  auto world = scene::worldFromMesh(mesh, params);
  EXPECT_TRUE(world) << world.error();
  return std::move(world.value());
}

}  // namespace

TEST(SelfCollision, AHubOfHighValenceKeepsTheListsLinear) {
  // Listing the hub's neighbours in each of its triangles would take n^2
  // entries (a 20,000-triangle fan: 1.6 GB).
  sim::World w = fan(4000);
  sim::step(w);
  const sim::SelfCollision& self = sim::contextOf(w).self;
  EXPECT_LE(self.triNear.size(), 8 * w.cloth.triangles.size());
  // The hub's neighbours are still left to the cloth's own constraints: no
  // contact between a triangle and a vertex joined to one of its corners.
  for (const sim::SelfContact& c : self.contacts)
    for (int k = 1; k < 4; ++k) {
      const std::uint32_t corner = c.v[k], q = c.v[0];
      bool joined = false;
      for (const sim::StretchConstraint& e : w.cloth.stretch)
        joined = joined || (e.a == q && e.b == corner) || (e.b == q && e.a == corner);
      EXPECT_FALSE(joined) << q << " " << corner;
    }
  EXPECT_TRUE(sim::allFinite(w));
}

TEST(SelfCollision, AMeshTooDenseToSearchHasItOffAndSaysSo) {
  // All 20,000 triangles of a fan meet at its hub and its rim lies in a few
  // cells: each triangle's lookup would compare thousands of vertices
  // (quadratic in the mesh; 100,000 triangles took 5 s a frame). The
  // lookups give up, self collision is off for this mesh, and the step says so.
  sim::World w = fan(20000);
  for (int frame = 0; frame < 3; ++frame) sim::step(w);
  EXPECT_TRUE(w.stats.selfCollisionTooDense);
  EXPECT_TRUE(sim::contextOf(w).self.contacts.empty());
  EXPECT_TRUE(sim::allFinite(w));
  // A small fan is searched as any cloth.
  sim::World small = fan(200);
  sim::step(small);
  EXPECT_FALSE(small.stats.selfCollisionTooDense);
}

TEST(SelfCollision, CrossingsOfAMeshTooDenseToCountAreNotGuessed) {
  // Every triangle of a fan overlaps every other at the hub: counting would
  // take time quadratic in the mesh, so no count is given.
  EXPECT_FALSE(sim::countSelfIntersections(fan(6000)).has_value());
  EXPECT_EQ(sim::countSelfIntersections(fan(200)), 0u);
}

TEST(SelfCollision, FastVertexStaysOnItsSideOfATriangle) {
  // The small triangle falls through the big one (0.3 m below) within one
  // frame: at 40 m/s it ends 0.37 m below, at 200 m/s 3 m below, further
  // than any margin of the constraint's reach: only the continuous test
  // catches it.
  for (float speed : {40.0f, 200.0f})
    for (int on = 0; on < 2; ++on) {
      sim::World w = vertexOverTriangle(0.3f);
      w.params.self_collision = on;
      for (std::uint32_t i = 3; i < 6; ++i) w.state.v[i] = glm::vec3(0.0f, -speed, 0.0f);
      sim::step(w);
      ASSERT_TRUE(sim::allFinite(w));
      const auto e =
          sim::evalVertexTriangle(w.state.x[3], w.state.x[0], w.state.x[2], w.state.x[1], 0.0f);
      ASSERT_TRUE(e.valid);
      if (on) {
        EXPECT_GE(e.C, 0.9f * w.params.thickness) << speed << " m/s: the vertex went through";
        EXPECT_EQ(sim::countSelfIntersections(w), 0u) << speed << " m/s";
        // Momentum went into the big triangle: it moves down now.
        EXPECT_LT(w.state.v[0].y, 0.0f);
      } else {
        EXPECT_LT(e.C, 0.0f) << speed << " m/s: without self collision the vertex should pass";
      }
    }
}

TEST(SelfCollision, VerticesTestedSideBySideGetTheSameSidesAsOneAtATime) {
  // Detection tests a triangle's vertices four at a time. The answers must be
  // the ones vertexTriangleSide gives, also where they hang on the last bits:
  // vertices that end a few units in the last place from the reach, or from
  // the edges of the triangle grown by the thickness.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), unit(0.0f, 1.0f);
  const float h = 0.01f;
  int answers[3] = {};  // back, none, front
  for (int trial = 0; trial < 3000; ++trial) {
    glm::vec3 triFrom[3], triTo[3];
    for (int k = 0; k < 3; ++k) {
      triFrom[k] = 0.1f * glm::vec3(u(rng), u(rng), u(rng));
      triTo[k] = triFrom[k] + 0.01f * glm::vec3(u(rng), u(rng), u(rng));
    }
    const glm::vec3 n = glm::normalize(glm::cross(triTo[1] - triTo[0], triTo[2] - triTo[0]));
    constexpr int kCount = 11;  // not a multiple of four: a short last batch
    glm::vec3 from[kCount], to[kCount];
    float reach[kCount];
    for (int j = 0; j < kCount; ++j) {
      reach[j] = 2.0f * h + 0.01f * unit(rng);
      const float ulps = 1.0f + 4e-7f * u(rng);  // a few units in the last place
      // A point of the end plane in and around the triangle.
      float w[3] = {1.6f * unit(rng) - 0.3f, 1.6f * unit(rng) - 0.3f, 0.0f};
      w[2] = 1.0f - w[0] - w[1];
      glm::vec3 onPlane = w[0] * triTo[0] + w[1] * triTo[1] + w[2] * triTo[2];
      float height = 0.03f * u(rng);
      if (j % 3 == 1) height = (u(rng) < 0.0f ? -1.0f : 1.0f) * reach[j] * ulps;  // at the reach
      if (j % 3 == 2) {
        // The thickness outside an edge.
        const int e = int(unit(rng) * 2.999f);
        const glm::vec3 &b = triTo[(e + 1) % 3], &c = triTo[(e + 2) % 3], &a = triTo[e];
        glm::vec3 out = glm::normalize(glm::cross(c - b, n));
        if (glm::dot(out, a - b) > 0.0f) out = -out;
        const float along = unit(rng);
        onPlane = b + along * (c - b) + h * ulps * out;
        height = 0.5f * reach[j] * u(rng);
      }
      to[j] = onPlane + height * n;
      from[j] = to[j] + 0.03f * glm::vec3(u(rng), u(rng), u(rng));  // some pass through
    }
    int sides[kCount];
    sim::vertexTriangleSides(triFrom, triTo, from, to, reach, kCount, h, sides);
    for (int j = 0; j < kCount; ++j) {
      const glm::vec3 f[4] = {from[j], triFrom[0], triFrom[1], triFrom[2]};
      const glm::vec3 t[4] = {to[j], triTo[0], triTo[1], triTo[2]};
      const int one = sim::vertexTriangleSide(f, t, h, reach[j]);
      ASSERT_EQ(sides[j], one) << "trial " << trial << ", vertex " << j;
      ++answers[one + 1];
    }
  }
  for (int a : answers) EXPECT_GT(a, 3000);
}

TEST(SelfCollision, AVertexWithAnEdgeThroughATriangleGetsNoContactWithIt) {
  // A big horizontal triangle at y = 0, and two small ones 2 and 4 mm above
  // it, within reach: the first hangs down through it (two of its edges pass
  // through), the second does not.
  sim::TriMesh mesh;
  mesh.positions = {{-1.0f, 0.0f, -1.0f},  {1.0f, 0.0f, -1.0f}, {0.0f, 0.0f, 1.0f},
                    {0.0f, 0.002f, 0.0f},  {0.0f, -0.3f, 0.0f}, {0.3f, -0.3f, 0.0f},
                    {0.3f, 0.004f, -0.3f}, {0.3f, 0.3f, -0.3f}, {0.6f, 0.3f, -0.3f}};
  mesh.triangles = {{0, 2, 1}, {3, 4, 5}, {6, 7, 8}};
  sim::Params params;
  params.self_collision = 1;
  auto built = scene::worldFromMesh(mesh, params);
  ASSERT_TRUE(built) << built.error();
  sim::World& w = built.value();
  ASSERT_EQ(sim::countSelfIntersections(w), 2u);
  w.state.p = w.state.x;
  test_support::SelfSearchRun run;
  run.search(w);
  auto withBigTriangle = [&](std::uint32_t vertex) {
    int found = 0;
    for (const sim::SelfContact& c : run.self.contacts)
      if (c.v[0] == vertex && c.v[1] == 0) ++found;
    return found;
  };
  EXPECT_EQ(withBigTriangle(3), 0) << "the tangled vertex would be held below";
  EXPECT_EQ(withBigTriangle(6), 1) << "the clean one is kept above";
}

TEST(SelfCollision, FoldSceneHasNoCrossingsWithSelfCollision) {
  sim::World w = buildScene("fold");
  ASSERT_EQ(w.vertexCount(), 1369u);
  ASSERT_EQ(w.params.self_collision, 1);
  std::size_t active = 0;
  for (int frame = 1; frame <= 300; ++frame) {
    sim::step(w);
    active = std::max(active, w.stats.selfContactsActive);
    if (frame == 150 || frame == 300) {
      EXPECT_EQ(sim::countSelfIntersections(w), 0u) << "frame " << frame;
      EXPECT_TRUE(sim::allFinite(w));
    }
  }
  // It did fold: the layers pressed on each other, and the cloth now covers
  // well under its 1.5 m length.
  EXPECT_GT(active, 100u);
  const sim::Bounds b = sim::bounds(w);
  EXPECT_LT(b.max.z - b.min.z, 1.2f);
  EXPECT_LT(b.max.y, 0.2f);
}

TEST(SelfCollision, FoldSceneCrossesItselfWithoutSelfCollision) {
  sim::World w = buildScene("fold", {"self_collision=0"});
  for (int frame = 1; frame <= 300; ++frame) {
    sim::step(w);
    if (frame == 150 || frame == 300) {
      EXPECT_GT(sim::countSelfIntersections(w), 0u) << "frame " << frame;
    }
  }
  EXPECT_EQ(w.stats.selfContacts, 0u);
}

TEST(SelfCollision, FoldSceneIsDeterministic) {
  sim::World a = buildScene("fold"), b = buildScene("fold");
  for (int frame = 0; frame < 90; ++frame) {
    sim::step(a);
    sim::step(b);
  }
  EXPECT_EQ(hashPositions(a), hashPositions(b));
  EXPECT_EQ(a.stats.selfContacts, b.stats.selfContacts);
}

TEST(SelfCollision, DetectionGivesTheSameContactsOnAnyThreadCount) {
  // Detection shares the triangles among the solver's threads; the contact
  // list must not depend on how many there are. 64² so that two are used.
  sim::World w = buildScene("fold", {"resolution=64", "threads=1"});
  for (int frame = 0; frame < 20; ++frame) sim::step(w);
  ASSERT_GT(w.stats.selfContacts, 0u);
  auto contactsWith = [&](int threads) {
    sim::World copy = w;
    copy.params.threads = threads;
    test_support::SelfSearchRun run;
    return run.search(copy);
  };
  const std::vector<sim::SelfContact> one = contactsWith(1), two = contactsWith(2),
                                      three = contactsWith(3);
  ASSERT_FALSE(one.empty());
  for (const auto* other : {&two, &three}) {
    ASSERT_EQ(other->size(), one.size());
    for (std::size_t k = 0; k < one.size(); ++k)
      EXPECT_EQ(std::memcmp((*other)[k].v, one[k].v, sizeof one[k].v), 0) << "contact " << k;
  }
}

TEST(SelfCollision, ContactsAfterATearAreThoseOfAFreshWorld) {
  // Detection keeps what it derives from the mesh (each vertex's and each
  // triangle's neighbours) between steps; a tear must remake it. Split the
  // corners of some contacts' triangles on a folded cloth, then compare the
  // contacts with those of the same state detected from scratch.
  sim::World w = buildScene("fold");
  for (int frame = 0; frame < 60; ++frame) sim::step(w);
  test_support::SelfSearchRun run;
  run.search(w);
  ASSERT_GT(run.self.contacts.size(), 50u);
  const std::size_t before = w.vertexCount();
  const std::vector<sim::SelfContact> old = run.self.contacts;
  for (std::size_t k = 0; k < old.size(); k += old.size() / 8)
    sim::splitVertex(w, old[k].v[2], glm::vec3(1.0f, 0.0f, 0.0f));
  ASSERT_GT(w.vertexCount(), before);
  test_support::SelfSearchRun fresh;
  const std::vector<sim::SelfContact>& kept = run.search(w);
  const std::vector<sim::SelfContact>& made = fresh.search(w);
  ASSERT_GT(made.size(), 50u);
  ASSERT_EQ(kept.size(), made.size());
  for (std::size_t k = 0; k < made.size(); ++k)
    EXPECT_EQ(std::memcmp(kept[k].v, made[k].v, sizeof made[k].v), 0) << "contact " << k;
}

TEST(SelfCollision, PileUpIsTheSameOnAnyThreadCount) {
  // The batched solve projects self contacts by blocks of vertices on its
  // threads and splits the collider contacts among them; a 64² drape piling
  // up on the sphere (up to four threads used) must come out the same.
  auto run = [](const char* threads) {
    sim::World w = buildScene("drape", {"resolution=64", "self_collision=1", threads});
    std::size_t selfContacts = 0;
    for (int frame = 0; frame < 45; ++frame) {
      sim::step(w);
      selfContacts += w.stats.selfContacts;
    }
    EXPECT_GT(selfContacts, 1000u) << threads;
    EXPECT_FALSE(sim::contextOf(w).colliders.contacts.empty()) << threads;
    return hashPositions(w);
  };
  const std::uint64_t one = run("threads=1");
  EXPECT_EQ(run("threads=2"), one);
  EXPECT_EQ(run("threads=4"), one);
}

// At 112² the same drape piles up into layers pressed into each other.
// Contacts that put each vertex back out in one projection, however deep
// the solve had pushed it, made its contacts double every frame from frame
// 38 (1.4 million by frame 48, seconds per frame); moved out by at most the
// thickness plus its own approach per projection, they stay below 15,000.
TEST(SelfCollision, PressedLayersDoNotMultiplyTheirContacts) {
  sim::World w = buildScene("drape", {"resolution=112", "self_collision=1"});
  float fastest = 0.0f;  // after the fall (6.5 m/s at frame 36): 18 m/s by frame 48 that way
  std::size_t acting = 0;
  for (int frame = 1; frame <= 60; ++frame) {
    sim::step(w);
    ASSERT_TRUE(sim::allFinite(w)) << "frame " << frame;
    // Over the frame's sub-steps: fewer than two per vertex in each.
    ASSERT_LT(w.stats.selfContacts, 2u * std::size_t(w.params.substeps) * w.vertexCount())
        << "frame " << frame;
    // Piled layers are dense, but nowhere near a fan's hub: the lookups
    // keep to their budget.
    ASSERT_FALSE(w.stats.selfCollisionTooDense) << "frame " << frame;
    if (frame > 42) {
      for (const glm::vec3& v : w.state.v) fastest = std::max(fastest, glm::length(v));
      acting = std::max(acting, w.stats.selfContactsActive);
    }
  }
  EXPECT_GT(acting, 100u);  // it did pile up
  EXPECT_LT(fastest, 6.0f);
}

TEST(SelfCollision, FineClothKeepsAThinnerGapAndStaysCalm) {
  // 128² over 2 m: 16 mm edges against the 10 mm thickness. Self contacts
  // keep 0.35 of an edge instead; at the full thickness this cloth, piled up
  // around the sphere and on the floor, sped up frame after frame (18 m/s
  // by frame 44, 80 m/s by 52) as its contacts grew to millions.
  sim::World w = buildScene("drape", {"resolution=128", "self_collision=1"});
  float fastest = 0.0f;
  int fastFrames = 0;
  for (int frame = 1; frame <= 100; ++frame) {
    sim::step(w);
    ASSERT_TRUE(sim::allFinite(w)) << "frame " << frame;
    if (frame <= 42) continue;
    float frameFastest = 0.0f;
    for (const glm::vec3& v : w.state.v) frameFastest = std::max(frameFastest, glm::length(v));
    fastest = std::max(fastest, frameFastest);
    fastFrames += frameFastest > 8.0f;
  }
  const float edge = sim::meanRestEdge(w.cloth);
  EXPECT_NEAR(w.stats.selfThickness, sim::tuning::kSelfThicknessPerEdge * edge, 1e-6f);
  EXPECT_LT(w.stats.selfThickness, w.params.thickness);
  EXPECT_GT(w.stats.selfContactsActive, 0u);  // it did pile up
  // Its corners whip past the sphere at 3–6 m/s (the solver no longer
  // takes their swing), a corner's crack now and then at up to 10 m/s for a
  // frame (which frame, and how fast, changes with the rounding); running
  // away was 18 m/s and growing.
  EXPECT_LE(fastFrames, 3);
  EXPECT_LT(fastest, 16.0f);
  EXPECT_LT(w.stats.selfContacts, 20u * w.vertexCount());
  // Tight folds pass through themselves in places, but the tangles do not
  // spread: 856 edge–triangle crossings at frame 100, where contacts that
  // held tangled vertices on the wrong side made 46,700.
  EXPECT_LT(sim::countSelfIntersections(w), 3000u);
}

TEST(SelfCollision, ContactsMoveOutOfALayerNoFasterInFramesOfExtraSubsteps) {
  // A vertex resting 5 mm over a triangle gets its contact; then the solve
  // drives it 5 cm through. One projection brings it back by the
  // thickness in a sub-step of the scene's own length (2 a frame), by a
  // quarter of that in a frame of 8 sub-steps: out at the same speed.
  float back[2] = {};
  for (int k = 0; k < 2; ++k) {
    sim::World w = vertexOverTriangle(0.005f);
    w.params.substeps = 2;
    w.stats.substeps = k == 0 ? 2 : 8;
    w.state.p = w.state.x;
    test_support::SelfSearchRun run;
    run.search(w);
    const float thickness = run.self.thickness;
    ASSERT_FLOAT_EQ(thickness, w.params.thickness);
    std::vector<sim::SelfContact> own;
    for (const sim::SelfContact& c : run.self.contacts)
      if (c.v[0] == 3) own.push_back(c);
    ASSERT_EQ(own.size(), 1u) << "sub-steps " << w.stats.substeps;
    w.state.p[3].y = -0.05f;
    const glm::vec3 &p1 = w.state.p[own[0].v[1]], &p2 = w.state.p[own[0].v[2]],
                    &p3 = w.state.p[own[0].v[3]];
    const auto before = sim::evalVertexTriangle(w.state.p[3], p1, p2, p3, thickness);
    sim::solveSelfContacts(sim::Points::of(w.state), own.data(), 1, thickness);
    const auto after = sim::evalVertexTriangle(w.state.p[3], p1, p2, p3, thickness);
    ASSERT_TRUE(before.valid && after.valid);
    back[k] = after.C - before.C;
  }
  EXPECT_NEAR(back[0], 0.01f, 1e-4f);
  EXPECT_NEAR(back[1], 0.25f * back[0], 1e-4f);
}
