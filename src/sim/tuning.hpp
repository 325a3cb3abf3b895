#pragma once
// The step's tuned constants, each with the reason for its value. The runs
// that chose them are bench commands in docs/tuning.md, to repeat when the
// code changes. (Limits that follow from the math, not from a measurement,
// stay beside the code they bound.)

#include <cstddef>
#include <cstdint>

namespace drape::sim::tuning {

// --- How often the cloth's crossings of itself are searched (plan.cpp) ---
// Every few frames: a search of a piled cloth costs a good part of a frame.
inline constexpr int kCrossingSearchEvery = 4;
// While crossings are known: crumpling cloth makes new ones every frame.
inline constexpr int kCrossingSearchEveryWhileCrossed = 2;
// While calm: a cloth that stopped crossing and barely moves seldom starts again.
inline constexpr int kCrossingSearchEveryWhileCalm = 8;
// Calm after this many searches in a row that found no crossing.
inline constexpr int kCleanSearchesToCalm = 2;
// Calm while vertices move under this many self-contact thicknesses a
// sub-step against their neighbours: a lying cloth does, a folding one not.
inline constexpr float kCalmTravel = 0.05f;

// --- How many sub-steps one self-contact search serves (plan.cpp) ---
// A search sweeps this much motion (s), its sub-steps' carried on: the
// motion of a sub-step at the scene's former 2 a frame, which kept folds
// and drapes uncrossed; a quarter of it while crossings are known.
inline constexpr double kSelfSearchWindow = 1.0 / 120.0;
inline constexpr double kSelfSearchWindowWhileCrossed = 1.0 / 480.0;
// One search of a still analytic shape's contacts (plane, sphere, box,
// capsule) serves this much motion (s): the sub-step the contacts' margin
// (the travel and half the thickness) was made for at the former 2 a frame.
inline constexpr double kColliderSearchWindow = 1.0 / 120.0;
// The whole frame where the cloth is calm and still at half kCalmTravel: a
// lying cloth, not a landing one.
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
// Each give-up in a row doubles the rest, this many times at most.
inline constexpr int kConeRestDoublings = 3;

// --- Self contacts and untangling (self/) ---
// The most a self contact keeps apart, in mean rest edges (colliders keep
// the full thickness): a thicker layer reaches its own sheet two rings away
// as soon as the cloth bends, and those contacts fight its constraints.
inline constexpr float kSelfThicknessPerEdge = 0.35f;
// Untangling moves a crossing edge this many self-contact thicknesses a
// pass: fewer leave folds crossed, more throw a landing cloth's layers.
inline constexpr float kUntangleStep = 4.0f;
// Crossings a vertex takes in before their steps are shared out, so that a
// cloth through itself wholesale is not thrown through the layers beside.
inline constexpr std::uint32_t kUntangleCrowd = 8;
// Edge–triangle tests per triangle a cone walk may leave before it gives
// up: past it, the walk costs more than the lookups it saves.
inline constexpr std::size_t kConeTestsPerTriangle = 64;
// Hash entries per triangle (self contacts) or per edge (crossings) a
// search may compare on average before the mesh counts as too dense (a
// fan's hub): a piled cloth compares tens.
inline constexpr std::size_t kVisitsPerTriangle = 512;
inline constexpr std::size_t kVisitsPerEdge = 512;

// --- Fold limits (solve/fold_limits.hpp) ---
// A hinge's bound is never below 120°: a sliver would hold its crease at 90°.
inline constexpr float kFoldLimitFloor = 2.0943951f;
// Hinges within 30° of their bound get the constraint: more than a
// sub-step's iterations fold a hinge.
inline constexpr float kFoldLimitWindow = 0.5235988f;

// --- The solver's projections (solve/) ---
// A bending projection moves no vertex further than this share of the
// hinge's rest length: full projection of distorted stencils diverges.
inline constexpr float kMaxBendMove = 0.25f;
// Plain iterations before Chebyshev's schedule starts: the first iterates
// of a sub-step move most and are the least like a linear iteration's.
inline constexpr int kChebyshevStart = 2;
// The explicit springs keep their sub-step within this share of the
// estimated stability limit.
inline constexpr double kStableShare = 0.8;

// --- XPBD's Newton step (solve/newton_step.hpp, plan.cpp) ---
// The step follows the sweeps where bending is stiff for the sub-step: its
// stiffest hinge's D h² Σ w |∇θ|² above this. Below it the sweeps and the
// coarse levels reach within ~7 % of the Newton answer; above it they stall.
inline constexpr double kStiffBending = 10.0;
// Its conjugate gradients stop once the residual has fallen this far.
inline constexpr double kNewtonTolerance = 1e-3;
// ...or once a frame's iterations × constraints (edges and hinges) reach
// this: all of newton_cg's 100 for cloths up to 10,000 constraints (the
// 81 × 17 strip has 8,300: 23–67 ms a frame), fewer on a larger one. Where
// that leaves fewer than kNewtonLeastIterations the step is left out: its
// own cost (assembly, preconditioning) would outweigh what so few do, and
// the frame would take seconds (a 123,000-triangle mesh: 2.5 s with 100,
// 0.30 s with 2, 31 ms without).
inline constexpr double kNewtonWorkPerFrame = 8.0e6;
inline constexpr int kNewtonLeastIterations = 10;

// --- The hand (world.hpp) ---
// A soft grab pulls the vertices within this many mean edges of the
// grabbed one, each by kGrabPull of the way weighted by (1 − d/R)², at most
// kGrabStep edges an iteration: the cloth follows a drag and gives where
// it is taut instead of being drawn into a needle.
inline constexpr float kGrabRadius = 2.5f;
inline constexpr float kGrabPull = 1.0f;
inline constexpr float kGrabStep = 0.3f;

// --- Colliders' features (collision/) ---
// A span of the cloth stretched beyond this many times its longest rest
// edge is rubber, not cloth: what lies between its vertices is left to them.
inline constexpr float kFeatureStretch = 3.0f;

// --- Ropes (cloth.hpp, solve/ropes.hpp) ---
// A rope is a strip of the cloth's material this wide: its mass per metre
// is density × width, its axial stiffness Y × width and its bending
// stiffness D × width, so the sliders mean for a rope what they mean for
// the cloth. 2 cm: a clothes line or a climbing rope, drawn as such.
inline constexpr float kRopeWidth = 0.02f;
// A rigid rope's segment keeps this least compliance, as a share of its
// ends' inverse masses (α̃ ≥ share × (w_a + w_b)): a tenth of its error is
// left a solve, and the sub-steps take it out. Rigid, a rope straight
// between two pins has one constraint too many; pulled apart, an exact
// solve zigzags it (to twice its length at 0.001, 1 % over at 0.1).
inline constexpr double kRopeLeastCompliance = 0.1;

// --- Seams (solve/seams.hpp) ---
// One projection moves a seam's ends at most this share of the mean rest
// edge towards each other (Blender's sewing springs cap their force the
// same way): panels far apart are drawn in over several iterations, the
// cloth's edges following, instead of snapping their seam vertices across.
inline constexpr float kSeamMaxMove = 0.25f;
// A seam whose ends are further apart than this is open, and drawn: closer,
// it is as sewn as a stitch a couple of millimetres long.
inline constexpr float kSeamOpenGap = 0.002f;  // m

}  // namespace drape::sim::tuning
