#pragma once
// Rigid-motion-preserving damping of velocities (Müller et al. 2007 §3.5).

#include "sim/world.hpp"

namespace drape::sim {

// Each piece's velocities pulled by kDamping towards the piece's rigid
// motion (its centre of mass's velocity and its angular velocity), pinned
// vertices excluded. The sums run in fixed chunks on the solver's threads,
// added in chunk order: the same result on any thread count.
void dampVelocities(World& world, float kDamping);

}  // namespace drape::sim
