// The garment scene's mannequin and shirt pattern: a closed body that keeps
// its topology as it moves, and panels whose seams pair matching places.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <utility>

#include "scene/mannequin.hpp"
#include "scene/shirt_pattern.hpp"

using namespace drape;

namespace {

// Every edge used by exactly two triangles, once each way.
bool closedManifold(const sim::TriMesh& mesh) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
  for (const glm::uvec3& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) ++directed[{t[k], t[(k + 1) % 3]}];
  for (const auto& [edge, count] : directed) {
    if (count != 1) return false;
    const auto back = directed.find({edge.second, edge.first});
    if (back == directed.end() || back->second != 1) return false;
  }
  return true;
}

double volume(const sim::TriMesh& mesh) {
  double v = 0.0;
  for (const glm::uvec3& t : mesh.triangles)
    v +=
        double(glm::dot(mesh.positions[t.x], glm::cross(mesh.positions[t.y], mesh.positions[t.z])));
  return v / 6.0;
}

// The boundary edges of a triangle mesh (used once).
std::set<std::pair<std::uint32_t, std::uint32_t>> boundaryEdges(const sim::TriMesh& mesh) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> count;
  for (const glm::uvec3& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = t[k], b = t[(k + 1) % 3];
      ++count[{std::min(a, b), std::max(a, b)}];
    }
  std::set<std::pair<std::uint32_t, std::uint32_t>> out;
  for (const auto& [edge, n] : count)
    if (n == 1) out.insert(edge);
  return out;
}

}  // namespace

TEST(Mannequin, IsOneClosedOutwardSurfaceOfHumanSize) {
  const scene::MannequinSize size;
  const sim::TriMesh body = scene::makeMannequin(size, 0.022f);
  EXPECT_TRUE(closedManifold(body));
  glm::vec3 lo(1e9f), hi(-1e9f);
  for (const glm::vec3& p : body.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  EXPECT_NEAR(lo.y, 0.0f, 0.03f);  // stands on the floor
  EXPECT_NEAR(hi.y, 1.76f, 0.04f);
  EXPECT_GT(hi.x - lo.x, 1.1f);  // arms out
  // Outward: positive volume, about a person's (60–90 litres).
  EXPECT_GT(volume(body), 0.045);
  EXPECT_LT(volume(body), 0.09);
  std::printf("mannequin: %zu triangles\n", body.triangles.size());
  EXPECT_GT(body.triangles.size(), 3000u);
  EXPECT_LT(body.triangles.size(), 20000u);
}

TEST(Mannequin, MovesWithOneTopologyArmsUpTorsoTurned) {
  const scene::MannequinSize size;
  const sim::TriMesh rest = scene::makeMannequin(size, 0.022f);
  const auto frames = scene::mannequinFrames(rest, size, 30.0f, 5.0f);
  ASSERT_EQ(frames.size(), 151u);
  for (const sim::TriMesh& f : frames) {
    ASSERT_EQ(f.triangles, rest.triangles);
    ASSERT_EQ(f.positions.size(), rest.positions.size());
  }
  EXPECT_EQ(frames.front().positions, rest.positions);  // starts at rest
  // The right hand: the rest vertex farthest along +x.
  std::size_t hand = 0;
  for (std::size_t i = 0; i < rest.positions.size(); ++i)
    if (rest.positions[i].x > rest.positions[hand].x) hand = i;
  EXPECT_GT(frames.back().positions[hand].y, rest.positions[hand].y + 0.15f);
  // The feet stay; the chest's front turns towards +x.
  std::size_t chest = 0, foot = 0;
  for (std::size_t i = 0; i < rest.positions.size(); ++i) {
    const glm::vec3 p = rest.positions[i];
    if (std::abs(p.x) < 0.03f && std::abs(p.y - 1.25f) < 0.03f && p.z > rest.positions[chest].z)
      chest = i;
    if (p.y < rest.positions[foot].y) foot = i;
  }
  EXPECT_EQ(frames.back().positions[foot], rest.positions[foot]);
  EXPECT_GT(frames.back().positions[chest].x, 0.02f);
  EXPECT_TRUE(closedManifold(frames.back()));
  EXPECT_GT(volume(frames.back()), 0.9 * volume(rest));
}

TEST(ShirtPattern, SeamsJoinTheSamePlaceOfFrontAndBackAlongTheirEdges) {
  const scene::MannequinSize size;
  const scene::ShirtPanels shirt = scene::makeShirtPanels(size, 0.03f, 0.04f);
  const std::uint32_t n = std::uint32_t(shirt.frontVertices);
  ASSERT_EQ(shirt.mesh.positions.size(), 2u * n);
  const auto boundary = boundaryEdges(shirt.mesh);
  std::set<std::uint32_t> onBoundary;
  for (const auto& e : boundary) onBoundary.insert({e.first, e.second});
  ASSERT_FALSE(shirt.seams.empty());
  for (const glm::uvec2& s : shirt.seams) {
    ASSERT_LT(s.x, n);
    ASSERT_EQ(s.y, s.x + n);
    const glm::vec3 f = shirt.mesh.positions[s.x], b = shirt.mesh.positions[s.y];
    EXPECT_EQ(f.x, b.x);
    EXPECT_EQ(f.y, b.y);
    EXPECT_GT(f.z, size.chestRadii.z);  // the front in front of the chest
    EXPECT_LT(b.z, -size.chestRadii.z);
    EXPECT_TRUE(onBoundary.count(s.x) == 1) << "seam end " << s.x << " inside a panel";
  }
  // The front faces +z, the back −z.
  double nz = 0.0;
  for (std::size_t t = 0; t < shirt.mesh.triangles.size(); ++t) {
    const glm::uvec3 tri = shirt.mesh.triangles[t];
    const glm::vec3 a = shirt.mesh.positions[tri.x];
    const glm::vec3 normal =
        glm::cross(shirt.mesh.positions[tri.y] - a, shirt.mesh.positions[tri.z] - a);
    const bool front = tri.x < n;
    EXPECT_GT(front ? normal.z : -normal.z, 0.0f) << "triangle " << t;
    nz += normal.z;
  }
  EXPECT_NEAR(nz, 0.0, 1e-3);
  // Open where it must be: the hem, the neck and the cuffs are not sewn, so
  // a boundary vertex of the front is left out of the seams.
  EXPECT_LT(shirt.seams.size(), onBoundary.size() / 2);
}
