// Cloth edges against the colliders' edges, corners and thin rods: the
// deepest point of an edge against a brute-force search with a box distance
// written here, and cloths dropped on a box and a rod, checked with the
// tests' own segment–triangle test (test_geometry.hpp).

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "scene/shapes.hpp"
#include "scene_helpers.hpp"
#include "sim/collision/colliders.hpp"
#include "sim/collision/feature_contacts.hpp"
#include "sim/stats.hpp"
#include "sim/step/step.hpp"
#include "test_geometry.hpp"

using namespace drape;
using test_support::hashPositions;

namespace {

// Signed distance to the box |x| ≤ h, in double.
double boxDistance(const glm::dvec3& x, const glm::dvec3& h) {
  const glm::dvec3 q = glm::abs(x) - h;
  return glm::length(glm::max(q, 0.0)) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0);
}

// The deepest of samples + 1 points along a → b: (fraction, distance).
std::pair<double, double> deepestSample(const glm::dvec3& a, const glm::dvec3& b,
                                        const glm::dvec3& h, int samples = 20000) {
  std::pair<double, double> best{0.0, 1e30};
  for (int i = 0; i <= samples; ++i) {
    const double s = i / double(samples);
    const double d = boxDistance(a + s * (b - a), h);
    if (d < best.second) best = {s, d};
  }
  return best;
}

// How many of the twelve edges of the box of half extents h at `pose` pass
// through a cloth triangle.
int boxEdgesThroughCloth(const sim::World& w, const sim::Pose& pose, const glm::vec3& h) {
  struct {
    const std::vector<glm::vec3>& positions;
    const std::vector<glm::uvec3>& triangles;
  } cloth{w.state.x, w.cloth.triangles};
  return test_geometry::boxEdgesThrough(cloth, glm::dvec3(h), [&](const glm::dvec3& local) {
    return glm::dvec3(pose.toWorld(glm::vec3(local)));
  });
}

// The box |x| ≤ h as a closed triangle mesh, faces outward.
sim::TriMesh boxMesh(const glm::vec3& h) {
  sim::TriMesh m;
  for (int i = 0; i < 8; ++i)
    m.positions.push_back(glm::vec3(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z));
  // Each face's corners counter-clockwise seen from outside.
  const int faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& f : faces) {
    m.triangles.push_back(glm::uvec3(f[0], f[1], f[2]));
    m.triangles.push_back(glm::uvec3(f[0], f[2], f[3]));
  }
  return m;
}

}  // namespace

TEST(EdgeContact, DeepestPointOverABoxEdge) {
  const glm::vec3 half(0.5f);
  const sim::Collider box = sim::Collider::box(glm::vec3(0.0f), half);
  const sim::Pose pose = sim::poseAt(box, 0.0);
  const float thickness = 0.01f;
  // Edges from above the top face to beside the side face, over the box's
  // edge x = y = 0.5: one passing 3.5 mm outside it, one 3.5 mm inside.
  struct Case {
    glm::vec3 a, b;
  };
  for (const Case& edge : {Case{{0.35f, 0.655f, 0.1f}, {0.655f, 0.35f, 0.1f}},
                           Case{{0.35f, 0.645f, 0.1f}, {0.645f, 0.35f, 0.1f}}}) {
    sim::FeatureContact contact;
    ASSERT_TRUE(
        sim::generateEdgeContact(box, pose, pose, edge.a, edge.b, thickness, 0.01f, contact));
    const auto [s, depth] = deepestSample(glm::dvec3(edge.a), glm::dvec3(edge.b), glm::dvec3(half));
    EXPECT_NEAR(contact.weight[1], s, 1e-3);
    EXPECT_NEAR(glm::length(contact.n), 1.0f, 1e-5f);
    // q on the surface inflated by the thickness.
    EXPECT_NEAR(boxDistance(glm::dvec3(contact.q), glm::dvec3(half)), thickness, 1e-4);
    // The constraint's value at the edge: its depth below the inflated surface.
    const glm::vec3 x = (1.0f - contact.weight[1]) * edge.a + contact.weight[1] * edge.b;
    EXPECT_NEAR(glm::dot(x - contact.q, contact.n), depth - thickness, 1e-4);
  }
  // Outside, the normal points from the box's edge to the cloth's.
  sim::FeatureContact contact;
  ASSERT_TRUE(sim::generateEdgeContact(box, pose, pose, {0.35f, 0.655f, 0.1f},
                                       {0.655f, 0.35f, 0.1f}, thickness, 0.01f, contact));
  EXPECT_NEAR(contact.n.x, std::sqrt(0.5f), 2e-3f);
  EXPECT_NEAR(contact.n.y, std::sqrt(0.5f), 2e-3f);
}

TEST(EdgeContact, NoneWhereTheVerticesHoldTheEdge) {
  const sim::Collider box = sim::Collider::box(glm::vec3(0.0f), glm::vec3(0.5f));
  const sim::Pose pose = sim::poseAt(box, 0.0);
  sim::FeatureContact contact;
  // Above the top face, sloping: deepest at its lower end.
  EXPECT_FALSE(sim::generateEdgeContact(box, pose, pose, glm::vec3(-0.2f, 0.505f, 0.0f),
                                        glm::vec3(0.2f, 0.53f, 0.0f), 0.01f, 0.02f, contact));
  // Over the edge but well clear of it.
  EXPECT_FALSE(sim::generateEdgeContact(box, pose, pose, glm::vec3(0.3f, 0.8f, 0.0f),
                                        glm::vec3(0.9f, 0.4f, 0.0f), 0.01f, 0.02f, contact));
  // A ball wider than the edge: the vertices' contacts are enough.
  const sim::Collider ball = sim::Collider::sphere(glm::vec3(0.0f), 0.5f);
  EXPECT_FALSE(sim::featuresMayReach(ball, 0.4f * 0.4f));
  EXPECT_TRUE(sim::featuresMayReach(ball, 0.6f * 0.6f));
  EXPECT_FALSE(
      sim::featuresMayReach(sim::Collider::plane(glm::vec3(0.0f), glm::vec3(0, 1, 0)), 100.0f));
}

TEST(EdgeContact, RodBetweenTheVertices) {
  // A capsule of radius 2 cm along x under an edge 20 cm long across it.
  const sim::Collider rod =
      sim::Collider::capsule(glm::vec3(0.0f), 0.02f, 1.0f,
                             glm::angleAxis(glm::radians(90.0f), glm::vec3(0.0f, 0.0f, 1.0f)));
  sim::FeatureContact contact;
  ASSERT_TRUE(sim::generateEdgeContact(rod, sim::poseAt(rod, 0.0), sim::poseAt(rod, 0.0),
                                       glm::vec3(0.0f, 0.025f, -0.1f),
                                       glm::vec3(0.0f, 0.025f, 0.1f), 0.01f, 0.01f, contact));
  EXPECT_NEAR(contact.weight[1], 0.5f, 1e-3f);
  EXPECT_NEAR(contact.q.y, 0.03f, 1e-4f);  // the top of the rod inflated by the thickness
  EXPECT_NEAR(contact.n.y, 1.0f, 1e-4f);
}

TEST(Collision, BoxEdgesStayOutOfACoarseCloth) {
  // A cloth of 10 cm squares falls on a box turned 30° about y, so that its
  // edges run across the cloth's: they meet the cloth between its vertices.
  // The box as a box, and as a mesh of twelve triangles.
  const glm::vec3 half(0.4f), centre(0.0f, -0.4f, 0.0f);
  const glm::quat turn = glm::angleAxis(glm::radians(30.0f), glm::vec3(0.0f, 1.0f, 0.0f));
  auto run = [&](int threads, bool mesh) {
    sim::Params params;
    params.threads = threads;
    auto world =
        scene::worldFromMesh(scene::makeGrid(17, 1.6f, glm::vec3(0.0f, 0.05f, 0.0f)), params);
    if (mesh) {
      auto shape = sim::makeMeshShape(boxMesh(half), "box", 1.0f);
      EXPECT_TRUE(shape && shape.value()->closed);
      EXPECT_EQ(shape.value()->sharpEdges.size(), 12u);
      world->colliders.push_back(sim::Collider::meshShape(shape.value(), centre, turn));
    } else {
      world->colliders.push_back(sim::Collider::box(centre, half, turn));
    }
    world->colliders.push_back(
        sim::Collider::plane(glm::vec3(0.0f, -0.8f, 0.0f), glm::vec3(0, 1, 0)));
    sim::World w = std::move(world.value());
    int worst = 0;
    double deepest = 1e30;
    for (int frame = 1; frame <= 150; ++frame) {
      sim::step(w);
      if (frame % 15 != 0) continue;
      const sim::Pose pose = sim::poseAt(w.colliders[0], w.time);
      worst = std::max(worst, boxEdgesThroughCloth(w, pose, half));
      for (const sim::StretchConstraint& e : w.cloth.stretch) {
        const glm::dvec3 a(pose.toLocal(w.state.x[e.a])), b(pose.toLocal(w.state.x[e.b]));
        deepest = std::min(deepest, deepestSample(a, b, glm::dvec3(half), 200).second);
      }
    }
    EXPECT_TRUE(sim::allFinite(w));
    return std::make_tuple(worst, deepest, hashPositions(w));
  };
  for (const bool mesh : {false, true}) {
    SCOPED_TRACE(mesh ? "mesh" : "box");
    const auto [crossings, deepest, hash] = run(1, mesh);
    EXPECT_EQ(crossings, 0);
    EXPECT_GT(deepest, 0.0);  // no point of a cloth edge inside the box
    EXPECT_EQ(std::get<2>(run(2, mesh)), hash);
  }
}

TEST(Collision, CoarseClothHangsOnAThinRod) {
  // Rows of vertices 10 cm apart on either side of a 2 cm rod: only the
  // edges across it can hold the cloth up.
  sim::Params params;
  auto world =
      scene::worldFromMesh(scene::makeGrid(11, 1.0f, glm::vec3(0.0f, 0.05f, 0.05f)), params);
  world->colliders.push_back(
      sim::Collider::capsule(glm::vec3(0.0f), 0.02f, 1.0f,
                             glm::angleAxis(glm::radians(90.0f), glm::vec3(0.0f, 0.0f, 1.0f))));
  sim::World& w = world.value();
  for (int frame = 0; frame < 120; ++frame) sim::step(w);
  float highest = -1e30f;
  for (const glm::vec3& x : w.state.x) highest = std::max(highest, x.y);
  // Hanging over the rod: the highest vertices near its top, none fallen by.
  EXPECT_GT(highest, 0.0f);
  EXPECT_LT(highest, 0.1f);
  EXPECT_TRUE(sim::allFinite(w));
}
