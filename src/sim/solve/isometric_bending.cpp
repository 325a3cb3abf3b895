#include "sim/solve/isometric_bending.hpp"
#include "sim/tuning.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/constraints.hpp"
#include "sim/solve/capped_projection.hpp"

namespace drape::sim {
namespace {

// XPBD (Macklin et al. 2016): Δλ = (−C − α̃λ)/(Σ w|∇C|² + α̃),
// Δp_i = w_i ∇_i C Δλ.
void applyXpbd(const Points& pts, const std::uint32_t (&idx)[4], const ConstraintEval<4, float>& e,
               float alphaTilde, float& lambda) {
  if (!e.valid || std::isinf(alphaTilde)) return;
  float denom = alphaTilde;
  float w[4];
  for (int i = 0; i < 4; ++i) {
    w[i] = pts.invMass(idx[i]);
    denom += w[i] * glm::dot(e.grad[i], e.grad[i]);
  }
  if (!(denom > 1e-20f)) return;
  const float dl = (-e.C - alphaTilde * lambda) / denom;
  lambda += dl;
  for (int i = 0; i < 4; ++i) pts.p(idx[i]) += (w[i] * dl) * e.grad[i];
}

}  // namespace

void solveIsoBend(const Points& pts, const IsoBendConstraint* constraints, std::size_t count,
                  const Coefficients& c, float* lambda) {
  for (std::size_t j = 0; j < count; ++j) {
    const IsoBendConstraint& b = constraints[j];
    const glm::vec3 x[4] = {pts.p(b.v[0]), pts.p(b.v[1]), pts.p(b.v[2]), pts.p(b.v[3])};
    const ConstraintEval<4, float> e = evalIsometric(x, b.q, b.rest);
    if (c.xpbd)
      applyXpbd(pts, b.v, e, c.bendEach ? c.bendEach[j] : c.alphaBend, lambda[j]);
    else
      projectCapped(pts, b.v, e, c.bendEach ? c.bendEach[j] : c.kBend,
                    tuning::kMaxBendMove * b.restLength);
  }
}

}  // namespace drape::sim
