#pragma once
// The step's searches: the cloth's crossings of itself at the start of a
// frame, and each sub-step's contacts (with the colliders, with itself, the
// fold limits), run side by side on the step's threads.

#include <cstddef>

#include "sim/step/context.hpp"
#include "sim/step/plan.hpp"
#include "sim/world.hpp"

namespace drape::sim {

// The frame's crossing search as planned (plan.hpp), into
// World::solver.crossings, with the parts inside their contours and each
// crossing's share of the untangling step; returns how many of the
// crossings found were not known before. Timed into `timing`.
std::size_t searchCrossings(World& world, StepContext& ctx, const CrossingPlan& plan,
                            StepTimings& timing);

// The sub-step's collider contacts, for the motion x → p from time t0 over
// h, and its self contacts and fold limits: the self contacts searched
// again where `search`, for the `span` sub-steps from this one (their
// motion that of this sub-step carried on to the span's end), else those
// found before kept. Timed into `timing`.
void findContacts(World& world, StepContext& ctx, const StepPlan& plan, double t0, float h,
                  bool search, StepTimings& timing);

}  // namespace drape::sim
