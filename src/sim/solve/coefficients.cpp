#include "sim/solve/coefficients.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/cloth.hpp"
#include "sim/constraints.hpp"
#include "sim/material.hpp"
#include "sim/solve/chebyshev.hpp"

namespace drape::sim {
namespace {

// Each constraint's stiffness min(1, k × multiplier) as PBD's k' (from
// `pbd`) or XPBD's α̃, into `out`. A zero stiffness has no finite
// compliance: α̃ is capped so that the kernels' arithmetic stays finite (the
// step it allows is ~0). A value is worked out once per distinct multiplier
// (a cloth has a few materials, which the colour order interleaves; PBD's
// k' is a bisection), the first kRemembered of them kept.
template <typename Multiplier, typename Pbd>
const float* materialValues(std::size_t count, Multiplier&& multiplier, float k, Pbd&& pbd,
                            bool xpbd, float unit, float h, std::vector<float>& out) {
  constexpr std::size_t kRemembered = 16;
  std::pair<float, float> known[kRemembered];  // multiplier, value
  std::size_t knownCount = 0;
  auto valueOf = [&](float m) {
    for (std::size_t i = 0; i < knownCount; ++i)
      if (known[i].first == m) return known[i].second;
    const float kc = std::min(1.0f, k * m);
    const float value =
        xpbd ? std::min(complianceFromStiffness(kc, unit) / (h * h), 1e30f) : pbd(kc);
    if (knownCount < kRemembered) known[knownCount++] = {m, value};
    return value;
  };
  out.resize(count);
  float last = -1.0f, value = 0.0f;
  for (std::size_t j = 0; j < count; ++j) {
    const float m = multiplier(j);
    if (m != last) value = valueOf(last = m);  // runs of one piece's constraints
    out[j] = value;
  }
  return out.data();
}

// One kind of constraint's α̃ under XPBD (material.hpp): each constraint's
// compliance per unit of the modulus, over modulus(k) h². A cloth of one
// material keeps the per-unit values and one scale; where multipliers
// differ, each constraint gets its own α̃ in `own`. The scale is bounded
// so that no α̃ overflows (an infinitely soft constraint takes a step of ~0).
template <typename Packed, typename Modulus>
const float* materialAlpha(const Packed& packed, double k, Modulus&& modulus, double h2,
                           float& scale, std::vector<float>& own) {
  auto scaleOf = [&](double kc) {
    const double m = modulus(kc);
    if (std::isinf(m)) return 0.0;
    const double cap = 1e30 / std::max(double(packed.mostCompliance), 1e-30);
    return m > 0.0 ? std::min(1.0 / (m * h2), cap) : cap;
  };
  if (packed.uniform) {
    scale = float(scaleOf(k));
    return packed.compliance.data();
  }
  own.resize(packed.size());
  for (std::size_t j = 0; j < packed.size(); ++j)
    own[j] = float(double(packed.compliance[j]) *
                   scaleOf(std::min(1.0, k * double(packed.stiffness[j]))));
  return own.data();
}

}  // namespace

Coefficients deriveCoefficients(const Params& params, int iterations, int stretchSweeps,
                                float chebyshev, float h, const PackedStretch& stretch,
                                const PackedBend& bend, const Cloth& cloth,
                                std::vector<float>& stretchEach, std::vector<float>& bendEach) {
  Coefficients c;
  c.xpbd = params.solver == SolverKind::Xpbd;
  c.isometric = params.bending == BendingModel::Isometric;
  c.iterations = iterations;
  c.stretchSweeps = std::max(stretchSweeps, 1);
  c.h = h;
  c.chebyshev = chebyshev;
  auto stretchK = [&](float k) {
    return sweptStiffness(k, iterations, c.stretchSweeps, chebyshev);
  };
  auto bendK = [&](float k) { return acceleratedBendStiffness(k, iterations, chebyshev); };
  c.kStretch = stretchK(params.k_stretch);
  c.kBend = bendK(params.k_bend);
  // XPBD's isometric bending keeps a compliance scale of its own
  // (params.hpp); its dihedral bending and stretch take the material's.
  c.alphaBend = complianceFromStiffness(params.k_bend, kBendComplianceUnit) / (h * h);
  c.stretchOn = !c.xpbd || params.k_stretch > 0.0f;
  c.bendOn = c.xpbd && c.isometric ? !std::isinf(c.alphaBend) : params.k_bend > 0.0f;
  c.limitSlack = stretchLimitSlack(params.k_stretch);
  c.kLimits = params.k_stretch;
  if (c.xpbd) {
    const double h2 = double(h) * double(h);
    c.stretchEach =
        materialAlpha(stretch, params.k_stretch, stretchModulus, h2, c.stretchScale, stretchEach);
    if (!c.isometric)
      c.bendEach = materialAlpha(bend, params.k_bend, bendingStiffness, h2, c.bendScale, bendEach);
  } else if (!stretch.uniform) {
    c.stretchEach = materialValues(
        stretch.size(), [&](std::size_t j) { return stretch.stiffness[j]; }, params.k_stretch,
        stretchK, false, 0.0f, h, stretchEach);
  }
  if (c.isometric) {
    const bool uniform =
        std::all_of(cloth.isoBend.begin(), cloth.isoBend.end(),
                    [](const IsoBendConstraint& b) { return b.stiffness == 1.0f; });
    if (!uniform)
      c.bendEach = materialValues(
          cloth.isoBend.size(), [&](std::size_t j) { return cloth.isoBend[j].stiffness; },
          params.k_bend, bendK, c.xpbd, kBendComplianceUnit, h, bendEach);
  } else if (!bend.uniform && !c.xpbd) {
    c.bendEach = materialValues(
        bend.size(), [&](std::size_t j) { return bend.stiffness[j]; }, params.k_bend, bendK, c.xpbd,
        kBendComplianceUnit, h, bendEach);
  }
  return c;
}

}  // namespace drape::sim
