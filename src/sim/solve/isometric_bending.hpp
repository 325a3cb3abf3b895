#pragma once
// Isometric bending (Bergou et al. 2006): a constant 4×4 matrix per stencil
// of two triangles, projected one constraint at a time.

#include <cstddef>

#include "sim/cloth.hpp"
#include "sim/solve/coefficients.hpp"
#include "sim/state.hpp"
#include "sim/tuning.hpp"

namespace drape::sim {

// Project constraints [0, count) in order, with the sub-step's
// coefficients: PBD's k' or XPBD's α̃ and the multipliers `lambda` (one
// per constraint); each constraint's own value from c.bendEach where set.
// PBD moves no vertex further than tuning::kMaxBendMove rest lengths.
void solveIsoBend(const Points& pts, const IsoBendConstraint* constraints, std::size_t count,
                  const Coefficients& c, float* lambda);

}  // namespace drape::sim
