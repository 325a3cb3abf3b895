#pragma once
// The strain heat map: how far each vertex's edges are from their rest
// lengths, and the colour ramp that shows it. The ramp is defined here once;
// the cloth's vertex colours and the legend in the viewport both read it.

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/sim.hpp"

namespace drape::render {

// Per vertex: the mean over its edges of |l − l0| / l0, with l the current
// and l0 the rest length (stretched and compressed edges count alike). The
// edges are the stretch constraints, one per mesh edge. A vertex without
// edges gets 0. `strain` and `count` are resized and their storage reused.
void computeVertexStrain(const std::vector<glm::vec3>& positions,
                         const std::vector<sim::StretchConstraint>& edges,
                         std::vector<float>& strain, std::vector<std::uint32_t>& count);

// The colour (sRGB) of `t` ∈ [0, 1] (clamped): dark blue at rest, through
// cyan, green and yellow, to red at the top of the scale. A rainbow-like
// ramp on purpose: the user reads where strain is, not small differences.
glm::vec3 strainColor(float t);

// The ramp's stops, for a legend drawn as linear pieces between them.
constexpr int kStrainStops = 5;
glm::vec3 strainStop(int i);

}  // namespace drape::render
