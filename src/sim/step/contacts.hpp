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

// Sub-step `sub`'s collider contacts, for the motion x → p from time t0
// over h, and its self contacts and fold limits. The self contacts and the
// still shapes' contacts are searched at the start of their spans
// (plan.selfSpan, plan.colliderSpan) for the sub-steps of the span (their
// motion that of this sub-step carried on to the span's end), and kept in
// between. Timed into `timing`.
void findContacts(World& world, StepContext& ctx, const StepPlan& plan, double t0, float h, int sub,
                  StepTimings& timing);

}  // namespace drape::sim
