// Mesh preparation: welding, repairs, orientation, closedness.

#include <gtest/gtest.h>

#include "scene/shapes.hpp"
#include "sim/cloth.hpp"
#include "sim/mesh.hpp"

using namespace drape;

namespace {

// A tetrahedron with outward triangles.
sim::TriMesh tetrahedron() {
  sim::TriMesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  m.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  return m;
}

void expectNear(const glm::vec3& a, const glm::vec3& b, float tol = 1e-5f) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

}  // namespace

TEST(Mesh, GridIsOpenOnePieceAndKeepsItsOrder) {
  const sim::TriMesh grid = scene::makeGrid(5, 2.0f, glm::vec3(0));
  auto p = sim::prepareMesh(grid);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->mesh.positions, grid.positions);
  EXPECT_EQ(p->mesh.triangles.size(), 32u);
  EXPECT_FALSE(p->report.closed);
  EXPECT_EQ(p->report.boundaryEdges, 16u);
  EXPECT_EQ(p->report.pieces, 1u);
  EXPECT_TRUE(p->report.repairs().empty());
}

TEST(Mesh, GridConstraintCountsMatchTheWorkload) {
  // W1(64): 4,096 vertices, 12,033 stretch, 11,781 bend constraints.
  auto p = sim::prepareMesh(scene::makeGrid(64, 2.0f, glm::vec3(0)));
  ASSERT_TRUE(p);
  const sim::Cloth cloth = sim::buildCloth(p.value(), 0.1f);
  EXPECT_EQ(cloth.vertexCount(), 4096u);
  EXPECT_EQ(cloth.stretch.size(), 12033u);
  EXPECT_EQ(cloth.bend.size(), 11781u);
  // Mass: a third of each triangle's; the total is ρ·area.
  float total = 0.0f;
  for (float m : cloth.mass) total += m;
  EXPECT_NEAR(total, 0.1f * 4.0f, 1e-4f);
}

TEST(Mesh, IcosphereIsClosedAndOutward) {
  auto p = sim::prepareMesh(scene::makeIcosphere(3, 0.5f, glm::vec3(0, 0.5f, 0)));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->mesh.positions.size(), 642u);
  EXPECT_EQ(p->mesh.triangles.size(), 1280u);
  EXPECT_TRUE(p->report.closed);
  EXPECT_GT(sim::sixVolume(p->mesh.positions, p->mesh.triangles), 0.0f);
  EXPECT_EQ(p->report.flippedTriangles, 0u);
}

TEST(Mesh, WeldsSplitVerticesAndReportsThem) {
  // Two triangles that share an edge by position only (as at a UV seam).
  sim::TriMesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  m.triangles = {{0, 1, 2}, {3, 4, 5}};
  auto p = sim::prepareMesh(m);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->mesh.positions.size(), 4u);
  EXPECT_EQ(p->report.weldedVertices, 2u);
  EXPECT_EQ(p->inputToVertex[3], p->inputToVertex[1]);
  EXPECT_EQ(p->inputToVertex[5], p->inputToVertex[2]);
}

TEST(Mesh, DropsDegenerateDuplicateAndUnused) {
  sim::TriMesh m = tetrahedron();
  m.positions.push_back({5, 5, 5});     // unused
  m.positions.push_back({0.5f, 0, 0});  // on the edge 0-1
  m.triangles.push_back({0, 1, 5});     // collinear: zero area
  m.triangles.push_back({0, 0, 2});     // repeated index
  m.triangles.push_back({2, 1, 0});     // duplicate of {0,2,1}
  auto p = sim::prepareMesh(m);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->mesh.triangles.size(), 4u);
  EXPECT_EQ(p->mesh.positions.size(), 4u);
  EXPECT_EQ(p->report.degenerateTriangles, 2u);
  EXPECT_EQ(p->report.duplicateTriangles, 1u);
  EXPECT_EQ(p->report.unusedVertices, 1u);  // the collinear point was referenced once
  EXPECT_TRUE(p->report.closed);
  EXPECT_EQ(p->report.repairs().size(), 3u);
}

TEST(Mesh, SplitsNonManifoldEdges) {
  // Three triangles on the edge (0, 1): a "book" with three pages.
  sim::TriMesh m;
  m.positions = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0.5f}, {-1, 0, 0.5f}, {0, 1, 0.5f}};
  m.triangles = {{0, 1, 2}, {1, 0, 3}, {0, 1, 4}};
  auto p = sim::prepareMesh(m);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->report.nonManifoldEdges, 1u);
  EXPECT_EQ(p->mesh.positions.size(), 7u);  // the third page got its own edge
  // Every edge now has at most two triangles.
  const sim::Cloth cloth = sim::buildCloth(p.value(), 1.0f);
  EXPECT_EQ(cloth.bend.size(), 1u);
}

TEST(Mesh, OrientsInconsistentAndInsideOutMeshes) {
  sim::TriMesh m = tetrahedron();
  std::swap(m.triangles[2][1], m.triangles[2][2]);  // one triangle flipped
  auto p = sim::prepareMesh(m);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->report.flippedTriangles, 1u);
  EXPECT_GT(sim::sixVolume(p->mesh.positions, p->mesh.triangles), 0.0f);

  sim::TriMesh inside = tetrahedron();
  for (glm::uvec3& t : inside.triangles) std::swap(t[1], t[2]);
  auto q = sim::prepareMesh(inside);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->report.flippedTriangles, 4u);
  EXPECT_GT(sim::sixVolume(q->mesh.positions, q->mesh.triangles), 0.0f);
}

TEST(Mesh, RefusesUnusableInput) {
  sim::TriMesh empty;
  EXPECT_FALSE(sim::prepareMesh(empty));
  sim::TriMesh flat;
  flat.positions = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  flat.triangles = {{0, 1, 2}};
  auto r = sim::prepareMesh(flat);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("degenerate"), std::string::npos);
  sim::TriMesh nan = tetrahedron();
  nan.positions[1].x = std::nanf("");
  auto n = sim::prepareMesh(nan);
  ASSERT_FALSE(n);
  EXPECT_NE(n.error().find("non-finite"), std::string::npos);
  sim::TriMesh range = tetrahedron();
  range.triangles[0][0] = 99;
  EXPECT_FALSE(sim::prepareMesh(range));
}

TEST(Mesh, CountsPieces) {
  sim::TriMesh two = scene::makeGrid(3, 1.0f, glm::vec3(0));
  const sim::TriMesh other = scene::makeGrid(3, 1.0f, glm::vec3(5, 0, 0));
  const std::uint32_t base = std::uint32_t(two.positions.size());
  two.positions.insert(two.positions.end(), other.positions.begin(), other.positions.end());
  for (glm::uvec3 t : other.triangles) two.triangles.push_back(t + glm::uvec3(base));
  two.cornerUVs.insert(two.cornerUVs.end(), other.cornerUVs.begin(), other.cornerUVs.end());
  auto p = sim::prepareMesh(two);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->report.pieces, 2u);
  EXPECT_EQ(sim::buildCloth(p.value(), 1.0f).pieceCount, 2u);
}

TEST(Normals, FlatCounterClockwiseQuadFacesUp) {
  // Seen from +y: (0,0,0) → (0,0,1) → (1,0,0) is counter-clockwise.
  const std::vector<glm::vec3> x = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}};
  const std::vector<glm::uvec3> t = {{0, 2, 1}, {1, 2, 3}};
  std::vector<glm::vec3> n;
  sim::computeVertexNormals(x, t, n);
  ASSERT_EQ(n.size(), 4u);
  for (const glm::vec3& v : n) expectNear(v, {0, 1, 0});
}

TEST(Normals, WeightedByArea) {
  // Vertex 0 is shared by a big triangle facing +z (area 2) and a small one
  // facing +x (area 0.5): its normal is their area-weighted mean.
  const std::vector<glm::vec3> x = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0, 0, -1}, {0, 1, 0}};
  const std::vector<glm::uvec3> t = {{0, 1, 2}, {0, 3, 4}};
  std::vector<glm::vec3> n;
  sim::computeVertexNormals(x, t, n);
  expectNear(n[0], glm::normalize(glm::vec3(0.5f, 0.0f, 2.0f)));
  expectNear(n[1], {0, 0, 1});
  expectNear(n[3], {1, 0, 0});
}

TEST(Normals, DegenerateAndUnusedVerticesGetUp) {
  const std::vector<glm::vec3> x = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {5, 5, 5}};
  const std::vector<glm::uvec3> t = {{0, 1, 2}};  // collinear: zero area
  std::vector<glm::vec3> n = {{9, 9, 9}};         // stale content is replaced
  sim::computeVertexNormals(x, t, n);
  ASSERT_EQ(n.size(), 4u);
  for (const glm::vec3& v : n) expectNear(v, {0, 1, 0});
}

TEST(MeshUVs, GridCarriesItsParameterisation) {
  const sim::TriMesh grid = scene::makeGrid(3, 2.0f, glm::vec3(0));
  ASSERT_EQ(grid.cornerUVs.size(), 3 * grid.triangles.size());
  // Each corner's UV is its vertex's place on the grid, (0,0) to (1,1).
  for (std::size_t t = 0; t < grid.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const glm::vec3 x = grid.positions[grid.triangles[t][k]];
      const glm::vec2 uv = grid.cornerUVs[3 * t + std::size_t(k)];
      EXPECT_FLOAT_EQ(uv.x, 0.5f * (x.x + 1.0f));
      EXPECT_FLOAT_EQ(uv.y, 0.5f * (x.z + 1.0f));
    }
}

TEST(MeshUVs, FollowTheirTrianglesThroughWeldDropAndFlip) {
  // Two triangles sharing an edge through two coincident pairs of vertices
  // (welded), the second wound the other way (flipped to agree), plus a
  // degenerate triangle (dropped). Each corner's UV names its input corner.
  sim::TriMesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}, {2, 0, 0}};
  m.triangles = {{0, 2, 1}, {1, 1, 6}, {3, 5, 4}};
  m.cornerUVs = {{0, 0}, {0, 1},       {1, 0},       {9, 9},      {9, 9},
                 {9, 9}, {0.3f, 0.3f}, {0.5f, 0.5f}, {0.4f, 0.4f}};
  auto p = sim::prepareMesh(m);
  ASSERT_TRUE(p);
  ASSERT_EQ(p->mesh.triangles.size(), 2u);
  ASSERT_EQ(p->mesh.cornerUVs.size(), 6u);
  EXPECT_EQ(p->report.degenerateTriangles, 1u);
  EXPECT_EQ(p->report.flippedTriangles, 1u);
  // Whatever the new order of corners, each vertex keeps the UV it had.
  const std::vector<glm::vec2> inputUV = {{0, 0},       {1, 0},       {0, 1},
                                          {0.3f, 0.3f}, {0.4f, 0.4f}, {0.5f, 0.5f}};
  const std::vector<glm::vec3> inputPos = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1},
                                           {1, 0, 0}, {0, 0, 1}, {1, 0, 1}};
  for (std::size_t t = 0; t < 2; ++t)
    for (int k = 0; k < 3; ++k) {
      const glm::vec3 x = p->mesh.positions[p->mesh.triangles[t][k]];
      const glm::vec2 uv = p->mesh.cornerUVs[3 * t + std::size_t(k)];
      bool found = false;
      for (std::size_t i = 0; i < inputPos.size(); ++i)
        found = found || (inputPos[i] == x && inputUV[i] == uv &&
                          // the seam: (1,0,0) has UV (1,0) in triangle 0, (0.3,0.3) in triangle 1
                          (t == 0) == (i < 3));
      EXPECT_TRUE(found) << "triangle " << t << " corner " << k;
    }
}

TEST(MeshUVs, AWrongCountIsRefused) {
  sim::TriMesh m = tetrahedron();
  m.cornerUVs.assign(5, glm::vec2(0));
  auto p = sim::prepareMesh(m);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().find("texture coordinates"), std::string::npos) << p.error();
}
