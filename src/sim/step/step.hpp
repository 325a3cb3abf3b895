#pragma once
// The step of Position Based Dynamics (Müller et al. 2007 §3.1), XPBD
// (Macklin et al. 2016) and small steps (Macklin et al. 2019) on top. A
// frame runs in this order:
//
//   1. the crossing search the plan's first part asks for (contacts.hpp),
//      and the controllers' update (plan.hpp);
//   2. the plan (plan.hpp), and the derived data it needs (context.hpp);
//   3. each sub-step: predict (gravity, air, damping, or the explicit
//      springs' forces), move the pins and the hand, find the contacts,
//      project (stages.hpp), update the velocities, bounce, advance time;
//   4. tearing (tearing.hpp).

#include <string>

#include "sim/world.hpp"

namespace drape::sim {

// Advance one frame of `params.dt`.
void step(World& world);

// The plan of the frame the next step() would take, as text (what the
// plan holds and why): that frame's crossing search is not run, so its
// sub-steps are those the crossings known now ask for.
std::string explainNextStep(const World& world);

}  // namespace drape::sim
