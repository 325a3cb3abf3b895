#pragma once
// Signed distances of the parts the built-in figures are blended from
// (negative inside), and the blend.

#include <algorithm>
#include <cmath>

#include <glm/glm.hpp>

namespace drape::scene {

// Exact in sign; a bound scaled by the smallest radius elsewhere.
inline float ellipsoidDistance(const glm::vec3& p, const glm::vec3& r) {
  return (glm::length(p / r) - 1.0f) * std::min(r.x, std::min(r.y, r.z));
}

inline float capsuleDistance(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b, float r) {
  const glm::vec3 pa = p - a, ba = b - a;
  const float h = glm::clamp(glm::dot(pa, ba) / glm::dot(ba, ba), 0.0f, 1.0f);
  return glm::length(pa - h * ba) - r;
}

// Polynomial smooth minimum: blends the parts within k of each other.
inline float smoothMin(float a, float b, float k) {
  const float h = std::max(k - std::abs(a - b), 0.0f) / k;
  return std::min(a, b) - 0.25f * k * h * h;
}

}  // namespace drape::scene
