#pragma once
// Per-constraint materials (cloth.hpp: a stiffness multiplier on each
// constraint) turned into what the solvers use. Internal to the solver.

#include <algorithm>
#include <cstddef>
#include <vector>

#include "sim/constraints.hpp"
#include "sim/params.hpp"

namespace drape::sim {

// Materials (cloth.hpp): each constraint's stiffness min(1, k × multiplier)
// as the per-iteration k (PBD, §3.3) or as α̃ = α/h² (XPBD), into `out`.
// A zero stiffness has no finite compliance: α̃ is capped so that the
// batched kernels' arithmetic stays finite (the step it allows is ~0).
// Runs of equal multipliers (a piece's constraints) reuse the last value.
template <typename Multiplier>
inline void materialValues(std::size_t count, Multiplier&& multiplier, float k, int iterations,
                           bool xpbd, float unit, float h, std::vector<float>& out) {
  out.resize(count);
  float last = -1.0f, value = 0.0f;
  for (std::size_t j = 0; j < count; ++j) {
    const float m = multiplier(j);
    if (m != last) {
      const float kc = std::min(1.0f, k * m);
      value = xpbd ? std::min(complianceFromStiffness(kc, unit) / (h * h), 1e30f)
                   : linearizedStiffness(kc, iterations);
      last = m;
    }
    out[j] = value;
  }
}

// The factor on the rest distance of the stretch limits (tethers, the coarse
// levels of hierarchy.hpp): 1 for a rigid cloth; a soft one (k_stretch < 1)
// may stretch, so its limits give way, up to twice the rest at k = 0.
inline float stretchLimitSlack(float kStretch) {
  return 2.0f - kStretch;
}

// Whether every constraint has the global stiffness (multiplier 1).
template <typename Constraint>
inline bool uniformMaterial(const std::vector<Constraint>& c) {
  return std::all_of(c.begin(), c.end(), [](const Constraint& x) { return x.stiffness == 1.0f; });
}

}  // namespace drape::sim
