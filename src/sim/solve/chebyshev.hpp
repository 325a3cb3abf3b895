#pragma once
// Chebyshev semi-iterative acceleration of the iterations (Wang 2015, "A
// Chebyshev Semi-Iterative Approach for Accelerating Projective and
// Position-based Dynamics"). With x̂ the plain iterate from x^k, the
// accelerated one is
//
//   x^{k+1} = ω_{k+1} (x̂ − x^{k−1}) + x^{k−1},
//   ω = 1 for the first tuning::kChebyshevStart iterations, then 2 / (2 − ρ²), then
//   ω_{k+1} = 4 / (4 − ρ² ω_k),
//
// with ρ the estimated spectral radius of one iteration (Params::chebyshev).
// Each accelerated point is an affine combination of iterates, so where
// every projection conserves momentum the acceleration does too. Every
// sub-step starts the schedule afresh (its contacts are new).
//
// The sliders keep their meaning. PBD's k' per iteration is chosen for the
// accelerated iterations (acceleratedStiffness), so that one constraint
// still keeps 1 − k of its error whatever the iteration count (Müller et al.
// 2007 §3.3): a rigid material is reached sooner, a soft one stays as soft.
// XPBD's multipliers are extrapolated with the points: each iterate's
// displacement stays the one its multipliers account for, and the solve
// converges to the compliance's answer instead of a stiffer one.

#include <cstddef>

#include <glm/glm.hpp>

namespace drape::sim {

// ω for iteration `iteration` (0-based) given the previous iteration's ω.
float chebyshevOmega(int iteration, float rho, float previousOmega);

// The accelerated iterate of points [begin, end) of the solve buffer (x y z
// and the inverse mass w per point): `points` holds x̂ on entry and x^{k+1}
// on return; `older` holds x^{k−1} and `last` x^k, and both move on one
// iterate. Points with w = 0 (pinned, held) are left as projected.
// `omega` = 1 only shifts the history (a plain iteration).
void chebyshevRange(glm::vec4* points, glm::vec4* older, glm::vec4* last, std::size_t begin,
                    std::size_t end, float omega);

// The same for values [begin, end) (XPBD's multipliers), all of them.
void chebyshevValues(float* values, float* older, float* last, std::size_t begin, std::size_t end,
                     float omega);

// The fraction of one constraint's error left after `iterations`
// iterations that each project it with stiffness `kPrime`, accelerated
// with ρ = `rho` (0: not accelerated, (1 − k')^n).
double errorLeft(float kPrime, int iterations, float rho);

// PBD: the stiffness per iteration that leaves 1 − k of one constraint's
// error after `iterations` accelerated iterations; with ρ = 0, or too few
// iterations for the schedule to start, 1 − (1 − k)^(1/n) (§3.3).
float acceleratedStiffness(float k, int iterations, float rho);

// PBD's bending: acceleratedStiffness, but continuous at k = 1. Just below
// 1 the k' that leaves 1 − k of the error after the accelerated iterations
// is small (0.22 at 4 iterations, 0.17 at 5), and rigid hinges take that
// one too instead of a full projection: over-relaxed whole, rigid bending
// oscillates on a soft cloth and stretches it far. The edges keep their full
// projection at k = 1: there it converges the stiff cloth further than the
// small k' does.
float acceleratedBendStiffness(float k, int iterations, float rho);

// PBD: the stiffness per projection when each of those iterations projects
// the constraint `sweeps` times: 1 − (1 − k')^(1/sweeps) with k' the
// iteration's acceleratedStiffness, so that the sweeps of an iteration
// leave what one projection at k' would.
float sweptStiffness(float k, int iterations, int sweeps, float rho);

}  // namespace drape::sim
