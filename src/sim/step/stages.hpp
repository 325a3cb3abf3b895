#pragma once
// The projection of one sub-step: the plan's iterations, each a pass over
// its stages in order (plan.hpp), then XPBD's Newton step.
//
// One pipeline for every plan:
//   batched:   stretch and dihedral bending constraints coloured, each
//              colour shared by SIMD lanes and the thread team, a barrier
//              between colours; bit-identical across lanes and thread counts.
//   reference: the same stages on one thread, each constraint list in the
//              cloth's own order as one serial colour (plain Gauss-Seidel,
//              Müller et al. 2007 §3.2), one constraint at a time.
//   explicit springs: the contacts' stages alone, once, on one thread, on
//              State::p itself.

#include "sim/solve/coefficients.hpp"
#include "sim/step/context.hpp"
#include "sim/step/plan.hpp"
#include "sim/world.hpp"

namespace drape::sim {

void projectConstraints(World& world, StepContext& context, const StepPlan& plan,
                        const Coefficients& c);

}  // namespace drape::sim
