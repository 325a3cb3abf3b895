#pragma once
// The contacts of a sub-step, shared by every solver: finding them once per
// sub-step (collider contacts of the vertices, of the colliders' features,
// and self contacts) and projecting the collider contacts.

#include <cstddef>

#include "sim/collision/feature_contacts.hpp"
#include "sim/world.hpp"

namespace drape::sim {

// Collider contacts (paper §3.4) with position-level friction against the
// motion from x. Each moves only its own vertex.
void solveContacts(const Points& pts, const glm::vec3* x, Contact* contacts, std::size_t count,
                   float friction);
// The colliders' features against the cloth between its vertices
// (feature_contacts.hpp), with friction as at a vertex's contact: each moves
// two or three vertices, so they are projected on one thread, in order.
void solveFeatureContacts(const Points& pts, const glm::vec3* x, const FeatureContact* contacts,
                          std::size_t count, float friction);
// What every solver's sub-step shares. Pinned and grabbed vertices to their
// targets at time t; then this sub-step's collider contacts (paper §3.4, into
// the solver scratch's contacts) and self contacts (paper §4.3) for the motion
// x → p from time t0, timed into `timing`.
void moveToTargets(World& world, double t);
// The self contacts are found for the `span` sub-steps from this one, their
// motion that of the sub-step carried on to the span's end (1: this
// sub-step alone); a span of 0 keeps those found before.
void generateStepContacts(World& world, double t0, float h, StepTimings& timing, int span = 1);
// The sub-steps of this frame one search for self contacts serves: all of
// them where the cloth is calm and still (its last searches for crossings
// found none, its vertices barely move against their neighbours, its mean
// velocity barely moves it, no hand drags it) and the frame takes its
// scene's sub-steps; else 1.
int selfContactSpan(const World& world, int substeps);
// With self collision: the cloth's crossings of itself at the start of the
// frame and the parts inside their contours (untangle.hpp), for every
// sub-step of the frame; timed into `timing`. Nothing without.
void findTangles(World& world, StepTimings& timing);
// After the velocity update: restitution at the contacts that acted (paper
// §3.4), self contacts counted, the clock advanced to t0 + h.
void finishSubstep(World& world, double t0, float h);

}  // namespace drape::sim
