#pragma once
// The projection of one sub-step: `iterations` passes over a fixed list of
// named stages (as Box2D v3's solver stages), each stage a kind of
// constraint. Internal to the solver (step.cpp calls it).
//
// One pipeline for both kernel settings:
//   batched:   stretch and dihedral bending constraints coloured, each
//              colour shared by SIMD lanes and the thread team, a barrier
//              between colours; bit-identical across lanes and thread counts.
//   reference: the same stages on one thread, each constraint list in the
//              cloth's own order as one serial colour (plain Gauss-Seidel,
//              Müller et al. 2007 §3.2), one constraint at a time.

#include <cstddef>

#include "sim/solve/coefficients.hpp"
#include "sim/world.hpp"

namespace drape::sim {

// The stretch and dihedral bending constraints packed for the kernel
// setting (coloured or in the cloth's order), remade when the topology or
// the setting changes.
void packConstraints(World& world);

// The ρ the iterations of a sub-step are accelerated with (chebyshev.hpp):
// Params::chebyshev, but 0 where the schedule would not start within
// `iterations`, and while a hand or a rigid body shares the corrections
// (grab, attachments): the extrapolated cloth would take momentum the hand
// or the body never gave.
float chebyshevRho(const World& world, int iterations);

// `c.iterations` passes over the stages that have work in this sub-step.
void projectConstraints(World& world, const Coefficients& c);

}  // namespace drape::sim
