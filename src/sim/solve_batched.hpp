#pragma once
// The batched projection of one sub-step: stretch and dihedral
// bending constraints coloured, each colour shared by SIMD lanes and the
// thread team, in a fixed order; bit-identical across lanes and thread
// counts. Internal to the solver (solver.cpp calls it).

#include <cstddef>

#include "sim/world.hpp"

namespace drape::sim {

// The threads of the solver's team for a cloth of `constraints` stretch and
// bending constraints, `requested` the threads parameter (0: one per core):
// below about 6,000 constraints each, the barriers between colours cost more
// than the work shared. Whatever shares the team in a step asks with the
// same count, so the team is not remade.
int solverThreads(int requested, std::size_t constraints);

// `iterations` passes over pressure, stretch, bending, tethers, attachments
// and contacts. kStretch/kBend: PBD's per-iteration stiffness; aStretch/aBend:
// XPBD's α̃ = α/h² (used when `xpbd`).
void solveBatched(World& world, int iterations, float kStretch, float kBend, float aStretch,
                  float aBend, bool xpbd);

}  // namespace drape::sim
