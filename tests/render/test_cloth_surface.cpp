// The cloth's surface extras without a GL context: the layout of the drawn
// vertices (split at UV seams, one UV each, the rest length per unit of UV)
// and the fold depth from the umbrella vector (none on flat cloth, the mean
// curvature times the radius on a sphere, its sign from the side, a crease
// shaded on its inside).

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "render/cloth_surface.hpp"
#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "sim/mesh.hpp"

namespace drape::render {
namespace {

// A grid of n × n vertices, `size` across, in the plane y = 0, with the
// UVs makeGrid gives it (front +y).
sim::Cloth gridCloth(int n, float size) {
  auto world = scene::worldFromMesh(scene::makeGrid(n, size, glm::vec3(0.0f)), sim::Params{});
  EXPECT_TRUE(world) << world.error();
  return world->cloth;
}

TEST(SurfaceLayout, WithoutUVsTheDrawnVerticesAreTheSimulatedOnes) {
  sim::Cloth cloth = gridCloth(5, 2.0f);
  cloth.cornerUVs.clear();
  SurfaceLayout l;
  layoutSurface(cloth, l);
  ASSERT_EQ(l.source.size(), cloth.vertexCount());
  for (std::size_t i = 0; i < l.source.size(); ++i) EXPECT_EQ(l.source[i], i);
  ASSERT_EQ(l.indices.size(), 3 * cloth.triangles.size());
  for (std::size_t t = 0; t < cloth.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) EXPECT_EQ(l.indices[3 * t + std::size_t(k)], cloth.triangles[t][k]);
  EXPECT_TRUE(l.uvs.empty());
  EXPECT_EQ(l.metresPerUV, 0.0f);
}

TEST(SurfaceLayout, AGridKeepsItsVerticesAndMeasuresItsUVs) {
  const sim::Cloth cloth = gridCloth(5, 2.0f);
  SurfaceLayout l;
  layoutSurface(cloth, l);
  EXPECT_EQ(l.source.size(), cloth.vertexCount());  // no seams
  ASSERT_EQ(l.uvs.size(), l.source.size());
  for (std::size_t c = 0; c < l.indices.size(); ++c)
    EXPECT_EQ(l.uvs[l.indices[c]], cloth.cornerUVs[c]);
  EXPECT_NEAR(l.metresPerUV, 2.0f, 1e-4f);  // UVs 0 to 1 over 2 m
}

TEST(SurfaceLayout, ASeamSplitsItsVertices) {
  // Two triangles sharing the edge 1–2, each with its own UVs there.
  sim::Cloth cloth;
  cloth.restPositions = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}};
  cloth.triangles = {{0, 2, 1}, {1, 2, 3}};
  cloth.cornerUVs = {{0, 0}, {0, 1}, {1, 0}, {0.5f, 0}, {0.5f, 1}, {1, 1}};
  SurfaceLayout l;
  layoutSurface(cloth, l);
  ASSERT_EQ(l.source.size(), 6u);  // 1 and 2 twice
  for (std::size_t c = 0; c < 6; ++c) {
    EXPECT_EQ(l.source[l.indices[c]], cloth.triangles[c / 3][int(c % 3)]);
    EXPECT_EQ(l.uvs[l.indices[c]], cloth.cornerUVs[c]);
  }
  // Corners with the same vertex and UV share one drawn vertex.
  cloth.cornerUVs = {{0, 0}, {0, 1}, {1, 0}, {1, 0}, {0, 1}, {1, 1}};
  layoutSurface(cloth, l);
  EXPECT_EQ(l.source.size(), 4u);
}

struct Surface {
  std::vector<glm::vec3> x, normals;
  std::vector<glm::uvec3> triangles;
};

// The n × n grid of `size` with each vertex moved by `shape`.
template <class Shape>
Surface shaped(int n, float size, Shape shape, bool flip = false) {
  const sim::TriMesh grid = scene::makeGrid(n, size, glm::vec3(0.0f));
  Surface s;
  for (const glm::vec3& p : grid.positions) s.x.push_back(shape(p));
  s.triangles = grid.triangles;
  if (flip)
    for (glm::uvec3& t : s.triangles) std::swap(t.y, t.z);
  sim::computeVertexNormals(s.x, s.triangles, s.normals);
  return s;
}

std::vector<float> foldOf(const Surface& s, float radius) {
  std::vector<float> fold;
  std::vector<glm::vec4> scratch;
  computeFold(s.x, s.normals, s.triangles, radius, fold, scratch);
  return fold;
}

TEST(Fold, FlatClothHasNone) {
  const Surface s = shaped(9, 2.0f, [](const glm::vec3& p) { return p; });
  for (float f : foldOf(s, 0.05f)) EXPECT_NEAR(f, 0.0f, 1e-6f);
}

TEST(Fold, ASphereGivesItsCurvatureTimesTheRadiusOnItsInside) {
  // A patch of a sphere of radius 2, the grid's front (+y) facing out: the
  // front is the outside, bending away (−), the back the inside (+).
  const float R = 2.0f;
  auto onSphere = [R](const glm::vec3& p) {
    return glm::vec3(p.x, std::sqrt(R * R - p.x * p.x - p.z * p.z) - R, p.z);
  };
  const int n = 21;
  const Surface out = shaped(n, 1.0f, onSphere), in = shaped(n, 1.0f, onSphere, true);
  ASSERT_GT(out.normals[std::size_t(n * n / 2)].y, 0.9f);
  const std::vector<float> a = foldOf(out, 0.1f), b = foldOf(in, 0.1f);
  // Away from the patch's border (whose umbrellas are one-sided).
  for (int j = 3; j < n - 3; ++j)
    for (int i = 3; i < n - 3; ++i) {
      const std::size_t v = std::size_t(j * n + i);
      EXPECT_NEAR(a[v], -0.1f / R, 0.1f * 0.1f / R) << i << "," << j;
      EXPECT_NEAR(b[v], 0.1f / R, 0.1f * 0.1f / R) << i << "," << j;
    }
}

TEST(Fold, ACreaseShadesItsInsideAndNothingFarFromIt) {
  // Both halves of the grid rise at 45° from the line z = 0: a valley open
  // towards +y, the front; its edges are 0.1 m, so a bend radius of 0.5 m
  // makes the crease a full fold before the averaging.
  const int n = 21;
  auto valley = [](const glm::vec3& p) { return glm::vec3(p.x, std::abs(p.z), p.z); };
  const std::vector<float> front = foldOf(shaped(n, 2.0f, valley), 0.5f);
  const std::vector<float> back = foldOf(shaped(n, 2.0f, valley, true), 0.5f);
  for (int j = 0; j < n; ++j) {
    const int fromCrease = std::abs(j - n / 2);
    for (int i = 2; i < n - 2; ++i) {
      const std::size_t v = std::size_t(j * n + i);
      EXPECT_LE(front[v], 1.0f);
      EXPECT_EQ(back[v], -front[v]);  // the other side is the outside
      if (fromCrease == 0) {
        EXPECT_GT(front[v], 0.3f) << i;
      } else if (fromCrease == 1) {
        EXPECT_GT(front[v], 0.05f) << i;  // a band, not a line
      } else if (fromCrease >= 3) {
        EXPECT_NEAR(front[v], 0.0f, 1e-5f) << i << "," << j;
      }
    }
  }
}

}  // namespace
}  // namespace drape::render
