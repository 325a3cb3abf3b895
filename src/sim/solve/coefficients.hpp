#pragma once
// What the parameters mean to one sub-step's projection, derived in one
// place: the stiffness of stretch and bending as PBD's per-iteration k or
// XPBD's α̃, each constraint's own value where the cloth has materials, and
// the slack of the stretch limits (tethers, coarse levels).
//
// The sliders k_stretch and k_bend are stiffnesses in [0, 1].
//   PBD (Müller et al. 2007 §3.3): the per-iteration k' = 1 − (1 − k)^(1/n),
//     so that n iterations leave an error of (1 − k).
//   XPBD (Macklin et al. 2016): each edge's and hinge's compliance from the
//     material the sliders name (material.hpp), over h²; isometric bending
//     α = (1/k − 1) · kBendComplianceUnit. k = 1 is rigid (α = 0), k → 0
//     infinitely soft.
//   The stretch limits allow rest · (2 − k_stretch): a rigid cloth none, a
//     soft one up to twice its rest length.

#include <cstddef>
#include <vector>

#include "sim/params.hpp"
#include "sim/solve/coloring.hpp"
#include "sim/tuning.hpp"

namespace drape::sim {

struct Cloth;

// The factor on the rest distance of the stretch limits (tethers, the coarse
// levels of hierarchy.hpp).
inline float stretchLimitSlack(float kStretch) {
  return 2.0f - kStretch;
}

struct Coefficients {
  bool xpbd = false;
  bool isometric = false;  // isometric bending (Bergou et al. 2006) instead of dihedral
  int iterations = 1;
  int stretchSweeps = 1;  // sweeps of the stretch constraints per iteration
  float h = 0.0f;         // the sub-step, s
  // PBD: k' per iteration (stretch: per sweep); XPBD: α̃ = α / h². A kernel
  // takes both: PBD runs with α̃ = 0, XPBD with k = 1.
  float kStretch = 1.0f, kBend = 1.0f;
  float alphaStretch = 0.0f, alphaBend = 0.0f;
  bool stretchOn = true, bendOn = true;  // off: infinitely soft
  float limitSlack = 1.0f;               // stretchLimitSlack(k_stretch)
  float kLimits = 1.0f;                  // k_stretch, for the coarse levels' own stiffness
  float chebyshev = 0.0f;                // ρ the iterations are accelerated with; 0 = not
  // Each constraint's k' (PBD) or α̃ (XPBD) times the scale, indexed like
  // the packed constraints (isometric bending: like cloth.isoBend); null
  // where every constraint has the global value. XPBD's dihedral bending
  // and stretch always take each constraint's own: its compliance per unit
  // of the material's modulus (material.hpp), scaled by 1 / (modulus h²).
  const float* stretchEach = nullptr;
  const float* bendEach = nullptr;
  float stretchScale = 1.0f, bendScale = 1.0f;
  // α̃ of stretch constraint j and of hinge j (XPBD).
  double stretchAlphaOf(std::size_t j) const {
    return stretchEach ? double(stretchEach[j]) * double(stretchScale) : double(alphaStretch);
  }
  double bendAlphaOf(std::size_t j) const {
    return bendEach ? double(bendEach[j]) * double(bendScale) : double(alphaBend);
  }
  // The values the kernels multiply the move by, and add to the denominator.
  float stretchK() const { return xpbd ? 1.0f : kStretch; }
  float stretchAlpha() const { return xpbd ? alphaStretch : 0.0f; }
  float bendK() const { return xpbd ? 1.0f : kBend; }
  float bendAlpha() const { return xpbd ? alphaBend : 0.0f; }
};

// The coefficients of a sub-step of `h` with `iterations` passes, each
// sweeping the stretch constraints `stretchSweeps` times, accelerated with
// ρ = `chebyshev` (0: not; chebyshev.hpp). PBD's stretch k' per sweep
// leaves, after the sweeps of an iteration, what one projection at the
// iteration's k' would: 1 − (1 − k')^(1/sweeps). The
// per-constraint values are written into `stretchEach` / `bendEach`, which
// must outlive the result.
Coefficients deriveCoefficients(const Params& params, int iterations, int stretchSweeps,
                                float chebyshev, float h, const PackedStretch& stretch,
                                const PackedBend& bend, const Cloth& cloth,
                                std::vector<float>& stretchEach, std::vector<float>& bendEach);

}  // namespace drape::sim
