// Triangle meshes as colliders: the tree's queries against brute force, and
// cloth on closed and open meshes, static and moving. Inside-ness and
// distances here are computed independently of the collider's own code: a
// winding number (the sum of the triangles' solid angles, Van Oosterom &
// Strackee 1983) and a closest point found by trying every triangle.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "scene/shapes.hpp"
#include "scene_helpers.hpp"
#include "sim/collision/colliders.hpp"
#include "sim/step/step.hpp"
#include "test_geometry.hpp"

using namespace drape;
using test_geometry::windingNumber;
using test_support::buildScene;
using test_support::hashPositions;

namespace {

// Distance from p to the triangle abc: inside the prism over it, the
// distance to its plane; otherwise the nearest of its three edges.
double triangleDistance(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b,
                        const glm::dvec3& c) {
  const glm::dvec3 n = glm::cross(b - a, c - a);
  const double len = glm::length(n);
  if (len > 0.0) {
    const glm::dvec3 u = n / len;
    const glm::dvec3 q = p - glm::dot(p - a, u) * u;
    const bool in = glm::dot(glm::cross(b - a, q - a), n) >= 0.0 &&
                    glm::dot(glm::cross(c - b, q - b), n) >= 0.0 &&
                    glm::dot(glm::cross(a - c, q - c), n) >= 0.0;
    if (in) return std::abs(glm::dot(p - a, u));
  }
  auto segment = [&](const glm::dvec3& s, const glm::dvec3& e) {
    const glm::dvec3 d = e - s;
    const double t = glm::clamp(glm::dot(p - s, d) / std::max(glm::dot(d, d), 1e-300), 0.0, 1.0);
    return glm::length(p - (s + t * d));
  };
  return std::min({segment(a, b), segment(b, c), segment(c, a)});
}

double bruteDistance(const sim::TriMesh& m, const glm::vec3& p) {
  double best = std::numeric_limits<double>::infinity();
  for (const glm::uvec3& t : m.triangles)
    best = std::min(best,
                    triangleDistance(glm::dvec3(p), glm::dvec3(m.positions[t.x]),
                                     glm::dvec3(m.positions[t.y]), glm::dvec3(m.positions[t.z])));
  return best;
}

std::shared_ptr<const sim::MeshShape> shapeOf(const sim::TriMesh& m) {
  auto shape = sim::makeMeshShape(m, "test", 1.0f);
  EXPECT_TRUE(shape) << shape.error();
  return shape.value();
}

// An open dome: the upper half of a sphere of radius 0.5 at the origin,
// rings of latitude from the pole down to the rim at y = 0.
sim::TriMesh dome() {
  constexpr int kRings = 12, kSegments = 48;
  sim::TriMesh m;
  m.positions.push_back(glm::vec3(0.0f, 0.5f, 0.0f));
  for (int r = 1; r <= kRings; ++r) {
    const float polar = 0.5f * 3.14159265f * float(r) / float(kRings);
    for (int s = 0; s < kSegments; ++s) {
      const float a = 2.0f * 3.14159265f * float(s) / float(kSegments);
      m.positions.push_back(0.5f * glm::vec3(std::sin(polar) * std::cos(a), std::cos(polar),
                                             std::sin(polar) * std::sin(a)));
    }
  }
  auto at = [](int r, int s) {
    return r == 0 ? 0u : std::uint32_t(1 + (r - 1) * kSegments + (s % kSegments));
  };
  for (int r = 0; r < kRings; ++r)
    for (int s = 0; s < kSegments; ++s) {
      if (r == 0) {
        m.triangles.push_back({0, at(1, s + 1), at(1, s)});
        continue;
      }
      m.triangles.push_back({at(r, s), at(r, s + 1), at(r + 1, s + 1)});
      m.triangles.push_back({at(r, s), at(r + 1, s + 1), at(r + 1, s)});
    }
  return m;
}

// A cloth of n² vertices, size metres across, flat at height y.
sim::World clothAbove(int n, float size, float y, sim::Params params = {}) {
  params.resolution = n;
  auto world = scene::worldFromMesh(scene::makeGrid(n, size, glm::vec3(0.0f, y, 0.0f)), params);
  EXPECT_TRUE(world) << world.error();
  return std::move(world.value());
}

}  // namespace

TEST(MeshCollider, ClosestPointAndFirstHitMatchBruteForce) {
  const sim::TriMesh figure = scene::makeCharacter(3, 1.0f, glm::vec3(0.0f));
  const auto shape = shapeOf(figure);
  EXPECT_TRUE(shape->closed);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < 400; ++i) {
    const glm::vec3 p(u(rng), u(rng), u(rng));
    sim::ClosestPoint c;
    ASSERT_TRUE(shape->closest(p, std::numeric_limits<float>::infinity(), c));
    const double brute = bruteDistance(figure, p);
    EXPECT_NEAR(std::sqrt(double(c.distance2)), brute, 1e-5 + 1e-5 * brute) << i;
    // Inside by the pseudo-normal exactly where the winding number says so.
    glm::vec3 n;
    const float d = shape->distance(p, n);
    if (std::abs(d) > 1e-4f) {
      EXPECT_EQ(d<0.0f, windingNumber(figure, p)> 0.5) << i;
    }

    // A segment to another random point: where its winding number first
    // changes (sampled finely), the tree finds its first crossing, no later.
    const glm::vec3 q(u(rng), u(rng), u(rng));
    float t = 2.0f, tree = 2.0f;
    std::uint32_t hit;
    const bool found = shape->firstHit(p, q, tree, hit);
    const double w0 = windingNumber(figure, p);
    for (int k = 1; k <= 200; ++k) {
      const float s = float(k) / 200.0f;
      if (std::abs(windingNumber(figure, p + (q - p) * s) - w0) > 0.5) {
        t = s;
        break;
      }
    }
    if (t <= 1.0f) {
      EXPECT_TRUE(found) << i;
      EXPECT_LE(tree, t + 1e-4f) << i;
      // Earlier only by a crossing in and out between two samples.
      if (tree < t - 1.0f / 200.0f - 1e-4f) {
        glm::vec3 n;
        EXPECT_NEAR(shape->distance(p + (q - p) * tree, n), 0.0f, 1e-4f) << i;
      }
    }
  }
}

TEST(MeshCollider, DrapeOnAMeshSphereStaysOutside) {
  sim::World w = buildScene("drape", {"resolution=64"});
  const sim::TriMesh ico = scene::makeIcosphere(3, 0.5f, glm::vec3(0.0f));
  ASSERT_EQ(w.colliders[0].kind, sim::ColliderKind::Sphere);
  w.colliders[0] = sim::Collider::meshShape(shapeOf(ico), glm::vec3(0.0f));
  for (int i = 0; i < 200; ++i) sim::step(w);
  double closest = std::numeric_limits<double>::infinity();
  for (const glm::vec3& x : w.state.x) {
    ASSERT_LT(windingNumber(ico, x), 0.5) << "a vertex is inside at " << x.x << " " << x.y;
    closest = std::min(closest, bruteDistance(ico, x));
  }
  // It settles at half the thickness (5.00–5.03 mm over frames 150–195);
  // a vertex sliding over the faceted ball dips up to 1 % under.
  EXPECT_GE(closest, 0.45 * w.params.thickness);
  EXPECT_LT(closest, 2.0 * w.params.thickness);  // it does lie on the mesh
}

TEST(MeshCollider, RunsAreBitIdenticalOnAnyThreadCount) {
  const sim::TriMesh ico = scene::makeIcosphere(3, 0.5f, glm::vec3(0.0f));
  const auto shape = shapeOf(ico);
  std::uint64_t hashes[2];
  const char* threads[2] = {"threads=1", "threads=4"};
  for (int k = 0; k < 2; ++k) {
    sim::World w = buildScene("drape", {threads[k]});
    w.colliders[0] = sim::Collider::meshShape(shape, glm::vec3(0.0f));
    for (int i = 0; i < 60; ++i) sim::step(w);
    hashes[k] = hashPositions(w);
  }
  EXPECT_EQ(hashes[0], hashes[1]);
}

// Whether a point is under the dome: inside its sphere, above the floor's
// layer. A floor at the rim's height closes the dome from below, so only a
// vertex that passes through the dome gets there.
bool underDome(const glm::vec3& x) {
  return glm::length(x) < 0.49f && x.y > 0.02f;
}

sim::World clothOverDome(int n, float speed, int substeps) {
  sim::Params params;
  params.substeps = substeps;
  sim::World w = clothAbove(n, 1.6f, 0.8f, params);
  for (glm::vec3& v : w.state.v) v = glm::vec3(0.0f, -speed, 0.0f);
  const auto shape = shapeOf(dome());
  EXPECT_FALSE(shape->closed);
  w.colliders.push_back(sim::Collider::meshShape(shape, glm::vec3(0.0f)));
  w.colliders.push_back(sim::Collider::plane(glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f)));
  return w;
}

TEST(MeshCollider, OpenDomeHoldsADroppedCloth) {
  sim::World w = clothOverDome(32, 0.0f, 2);
  for (int i = 0; i < 120; ++i) {
    sim::step(w);
    for (const glm::vec3& x : w.state.x) ASSERT_FALSE(underDome(x)) << "frame " << i;
  }
  float top = -1e9f;
  for (const glm::vec3& x : w.state.x) top = std::max(top, x.y);
  EXPECT_GT(top, 0.5f);  // resting on the dome's top
}

TEST(MeshCollider, FastClothDoesNotTunnelThroughTheOpenDome) {
  // 40 m/s in one sub-step a frame: 0.67 m a step, more than the dome is tall.
  sim::World w = clothOverDome(24, 40.0f, 1);
  for (int i = 0; i < 30; ++i) {
    sim::step(w);
    for (const glm::vec3& x : w.state.x) ASSERT_FALSE(underDome(x)) << "frame " << i;
  }
}

TEST(MeshCollider, MovingMeshLiftsTheCloth) {
  const sim::TriMesh ico = scene::makeIcosphere(3, 0.3f, glm::vec3(0.0f));
  sim::Collider c = sim::Collider::meshShape(shapeOf(ico), glm::vec3(0.0f, -0.5f, 0.0f));
  c.motion.velocity = glm::vec3(0.0f, 1.0f, 0.0f);
  sim::World w = clothAbove(24, 1.2f, 0.0f);
  w.colliders.push_back(c);
  for (int i = 0; i < 90; ++i) sim::step(w);  // 1.5 s: the centre rises to 1 m
  const sim::Pose pose = sim::poseAt(c, w.time);
  float top = -1e9f;
  for (const glm::vec3& x : w.state.x) {
    EXPECT_LT(windingNumber(ico, pose.toLocal(x)), 0.5);
    top = std::max(top, x.y);
  }
  EXPECT_GT(top, pose.position.y + 0.3f);  // carried up on top of the ball
}

TEST(MeshCollider, DegenerateTrianglesAreSkippedOrRefused) {
  sim::TriMesh m = scene::makeIcosphere(2, 0.5f, glm::vec3(0.0f));
  // A duplicate of every vertex, a zero-area triangle and a needle.
  const std::uint32_t n = std::uint32_t(m.positions.size());
  m.positions.insert(m.positions.end(), m.positions.begin(), m.positions.end());
  m.triangles.push_back({0, n, 1});
  m.positions.push_back(m.positions[0] + glm::vec3(1e-30f, 0.0f, 0.0f));
  m.triangles.push_back({0, 1, std::uint32_t(m.positions.size() - 1)});
  auto shape = sim::makeMeshShape(m, "t", 1.0f);
  ASSERT_TRUE(shape) << shape.error();
  glm::vec3 normal;
  EXPECT_NEAR(shape.value()->distance(glm::vec3(0.0f, 2.0f, 0.0f), normal), 1.5f, 0.01f);
  EXPECT_TRUE(std::isfinite(normal.x));

  sim::TriMesh flat;
  flat.positions = {glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(2.0f, 0.0f, 0.0f)};
  flat.triangles = {{0, 1, 2}};
  auto refused = sim::makeMeshShape(flat, "t", 1.0f);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().find('\n'), std::string::npos);
}
