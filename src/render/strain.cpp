#include "render/strain.hpp"

#include <algorithm>
#include <cmath>

namespace drape::render {
namespace {

// Evenly spaced stops, sRGB. Lightness rises to yellow and falls a little to
// red, so that the extremes read against both the sky and the floor.
constexpr glm::vec3 kStops[kStrainStops] = {
    {0.13f, 0.20f, 0.55f},  // 0:    at rest
    {0.10f, 0.62f, 0.86f},  // 0.25
    {0.36f, 0.80f, 0.40f},  // 0.5
    {0.98f, 0.82f, 0.22f},  // 0.75
    {0.86f, 0.16f, 0.12f},  // 1:    top of the scale and beyond
};

}  // namespace

void computeVertexStrain(const std::vector<glm::vec3>& positions,
                         const std::vector<sim::StretchConstraint>& edges,
                         std::vector<float>& strain, std::vector<std::uint32_t>& count) {
  const std::size_t n = positions.size();
  strain.assign(n, 0.0f);
  count.assign(n, 0u);
  for (const sim::StretchConstraint& e : edges) {
    if (e.a >= n || e.b >= n || !(e.rest > 0.0f)) continue;
    const float s = std::abs(glm::length(positions[e.b] - positions[e.a]) - e.rest) / e.rest;
    strain[e.a] += s;
    strain[e.b] += s;
    ++count[e.a];
    ++count[e.b];
  }
  for (std::size_t i = 0; i < n; ++i)
    if (count[i] > 0) strain[i] /= float(count[i]);
}

glm::vec3 strainStop(int i) {
  return kStops[std::clamp(i, 0, kStrainStops - 1)];
}

glm::vec3 strainColor(float t) {
  if (!(t > 0.0f)) return kStops[0];  // also NaN
  const float x = std::min(t, 1.0f) * float(kStrainStops - 1);
  const int i = std::min(int(x), kStrainStops - 2);
  return glm::mix(kStops[i], kStops[i + 1], x - float(i));
}

}  // namespace drape::render
