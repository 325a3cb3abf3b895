#pragma once
// One PBD projection of an evaluated constraint over four points, its move
// bounded: what the bending constraints and the fold limits share.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "sim/constraints.hpp"
#include "sim/state.hpp"

namespace drape::sim {

// Δp_i = −k · s · w_i ∇_i C (Müller et al. 2007 §3.3), scaled down so that
// no vertex moves more than maxMove.
inline void projectCapped(const Points& pts, const std::uint32_t (&idx)[4],
                          const ConstraintEval<4, float>& e, float k, float maxMove) {
  if (!e.valid) return;
  float w[4];
  for (int i = 0; i < 4; ++i) w[i] = pts.invMass(idx[i]);
  float scale;
  if (!pbdScale(e, w, scale)) return;
  float factor = k * scale;
  float largest2 = 0.0f;
  for (int i = 0; i < 4; ++i)
    largest2 = std::max(largest2, w[i] * w[i] * glm::dot(e.grad[i], e.grad[i]));
  const float largest = std::abs(factor) * std::sqrt(largest2);
  if (largest > maxMove) factor *= maxMove / largest;
  for (int i = 0; i < 4; ++i) pts.p(idx[i]) -= (factor * w[i]) * e.grad[i];
}

}  // namespace drape::sim
