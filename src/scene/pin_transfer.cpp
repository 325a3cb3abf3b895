#include "scene/pin_transfer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace drape::scene {
namespace {

// The vertices of a cloth in cubic cells, for nearest-vertex queries.
class VertexGrid {
 public:
  VertexGrid(const std::vector<glm::vec3>& x, float cell) : x_(x), cell_(cell) {
    cells_.reserve(x.size());
    for (std::uint32_t i = 0; i < x.size(); ++i) cells_[key(cellOf(x[i]))].push_back(i);
  }

  // The nearest vertex to p: rings of cells outwards until the best found
  // is nearer than any unvisited cell can be.
  std::uint32_t nearest(const glm::vec3& p) const {
    const glm::ivec3 c = cellOf(p);
    std::uint32_t best = 0;
    float bestD2 = std::numeric_limits<float>::max();
    for (int r = 0;; ++r) {
      visitShell(c, r, [&](std::uint32_t i) {
        const glm::vec3 d = x_[i] - p;
        const float d2 = glm::dot(d, d);
        if (d2 < bestD2 || (d2 == bestD2 && i < best)) {
          bestD2 = d2;
          best = i;
        }
      });
      const float reach = float(r) * cell_;  // every point nearer than this is visited
      if (bestD2 <= reach * reach || r > kMaxRings) return best;
    }
  }

 private:
  static constexpr int kMaxRings = 64;  // then the nearest of those seen
  glm::ivec3 cellOf(const glm::vec3& p) const { return glm::ivec3(glm::floor(p / cell_)); }
  static std::int64_t key(const glm::ivec3& c) {
    return (std::int64_t(c.x) * 73856093) ^ (std::int64_t(c.y) * 19349663) ^
           (std::int64_t(c.z) * 83492791);
  }
  template <class F>
  void visitShell(const glm::ivec3& c, int r, F&& f) const {
    for (int dz = -r; dz <= r; ++dz)
      for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx) {
          if (std::max({std::abs(dx), std::abs(dy), std::abs(dz)}) != r) continue;
          const glm::ivec3 n = c + glm::ivec3(dx, dy, dz);
          const auto it = cells_.find(key(n));
          if (it == cells_.end()) continue;
          for (std::uint32_t i : it->second)
            if (cellOf(x_[i]) == n) f(i);  // hash collisions aside
        }
  }
  const std::vector<glm::vec3>& x_;
  float cell_;
  std::unordered_map<std::int64_t, std::vector<std::uint32_t>> cells_;
};

// About the spacing of the vertices: the mean edge length.
float meanEdge(const sim::World& w) {
  const auto& e = w.cloth.stretch;
  if (e.empty()) return 0.05f;
  double sum = 0.0;
  for (const sim::StretchConstraint& c : e) sum += double(c.rest);
  return std::max(float(sum / double(e.size())), 1e-4f);
}

}  // namespace

std::vector<PinSpec> transferPins(const sim::World& from, const std::vector<PinSpec>& pins,
                                  const sim::World& to) {
  std::vector<PinSpec> out;
  if (to.state.x.empty()) return out;
  const VertexGrid grid(to.state.x, meanEdge(to));
  std::unordered_set<std::uint32_t> taken;
  for (const PinSpec& p : pins) {
    if (p.vertex >= from.state.x.size()) continue;
    const glm::vec3 at = from.state.x[p.vertex];
    PinSpec q = p;
    q.vertex = grid.nearest(at);
    if (!taken.insert(q.vertex).second) continue;
    if (p.anchor) q.anchor = to.state.x[q.vertex] + (*p.anchor - at);
    out.push_back(q);
  }
  return out;
}

}  // namespace drape::scene
