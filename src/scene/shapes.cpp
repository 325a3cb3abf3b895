#include "scene/shapes.hpp"

#include <map>
#include <utility>

namespace drape::scene {

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

}  // namespace drape::scene
