#include "scene/shapes.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "scene/distance_fields.hpp"

namespace drape::scene {
namespace {

// Corner UVs of a grid of nu × nv vertices numbered row by row: each
// vertex's place on the grid, (0, 0) to (1, 1).
void addGridUVs(sim::TriMesh& mesh, int nu, int nv) {
  mesh.cornerUVs.clear();
  mesh.cornerUVs.reserve(3 * mesh.triangles.size());
  for (const glm::uvec3& t : mesh.triangles)
    for (int k = 0; k < 3; ++k)
      mesh.cornerUVs.emplace_back(float(t[k] % std::uint32_t(nu)) / float(nu - 1),
                                  float(t[k] / std::uint32_t(nu)) / float(nv - 1));
}

}  // namespace

sim::TriMesh makeGrid(int n, float size, const glm::vec3& center) {
  sim::TriMesh mesh;
  mesh.positions.reserve(std::size_t(n) * std::size_t(n));
  const float step = size / float(n - 1);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      mesh.positions.push_back(
          center + glm::vec3(-0.5f * size + float(i) * step, 0.0f, -0.5f * size + float(j) * step));
  mesh.triangles.reserve(std::size_t(2) * std::size_t(n - 1) * std::size_t(n - 1));
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      const std::uint32_t a = std::uint32_t(j * n + i), b = a + 1;
      const std::uint32_t c = a + std::uint32_t(n), d = c + 1;
      // (a, c, b) is counter-clockwise seen from +y.
      if ((i + j) % 2 == 0) {
        mesh.triangles.push_back({a, c, b});
        mesh.triangles.push_back({b, c, d});
      } else {
        mesh.triangles.push_back({a, c, d});
        mesh.triangles.push_back({a, d, b});
      }
    }
  addGridUVs(mesh, n, n);  // u along x, v along z
  return mesh;
}

sim::TriMesh makeIcosphere(int levels, float radius, const glm::vec3& center) {
  const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
  std::vector<glm::vec3> p = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
                              {0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
                              {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  for (glm::vec3& v : p) v = glm::normalize(v);
  std::vector<glm::uvec3> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                               {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                               {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                               {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> mid;
    auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
      const auto key = std::make_pair(std::min(a, b), std::max(a, b));
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      p.push_back(glm::normalize(p[a] + p[b]));
      const std::uint32_t idx = std::uint32_t(p.size() - 1);
      mid.emplace(key, idx);
      return idx;
    };
    std::vector<glm::uvec3> next;
    next.reserve(f.size() * 4);
    for (const glm::uvec3& tri : f) {
      const std::uint32_t ab = midpoint(tri[0], tri[1]), bc = midpoint(tri[1], tri[2]),
                          ca = midpoint(tri[2], tri[0]);
      next.push_back({tri[0], ab, ca});
      next.push_back({tri[1], bc, ab});
      next.push_back({tri[2], ca, bc});
      next.push_back({ab, bc, ca});
    }
    f = std::move(next);
  }
  sim::TriMesh mesh;
  for (const glm::vec3& v : p) mesh.positions.push_back(center + radius * v);
  mesh.triangles = std::move(f);
  return mesh;
}

sim::TriMesh makeSheet(int nu, int nv, const glm::vec3& origin, const glm::vec3& uEdge,
                       const glm::vec3& vEdge) {
  sim::TriMesh mesh;
  mesh.positions.reserve(std::size_t(nu) * std::size_t(nv));
  for (int j = 0; j < nv; ++j)
    for (int i = 0; i < nu; ++i)
      mesh.positions.push_back(origin + (float(i) / float(nu - 1)) * uEdge +
                               (float(j) / float(nv - 1)) * vEdge);
  for (int j = 0; j + 1 < nv; ++j)
    for (int i = 0; i + 1 < nu; ++i) {
      const std::uint32_t a = std::uint32_t(j * nu + i), b = a + 1;
      const std::uint32_t c = a + std::uint32_t(nu), d = c + 1;
      // (a, b, c) is counter-clockwise seen from uEdge × vEdge.
      if ((i + j) % 2 == 0) {
        mesh.triangles.push_back({a, b, c});
        mesh.triangles.push_back({b, d, c});
      } else {
        mesh.triangles.push_back({a, d, c});
        mesh.triangles.push_back({a, b, d});
      }
    }
  addGridUVs(mesh, nu, nv);
  return mesh;
}

namespace {

// The gingerbread figure at scale 1, torso centre at the origin. Every limb
// is a capsule whose axis starts at the origin, so each part, and their
// union, is star-shaped about it.
float characterDistance(const glm::vec3& p) {
  const glm::vec3 o(0.0f);
  float d = ellipsoidDistance(p, glm::vec3(0.21f, 0.27f, 0.15f));  // torso
  const float k = 0.06f;
  d = smoothMin(d, capsuleDistance(p, o, {0.0f, 0.41f, 0.0f}, 0.145f), k);    // head
  d = smoothMin(d, capsuleDistance(p, o, {-0.42f, 0.12f, 0.0f}, 0.075f), k);  // arms
  d = smoothMin(d, capsuleDistance(p, o, {0.42f, 0.12f, 0.0f}, 0.075f), k);
  d = smoothMin(d, capsuleDistance(p, o, {-0.15f, -0.47f, 0.0f}, 0.09f), k);  // legs
  d = smoothMin(d, capsuleDistance(p, o, {0.15f, -0.47f, 0.0f}, 0.09f), k);
  return d;
}

glm::vec3 characterGradient(const glm::vec3& p) {
  const float e = 1e-4f;
  return glm::vec3(
             characterDistance(p + glm::vec3(e, 0, 0)) - characterDistance(p - glm::vec3(e, 0, 0)),
             characterDistance(p + glm::vec3(0, e, 0)) - characterDistance(p - glm::vec3(0, e, 0)),
             characterDistance(p + glm::vec3(0, 0, e)) -
                 characterDistance(p - glm::vec3(0, 0, e))) /
         (2.0f * e);
}

// Newton steps along the gradient onto the zero set.
glm::vec3 projectOntoCharacter(glm::vec3 p) {
  for (int i = 0; i < 4; ++i) {
    const glm::vec3 g = characterGradient(p);
    const float g2 = glm::dot(g, g);
    if (!(g2 > 1e-12f)) break;
    p -= (characterDistance(p) / g2) * g;
  }
  return p;
}

}  // namespace

sim::TriMesh makeCharacter(int levels, float scale, const glm::vec3& center) {
  sim::TriMesh mesh = makeIcosphere(levels, 1.0f, glm::vec3(0.0f));
  std::vector<glm::vec3>& x = mesh.positions;
  // The farthest crossing along each ray (marching in from outside, then
  // bisection); the figure fits inside a radius of 0.8.
  for (glm::vec3& p : x) {
    const glm::vec3 dir = p;
    const float step = 0.004f;
    float outside = 0.8f;
    while (outside > step && characterDistance(outside * dir) > 0.0f) outside -= step;
    float lo = outside - step, hi = outside;  // lo inside, hi outside
    for (int i = 0; i < 24; ++i) {
      const float mid = 0.5f * (lo + hi);
      (characterDistance(mid * dir) > 0.0f ? hi : lo) = mid;
    }
    p = 0.5f * (lo + hi) * dir;
  }
  // Rays leave the thin limbs sparsely covered and their sides in slivers:
  // relax every vertex towards the centroid of its neighbours within the
  // tangent plane, then back onto the surface (Jacobi, so the order of the
  // vertices does not matter).
  std::vector<std::vector<std::uint32_t>> neighbours(x.size());
  for (const glm::uvec3& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) {
      auto& list = neighbours[t[k]];
      for (int m = 1; m < 3; ++m)
        if (std::find(list.begin(), list.end(), t[(k + m) % 3]) == list.end())
          list.push_back(t[(k + m) % 3]);
    }
  std::vector<glm::vec3> next(x.size());
  for (int iteration = 0; iteration < 30; ++iteration) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      glm::vec3 centroid(0.0f);
      for (std::uint32_t j : neighbours[i]) centroid += x[j];
      centroid /= float(neighbours[i].size());
      const glm::vec3 n = glm::normalize(characterGradient(x[i]));
      glm::vec3 move = centroid - x[i];
      move -= glm::dot(move, n) * n;
      next[i] = projectOntoCharacter(x[i] + 0.5f * move);
    }
    x.swap(next);
  }
  for (glm::vec3& p : x) p = center + scale * p;
  return mesh;
}

}  // namespace drape::scene
