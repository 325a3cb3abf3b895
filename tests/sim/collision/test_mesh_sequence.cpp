// Deforming mesh colliders: the surface between frames against a shape made
// from scratch, the frames' checks, friction that carries the cloth with the
// surface, a fast thin slab that does not pass through a sheet, and the same
// bits on any thread count.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "scene_helpers.hpp"
#include "sim/collision/colliders.hpp"
#include "sim/collision/mesh_sequence.hpp"
#include "sim/step/step.hpp"
#include "test_geometry.hpp"

using namespace drape;
using test_geometry::windingNumber;
using test_support::buildScene;
using test_support::hashPositions;

namespace {

sim::TriMesh scaled(sim::TriMesh m, float s, const glm::vec3& shift = glm::vec3(0.0f)) {
  for (glm::vec3& p : m.positions) p = p * s + shift;
  return m;
}

// A closed box of 12 triangles, outward winding.
sim::TriMesh box(const glm::vec3& lo, const glm::vec3& hi) {
  sim::TriMesh m;
  for (int i = 0; i < 8; ++i)
    m.positions.push_back({i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z});
  const unsigned quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& q : quads) {
    m.triangles.push_back({q[0], q[1], q[2]});
    m.triangles.push_back({q[0], q[2], q[3]});
  }
  return m;
}

std::shared_ptr<const sim::MeshSequence> sequenceOf(std::vector<sim::TriMesh> frames, float fps) {
  auto seq = sim::makeMeshSequence(std::move(frames), fps, "test");
  EXPECT_TRUE(seq) << seq.error();
  return seq.value();
}

sim::World clothAt(int n, float size, float y, sim::Params params = {}) {
  params.resolution = n;
  auto world = scene::worldFromMesh(scene::makeGrid(n, size, glm::vec3(0.0f, y, 0.0f)), params);
  EXPECT_TRUE(world) << world.error();
  return std::move(world.value());
}

}  // namespace

TEST(MeshSequence, InterpolatesBetweenFramesAndHoldsTheLast) {
  const sim::TriMesh ico = scene::makeIcosphere(3, 1.0f, glm::vec3(0.0f));
  const auto seq = sequenceOf({scaled(ico, 0.3f), scaled(ico, 0.6f), scaled(ico, 0.4f)}, 10.0f);
  ASSERT_TRUE(seq->closed);
  sim::MeshShape s;
  const float radii[][2] = {{0.0f, 0.3f}, {0.05f, 0.45f}, {0.1f, 0.6f}, {0.175f, 0.45f},
                            {0.2f, 0.4f}, {5.0f, 0.4f},   {-1.0f, 0.3f}};
  for (const auto& [t, r] : radii) {
    seq->shapeAt(double(t), s);
    for (std::size_t i = 0; i < ico.positions.size(); ++i)
      ASSERT_NEAR(glm::length(s.vertices[i]), r, 1e-5f) << "t " << t << " vertex " << i;
    EXPECT_NEAR(glm::length(seq->pointAt(double(t), 7, glm::vec3(0.2f, 0.3f, 0.5f))), r, 0.02f);
  }
  // Past the last frame the surface is the last frame, bit for bit.
  seq->shapeAt(100.0, s);
  EXPECT_EQ(s.vertices, scaled(ico, 0.4f).positions);

  // Between frames: the refitted tree and the earlier frame's grid read
  // with the slack give a shape's distances made from scratch.
  seq->shapeAt(0.13, s);
  sim::TriMesh mid = ico;
  mid.positions = s.vertices;
  auto fresh = sim::makeMeshShape(mid, "mid", 1.0f);
  ASSERT_TRUE(fresh) << fresh.error();
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-0.9f, 0.9f);
  int inside = 0;
  for (int i = 0; i < 2000; ++i) {
    const glm::vec3 p(u(rng), u(rng), u(rng));
    glm::vec3 n1, n2;
    const float d1 = s.distance(p, n1), d2 = (*fresh)->distance(p, n2);
    ASSERT_NEAR(d1, d2, 1e-5f) << i;
    float bound;
    const int side = s.side(p, bound);
    if (side != 0) {
      ASSERT_EQ(side, d2 > 0.0f ? 1 : -1) << i;
    }
    ASSERT_GE(bound * 1.0001f, std::abs(d2)) << i;
    inside += d2 < 0.0f;
  }
  EXPECT_GT(inside, 100);
}

TEST(MeshSequence, RefusesNoFramesAndAChangedTopology) {
  auto none = sim::makeMeshSequence({}, 30.0f, "x");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().find('\n'), std::string::npos);
  const sim::TriMesh a = box(glm::vec3(-1.0f), glm::vec3(1.0f));
  sim::TriMesh b = a;
  std::swap(b.triangles[3], b.triangles[4]);
  auto changed = sim::makeMeshSequence({a, a, b}, 30.0f, "x");
  ASSERT_FALSE(changed);
  EXPECT_NE(changed.error().find("frame 2"), std::string::npos) << changed.error();
  EXPECT_EQ(changed.error().find('\n'), std::string::npos);
  sim::TriMesh c = a;
  c.positions.push_back(glm::vec3(0.0f));
  EXPECT_FALSE(sim::makeMeshSequence({a, c}, 30.0f, "x"));
  sim::TriMesh nan = a;
  nan.positions[2].y = std::nanf("");
  EXPECT_FALSE(sim::makeMeshSequence({a, nan}, 30.0f, "x"));
  EXPECT_FALSE(sim::makeMeshSequence({a}, 0.0f, "x"));
}

// A plate that stands for half a second, then slides along x at 0.5 m/s:
// the cloth resting on it goes with it by friction alone.
float slidOnPlate(float friction) {
  sim::Params params;
  params.friction = friction;
  sim::World w = clothAt(16, 0.8f, 0.03f, params);
  std::vector<sim::TriMesh> frames;
  for (int f = 0; f <= 120; ++f) {
    const float x = f <= 30 ? 0.0f : 0.5f * float(f - 30) / 60.0f;
    frames.push_back(box(glm::vec3(x - 1.5f, -0.1f, -1.5f), glm::vec3(x + 1.5f, 0.0f, 1.5f)));
  }
  w.colliders.push_back(sim::Collider::meshSequence(sequenceOf(frames, 60.0f)));
  for (int i = 0; i < 30; ++i) sim::step(w);
  float before = 0.0f;
  for (const glm::vec3& x : w.state.x) before += x.x / float(w.vertexCount());
  for (int i = 0; i < 90; ++i) sim::step(w);
  float after = 0.0f, low = 1e9f;
  for (const glm::vec3& x : w.state.x) {
    after += x.x / float(w.vertexCount());
    low = std::min(low, x.y);
  }
  EXPECT_GT(low, 0.0f);  // on the plate, never in it
  return after - before;
}

TEST(MeshSequence, FrictionCarriesTheClothWithTheSurface) {
  // The plate moves 0.75 m over the 90 frames.
  EXPECT_GT(slidOnPlate(0.4f), 0.65f);
  EXPECT_LT(slidOnPlate(0.0f), 0.05f);
}

// A slab 2 cm thin crosses a hanging sheet at 20 m/s (4 cm a sub-step, twice
// its thickness) and stops 0.5 m past it: the sheet is carried, never crossed.
TEST(MeshSequence, FastThinSlabDoesNotPassThroughAHangingSheet) {
  sim::TriMesh sheet = scene::makeGrid(24, 1.2f, glm::vec3(0.0f));
  for (glm::vec3& p : sheet.positions) p = glm::vec3(p.x, 1.0f - p.z, 0.0f);  // x–y plane
  sim::Params params;
  params.resolution = 24;
  auto built = scene::worldFromMesh(sheet, params);
  ASSERT_TRUE(built) << built.error();
  sim::World w = std::move(built.value());
  for (std::uint32_t i = 0; i < w.vertexCount(); ++i)
    if (w.state.x[i].y > 1.59f) sim::pinVertex(w, i);
  auto slabAt = [](float z) {
    return box(glm::vec3(-0.3f, 0.7f, z - 0.01f), glm::vec3(0.3f, 1.3f, z + 0.01f));
  };
  std::vector<sim::TriMesh> frames;
  for (int f = 0; f <= 3; ++f) frames.push_back(slabAt(-0.5f + float(f) / 3.0f));
  w.colliders.push_back(sim::Collider::meshSequence(sequenceOf(frames, 60.0f)));
  // Each vertex's side of the slab's middle plane, which it may change
  // only round the slab's rims: never inside its face (with 3 cm to spare)
  // at both ends of a step.
  auto inFace = [](const glm::vec3& x) {
    return std::abs(x.x) < 0.27f && std::abs(x.y - 1.0f) < 0.27f;
  };
  float z = -0.5f, front = -1e9f;
  for (int i = 0; i < 20; ++i) {
    const std::vector<glm::vec3> before = w.state.x;
    const float zBefore = z;
    sim::step(w);
    z = std::min(0.5f, -0.5f + float(i + 1) / 3.0f);
    for (std::size_t k = 0; k < before.size(); ++k) {
      const glm::vec3& x = w.state.x[k];
      if (inFace(before[k]) && inFace(x)) {
        ASSERT_EQ(before[k].z > zBefore, x.z > z)
            << "frame " << i << " vertex " << k << " at " << x.x << " " << x.y << " " << x.z;
      }
      front = std::max(front, x.z);
    }
  }
  EXPECT_GT(front, 0.5f);  // the sheet was met and carried
}

TEST(MeshSequence, RunsAreBitIdenticalOnAnyThreadCount) {
  const sim::TriMesh ico = scene::makeIcosphere(3, 1.0f, glm::vec3(0.0f));
  std::vector<sim::TriMesh> frames;
  for (int f = 0; f <= 60; ++f) frames.push_back(scaled(ico, 0.3f + 0.005f * float(f)));
  const auto seq = sequenceOf(frames, 60.0f);
  std::uint64_t hashes[2];
  const char* threads[2] = {"threads=1", "threads=4"};
  for (int k = 0; k < 2; ++k) {
    sim::World w = buildScene("drape", {threads[k], "resolution=48"});
    w.colliders[0] = sim::Collider::meshSequence(seq);
    for (int i = 0; i < 90; ++i) sim::step(w);
    hashes[k] = hashPositions(w);
    for (const glm::vec3& x : w.state.x)
      ASSERT_LT(windingNumber(scaled(ico, 0.6f), x), 0.5) << "inside the grown ball";
  }
  EXPECT_EQ(hashes[0], hashes[1]);
}
