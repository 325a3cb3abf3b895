#include "render/rope_tubes.hpp"

#include <cmath>

namespace drape::render {
namespace {

// A unit vector across `t`.
glm::vec3 across(const glm::vec3& t) {
  const glm::vec3 a = std::abs(t.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
  return glm::normalize(glm::cross(t, a));
}

glm::vec3 unitOr(const glm::vec3& v, const glm::vec3& fallback) {
  const float l = glm::length(v);
  return l > 1e-12f && std::isfinite(l) ? v / l : fallback;
}

}  // namespace

void makeRopeTubes(const sim::World& world, float radius, std::vector<LitVertex>& vertices,
                   std::vector<std::uint32_t>& indices) {
  const sim::Cloth& cloth = world.cloth;
  const std::vector<glm::vec3>& x = world.state.x;
  vertices.clear();
  const bool makeIndices = indices.empty();
  constexpr float kTurn = 6.28318531f / float(kTubeSides);
  for (const sim::Rope& rope : cloth.ropes) {
    const std::uint32_t first = std::uint32_t(vertices.size());
    const std::uint32_t count = rope.segmentEnd - rope.segmentBegin + 1;
    glm::vec3 normal(0.0f), tangent(1, 0, 0);
    for (std::uint32_t k = 0; k < count; ++k) {
      const std::uint32_t s = rope.segmentBegin + std::min(k, count - 2);
      const std::uint32_t v =
          k + 1 < count ? cloth.ropeSegments[rope.segmentBegin + k].a : cloth.ropeSegments[s].b;
      // The tangent at a vertex halves its two segments' directions.
      glm::vec3 t = x[cloth.ropeSegments[s].b] - x[cloth.ropeSegments[s].a];
      if (k > 0 && k + 1 < count) {
        const sim::RopeSegment& before = cloth.ropeSegments[rope.segmentBegin + k - 1];
        t = unitOr(t, tangent) + unitOr(x[before.b] - x[before.a], tangent);
      }
      t = unitOr(t, tangent);
      // The ring's frame carried from the last one (parallel transport,
      // Bishop 1975): the tube does not twist where the rope turns.
      normal = k == 0 ? across(t) : unitOr(normal - glm::dot(normal, t) * t, across(t));
      tangent = t;
      const glm::vec3 binormal = glm::cross(t, normal);
      for (int j = 0; j < kTubeSides; ++j) {
        const glm::vec3 n =
            std::cos(kTurn * float(j)) * normal + std::sin(kTurn * float(j)) * binormal;
        vertices.push_back({x[v] + radius * n, n});
      }
    }
    if (!makeIndices) continue;
    for (std::uint32_t k = 0; k + 1 < count; ++k)
      for (std::uint32_t j = 0; j < std::uint32_t(kTubeSides); ++j) {
        const std::uint32_t a = first + k * kTubeSides + j;
        const std::uint32_t b = first + k * kTubeSides + (j + 1) % kTubeSides;
        indices.insert(indices.end(), {a, b, a + kTubeSides, b, b + kTubeSides, a + kTubeSides});
      }
  }
}

void makeSeamTubes(const sim::World& world, float radius, float openGap,
                   std::vector<LitVertex>& vertices, std::vector<std::uint32_t>& indices) {
  const std::vector<glm::vec3>& x = world.state.x;
  vertices.clear();
  indices.clear();
  constexpr float kTurn = 6.28318531f / float(kTubeSides);
  for (const sim::Seam& seam : world.cloth.seams) {
    const glm::vec3 d = x[seam.b] - x[seam.a];
    const float gap = glm::length(d);
    if (!(gap > openGap) || !std::isfinite(gap)) continue;
    const glm::vec3 t = d / gap, normal = across(t), binormal = glm::cross(t, normal);
    const std::uint32_t first = std::uint32_t(vertices.size());
    for (const std::uint32_t v : {seam.a, seam.b})
      for (int j = 0; j < kTubeSides; ++j) {
        const glm::vec3 n =
            std::cos(kTurn * float(j)) * normal + std::sin(kTurn * float(j)) * binormal;
        vertices.push_back({x[v] + radius * n, n});
      }
    for (std::uint32_t j = 0; j < std::uint32_t(kTubeSides); ++j) {
      const std::uint32_t a = first + j, b = first + (j + 1) % kTubeSides;
      indices.insert(indices.end(), {a, b, a + kTubeSides, b, b + kTubeSides, a + kTubeSides});
    }
  }
}

}  // namespace drape::render
