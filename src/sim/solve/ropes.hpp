#pragma once
// Ropes solved one at a time as a whole: XPBD (Macklin et al. 2016) on all
// of a rope's constraints at once, a direct solve of the system
// (J W Jᵀ + α̃) Δλ = −C − α̃ λ each iteration, as Deul et al. (2018) do
// for stiff rods. Gauss–Seidel sweeps carry a correction a segment or two
// an iteration, so a stiff rope of forty segments would sag like a chain;
// the direct solve holds it in one. Ordered segment, turn, segment, …,
// the system is banded (a turn shares vertices with the constraints up to
// four places away), so the solve costs O(segments).
//
// Compliance from the material (material.hpp) over a strip of width
// tuning::kRopeWidth: a segment of rest length L has α = L / (Y w), a turn
// of length l (half its segments) α = l / (D w) (a rod's bending energy
// ½ (E I / l) θ² with E I = D w).

#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

namespace drape::sim {

struct Cloth;
struct Points;

// A rope's constraints in band order, and the multipliers of every rope.
struct RopeScratch {
  std::vector<double> lambda;  // per constraint of every rope: segments, then turns
  std::vector<double> band;    // (K + 1) per constraint: the factor's lower band
  std::vector<double> rhs;
  std::vector<glm::dvec3> grad;       // 3 per constraint
  std::vector<std::uint32_t> vertex;  // 3 per constraint (UINT32_MAX: none)
  std::vector<double> alpha;          // α̃ per constraint
};

struct RopeCompliance {
  // α per metre of rest length (m/N over m) of stretch and of bending:
  // 1 / (Y w) and 1 / (D w); 0 rigid, infinite off.
  double stretch = 0.0, bend = 0.0;
  double h = 0.0;  // the sub-step, s
};

RopeCompliance ropeCompliance(float kStretch, float kBend, float h);

// Zero the multipliers (at the start of a sub-step).
void resetRopes(const Cloth& cloth, RopeScratch& scratch);
// One iteration over every rope, in order.
void solveRopes(const Points& points, const Cloth& cloth, const RopeCompliance& compliance,
                RopeScratch& scratch);

}  // namespace drape::sim
