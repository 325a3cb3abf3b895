#pragma once
// The step's tuned constants, each with the reason for its value. The runs
// that chose them are bench commands in docs/tuning.md, to repeat when the
// code changes. (Limits that follow from the math, not from a measurement,
// stay beside the code they bound.)

#include <cstdint>

namespace drape::sim::tuning {

// --- How often the cloth's crossings of itself are searched (plan.cpp) ---
// Every few frames: a search of a piled 128² drape takes half a frame.
inline constexpr int kCrossingSearchEvery = 4;
// While crossings are known: crumpling cloth makes new ones every frame.
inline constexpr int kCrossingSearchEveryWhileCrossed = 2;
// While calm: a cloth that stopped crossing and barely moves seldom starts again.
inline constexpr int kCrossingSearchEveryWhileCalm = 8;
// Calm after this many searches in a row that found no crossing.
inline constexpr int kCleanSearchesToCalm = 2;
// Calm while vertices move under this many self-contact thicknesses a
// sub-step against their neighbours (a lying drape 0.014–0.04, a fold
// folding 0.09–0.4).
inline constexpr float kCalmTravel = 0.05f;

// --- One self-contact search for a frame's sub-steps (plan.cpp) ---
// Calm and still at half kCalmTravel: a lying cloth, not a landing one.
inline constexpr float kSpanTravel = 0.025f;

// --- The crossing sub-steps (plan.cpp) ---
// Frames without crossings before the extra sub-steps are halved.
inline constexpr int kFramesToCalm = 8;
// Frames without a new crossing before the ones that stay count as none
// (two sheets pinned through each other: sub-steps do not help).
inline constexpr int kFramesToGiveUp = 60;

// --- The self contacts' cone walk (plan.cpp) ---
// Searches a walk that gave up rests before the next: a pile lies still for
// seconds, and a walk that gives up costs half the lookups it would save.
inline constexpr int kConeRest = 16;
// Each give-up in a row doubles the rest, this many times at most (16 to
// 128 searches).
inline constexpr int kConeRestDoublings = 3;

}  // namespace drape::sim::tuning
