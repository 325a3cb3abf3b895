#pragma once
// Chebyshev semi-iterative acceleration of the iterations (Wang 2015, "A
// Chebyshev Semi-Iterative Approach for Accelerating Projective and
// Position-based Dynamics"). With x̂ the plain iterate from x^k, the
// accelerated one is
//
//   x^{k+1} = ω_{k+1} (x̂ − x^{k−1}) + x^{k−1},
//   ω = 1 for the first kChebyshevStart iterations, then 2 / (2 − ρ²), then
//   ω_{k+1} = 4 / (4 − ρ² ω_k),
//
// with ρ the estimated spectral radius of one iteration (Params::chebyshev).
// Each accelerated point is an affine combination of iterates, so where
// every projection conserves momentum the acceleration does too. Every
// sub-step starts the schedule afresh (its contacts are new).

#include <cstddef>

#include <glm/glm.hpp>

namespace drape::sim {

// Plain iterations before the schedule starts: the first iterates of a
// sub-step move the most and are the least like a linear iteration's.
inline constexpr int kChebyshevStart = 2;

// ω for iteration `iteration` (0-based) given the previous iteration's ω.
float chebyshevOmega(int iteration, float rho, float previousOmega);

// The accelerated iterate of points [begin, end) of the solve buffer (x y z
// and the inverse mass w per point): `points` holds x̂ on entry and x^{k+1}
// on return; `older` holds x^{k−1} and `last` x^k, and both move on one
// iterate. Points with w = 0 (pinned, held) are left as projected.
// `omega` = 1 only shifts the history (a plain iteration).
void chebyshevRange(glm::vec4* points, glm::vec4* older, glm::vec4* last, std::size_t begin,
                    std::size_t end, float omega);

}  // namespace drape::sim
