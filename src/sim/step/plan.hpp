#pragma once
// What a step does, decided in one place. planStep() is a pure function of
// the parameters and the world (its cloth, state, hand and the solver's
// named state): the solver, the sub-steps and why, the accelerators, the
// searches, and the stages of each iteration in order (as Box2D v3's
// b2SolverStage). Every solver is a plan of the same pipeline: PBD and
// XPBD, the explicit springs (forces in the prediction, the
// contacts' stages alone in one pass on State::p), and the reference
// kernels (one thread, each list in mesh order).
//
// The controllers that let one frame change the next (the crossing
// sub-steps, how often crossings are searched, the cone walk's rest, a mesh
// too dense to search) are transitions of World::solver, defined here too.
// explainStep() prints a plan and why each part is in it
// (`drape --explain-step`).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/params.hpp"
#include "sim/world.hpp"

namespace drape::sim {

// The stages of one iteration, in order: pressure first and contacts last,
// so that the cloth's own constraints and then the contacts have the last
// word (Müller et al. 2007 §4.4). The colliders' features come before the
// self contacts and those before the vertices' collider contacts: a layer
// pressed against the floor is kept out of it, and a fold the features push
// is kept apart.
enum class Stage : std::uint8_t {
  Pressure,          // the balloon's overpressure or its tetrahedra
  Hand,              // the soft grab's pull
  CoarseLevels,      // stretch limits on coarser meshes (hierarchy.hpp)
  Stretch,           // per edge
  Bend,              // dihedral, per inner edge
  IsometricBend,     // isometric (Bergou et al. 2006)
  Ropes,             // each rope's segments and turns in one solve (solve/ropes.hpp)
  Seams,             // sewing: each seam's ends pulled together, then held (solve/seams.hpp)
  Chebyshev,         // the iterate accelerated (chebyshev.hpp), before the limits' word
  Tethers,           // long-range attachments to the pins
  Attachments,       // cloth vertices tied to rigid bodies
  ColliderFeatures,  // colliders' edges and corners against the cloth's edges and triangles
  FoldLimits,        // creases no sharper than the thickness allows
  SelfContacts,      // vertex–triangle
  Crossings,         // untangling
  ColliderContacts,  // the cloth's vertices against the colliders
};
inline constexpr std::size_t kStageCount = std::size_t(Stage::ColliderContacts) + 1;
const char* stageName(Stage stage);

// The search of the cloth's crossings at the start of a frame.
enum class CrossingSearchKind : std::uint8_t {
  Off,       // no self collision: none known
  TooDense,  // a search gave up on this mesh: none known until it changes
  Search,    // the whole cloth searched
  Recheck,   // the crossings known checked again
};
struct CrossingPlan {
  CrossingSearchKind kind = CrossingSearchKind::Off;
  bool culled = false;  // with the normal-cone tree (built at the second search of a topology)
  bool calm = false;    // searches found none lately and the cloth barely changes shape
  int every = 0;        // frames between searches at the moment
};

struct StepPlan {
  SolverKind solver = SolverKind::Pbd;
  // Sub-steps: the scene's, at least stableSubsteps for the explicit
  // springs (0 for the others), times crossingFactor while crossings are
  // known; each of h seconds.
  int substeps = 1, ownSubsteps = 1, stableSubsteps = 0, crossingFactor = 1;
  float h = 0.0f;
  int iterations = 1;             // passes over the stages per sub-step
  int stretchSweeps = 1;          // of the stretch constraints per iteration
  int levels = 0;                 // coarse levels (hierarchy.hpp); 0 off
  float chebyshev = 0.0f;         // ρ of the acceleration; 0 off
  bool newton = false;            // XPBD's Newton step after the iterations
  double bendingStiffness = 0.0;  // the stiffest hinge's D h² Σ w |∇θ|² (plan.cpp)
  int newtonCg = 0;
  bool newtonTooLarge = false;  // stiff bending, but beyond the step's work budget
  bool refreshNewtonFactor = false;
  bool tethers = false;
  // Explicit springs: forces predict, the contacts' stages alone project
  // once on State::p, and only vertices moved off their path take the
  // velocity of their move; no damping, air or rigid bodies.
  bool explicitSprings = false;
  // Both once a frame, in its first sub-step: the share of each piece's
  // non-rigid motion taken out (`damping` is a share per second, so the
  // same for any number of sub-steps), and the air over the frame (its
  // forces change over a tenth of a second, not over a sub-step).
  float damping = 0.0f;
  bool air = false;
  bool bodies = false;
  // Self collision this frame (on, and the mesh not known to be too dense):
  // the distance its contacts keep, and the sub-steps one search serves.
  bool selfCollision = false;
  float selfThickness = 0.0f;
  int selfSpan = 1;
  // Sub-steps one search of the still shapes' contacts serves.
  int colliderSpan = 1;
  CrossingPlan crossings;
  // The stages of each iteration, in order (a stage with no work in a
  // sub-step is skipped).
  std::array<Stage, kStageCount> stages{};
  std::size_t stageCount = 0;
  bool has(Stage stage) const;
};

// The frame's search of crossings, from the parameters and what earlier
// searches learnt.
CrossingPlan planCrossingSearch(const World& world);
// The plan of the frame that starts now, after its crossing search
// (`crossings`) and the controllers' update (updateControls).
StepPlan planStep(const World& world, const CrossingPlan& crossings);
// The plan and why each part is in it, one part a line.
std::string explainStep(const World& world, const StepPlan& plan);

// The controllers' transitions, in the order a step applies them.
// After the frame's crossing search (`fresh`: crossings it found that were
// not known before): the crossing sub-steps.
void updateControls(SolverState& state, const Params& params, std::size_t fresh);
// Before a self-contact search: whether the cone walk runs (the tree is
// ready, and the walk is not resting after giving up); counts the rest down.
bool planConeWalk(SelfSearchState& state, bool treeReady);
// After a walk: a walk that gave up rests for a while, longer each time.
void afterConeWalk(SelfSearchState& state, bool gaveUp);

}  // namespace drape::sim
