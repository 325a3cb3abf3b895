#pragma once
// The step of Position Based Dynamics (Müller et al. 2007 §3.1) and XPBD
// (Macklin et al. 2016) on top: predict, find contacts, project the
// constraints (pipeline.hpp), update velocities, then tear.

#include "sim/world.hpp"

namespace drape::sim {

// Advance one frame of `params.dt`, in `params.substeps` sub-steps.
void step(World& world);

}  // namespace drape::sim
