#include "sim/step/plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/material.hpp"
#include "sim/models/mass_spring.hpp"
#include "sim/self/self_collision.hpp"
#include "sim/solve/chebyshev.hpp"
#include "sim/solve/newton_step.hpp"
#include "sim/tuning.hpp"

namespace drape::sim {
namespace {

// Whether the cloth has stopped making crossings and barely changes shape:
// the last searches found none, and its vertices moved on average less than
// `travel` self-contact thicknesses in the last sub-step searched.
bool isCalm(const SolverState& state, float thickness, float travel) {
  return state.crossings.cleanSearches >= tuning::kCleanSearchesToCalm &&
         state.self.travelMean < travel * thickness;
}

// The self contacts' thickness for the world's cloth and parameters.
float selfThicknessOf(const World& world) {
  return selfThickness(world.params.thickness, meanRestEdge(world.cloth));
}

bool tearing(const World& world) {
  return world.params.tear > 0.0f || (world.grab.active && world.grab.tear > 0.0f);
}

// The sub-steps of h within a search's window of `seconds` (at least 1).
int windowSpan(double seconds, const StepPlan& plan) {
  return std::clamp(int(std::floor(seconds / double(plan.h) + 1e-6)), 1, plan.substeps);
}

// Where the cloth moves off its sub-step's prediction (the springs' own
// integration, the untangling's moves, the hand): a search serves one
// sub-step only.
bool offPrediction(const World& world, const StepPlan& plan) {
  return plan.explicitSprings || plan.crossingFactor != 1 || world.grab.active;
}

// The sub-steps one self-contact search serves: all of the frame's where
// the cloth is calm and still (no crossings lately, its vertices barely
// moving against their neighbours, its mean velocity barely moving it, no
// hand dragging it) and the frame takes its scene's sub-steps; else those
// within the search's window (a shorter one while crossings are known).
int selfSpan(const World& world, const StepPlan& plan) {
  if (!plan.selfCollision || plan.explicitSprings) return 1;
  const int window = windowSpan(
      plan.crossingFactor != 1 ? tuning::kSelfSearchWindowWhileCrossed : tuning::kSelfSearchWindow,
      plan);
  if (plan.crossingFactor != 1 || world.grab.active ||
      !isCalm(world.solver, plan.selfThickness, tuning::kSpanTravel))
    return window;
  // A falling cloth barely changes shape until it lands, and then within a
  // frame: its mean velocity over a sub-step, against the same share of
  // the thickness.
  const std::vector<glm::vec3>& v = world.state.v;
  glm::dvec3 sum(0.0);
  for (const glm::vec3& vi : v) sum += glm::dvec3(vi);
  const float meanMove = v.empty() ? 0.0f : float(glm::length(sum / double(v.size()))) * plan.h;
  return meanMove < tuning::kSpanTravel * plan.selfThickness ? plan.substeps : window;
}

// The stages on in this plan, in Stage order.
void chooseStages(const World& world, StepPlan& plan) {
  const Params& p = world.params;
  const bool xpbd = plan.solver == SolverKind::Xpbd;
  const bool isometric = p.bending == BendingModel::Isometric;
  // Off where infinitely soft: no stiffness (XPBD), PBD's bending k 0.
  // (Isometric bending keeps its own compliance scale, params.hpp.)
  const float h2 = plan.h * plan.h;
  const bool stretchOn = !xpbd || p.k_stretch > 0.0f;
  const bool bendOn = xpbd && isometric
                          ? !std::isinf(complianceFromStiffness(p.k_bend, kBendComplianceUnit) / h2)
                          : p.k_bend > 0.0f;
  const bool colliders = !world.colliders.empty();
  bool on[kStageCount] = {};
  auto set = [&](Stage s, bool value) { on[std::size_t(s)] = value; };
  if (!plan.explicitSprings) {
    set(Stage::Pressure, world.cloth.pressureActive);
    set(Stage::Hand, world.grab.soft);
    set(Stage::CoarseLevels, plan.levels > 0);
    set(Stage::Stretch, stretchOn);
    set(Stage::Bend, bendOn && !isometric);
    set(Stage::IsometricBend, bendOn && isometric);
    set(Stage::Chebyshev, plan.chebyshev > 0.0f);
    set(Stage::Tethers, plan.tethers);
    set(Stage::Attachments, !world.attachments.empty());
  }
  // The explicit springs too: a rope has no springs, a seam is no spring.
  set(Stage::Ropes, !world.cloth.ropes.empty());
  set(Stage::Seams, !world.cloth.seams.empty());
  set(Stage::ColliderFeatures, colliders);
  set(Stage::FoldLimits, plan.selfCollision);
  set(Stage::SelfContacts, plan.selfCollision);
  set(Stage::Crossings, p.self_collision != 0);
  set(Stage::ColliderContacts, colliders);
  plan.stageCount = 0;
  for (std::size_t k = 0; k < kStageCount; ++k)
    if (on[k]) plan.stages[plan.stageCount++] = Stage(k);
  // XPBD's Newton step where bending is stiff for the sub-step: the sweeps
  // carry a bend a hinge or two an iteration, and a stiff fabric on a fine
  // mesh needs it carried across the mesh (its work grows with the mesh).
  plan.bendingStiffness = xpbd && !isometric && bendOn
                              ? bendingStiffness(p.k_bend) * double(h2) * world.cloth.bendingRate()
                              : 0.0;
  plan.newton = xpbd && !isometric && p.newton_cg > 0 && stretchOn &&
                plan.bendingStiffness > tuning::kStiffBending;
}

}  // namespace

const char* stageName(Stage stage) {
  static const char* const names[kStageCount] = {
      "pressure",    "hand",           "coarse levels", "stretch",
      "bend",        "isometric bend", "ropes",         "seams",
      "chebyshev",   "tethers",        "attachments",   "collider features",
      "fold limits", "self contacts",  "crossings",     "collider contacts"};
  return names[std::size_t(stage)];
}

bool StepPlan::has(Stage stage) const {
  return std::find(stages.begin(), stages.begin() + std::ptrdiff_t(stageCount), stage) !=
         stages.begin() + std::ptrdiff_t(stageCount);
}

CrossingPlan planCrossingSearch(const World& world) {
  CrossingPlan plan;
  const CrossingState& known = world.solver.crossings;
  const std::uint64_t topology = world.cloth.topologyVersion;
  if (world.params.self_collision == 0) return plan;
  // Where either search gave up, self collision is off for the mesh: the
  // crossings' untangling, without the contacts that keep new ones from
  // forming, would only chase them (and spend sub-steps on it).
  if (known.tooDenseTopology == topology || world.solver.self.tooDenseTopology == topology) {
    plan.kind = CrossingSearchKind::TooDense;
    return plan;
  }
  // The whole cloth is searched every few frames: more often while
  // crossings are known, less while the cloth is calm. In the frames
  // between, the crossings found are checked again.
  plan.calm = isCalm(world.solver, selfThicknessOf(world), tuning::kCalmTravel);
  plan.every = !known.crossings.empty() ? tuning::kCrossingSearchEveryWhileCrossed
               : plan.calm              ? tuning::kCrossingSearchEveryWhileCalm
                                        : tuning::kCrossingSearchEvery;
  const bool search =
      world.frame % std::uint64_t(plan.every) == 0 || known.searchedTopology != topology;
  plan.kind = search ? CrossingSearchKind::Search : CrossingSearchKind::Recheck;
  // The tree costs a few searches to build: not for a topology that
  // changes from one search to the next (a cloth tearing).
  plan.culled = search && (known.treeBuilt == topology || known.treeAsked == topology);
  return plan;
}

StepPlan planStep(const World& world, const CrossingPlan& crossings) {
  const Params& p = world.params;
  const Cloth& cloth = world.cloth;
  StepPlan plan;
  plan.solver = p.solver;
  plan.crossings = crossings;
  plan.explicitSprings = p.solver == SolverKind::MassSpring;
  plan.ownSubsteps = std::max(p.substeps, 1);
  int substeps = plan.ownSubsteps;
  if (plan.explicitSprings && p.stable_substeps != 0) {
    plan.stableSubsteps = stableSubsteps(p, world.solver.massSpring);
    substeps = std::max(substeps, plan.stableSubsteps);
  }
  plan.crossingFactor = world.solver.crossingFactor;
  plan.substeps = std::max(substeps, std::min(substeps * plan.crossingFactor, kMostStableSubsteps));
  plan.h = p.dt / float(plan.substeps);
  plan.iterations = plan.explicitSprings ? 1 : std::max(p.iterations, 1);
  // Coarse levels for the position-based solvers, but not where stretch is
  // wanted: a balloon inflates by the stretch its pressure and edges settle
  // at, and tearing by strain needs edges that stretch where it is pulled
  // (the levels' limits hold every edge at its rest length). Likewise one
  // sweep of the stretch constraints per iteration there: more carry a
  // balloon's pressure or a tearing pull across the cloth instead of
  // letting the edges there give.
  const bool wantsStretch = cloth.pressureActive || tearing(world);
  const bool levelsApply = p.solver == SolverKind::Pbd || p.solver == SolverKind::Xpbd;
  plan.levels = levelsApply && !wantsStretch ? p.levels : 0;
  plan.stretchSweeps = wantsStretch ? 1 : std::max(p.stretch_sweeps, 1);
  // Chebyshev from its third iteration, and not while a hand or a rigid
  // body shares the corrections (grab, attachments): the extrapolated cloth
  // would take momentum the hand or the body never gave.
  const bool accelerate = p.chebyshev > 0.0f && plan.iterations > tuning::kChebyshevStart &&
                          !world.grab.active && world.attachments.empty();
  plan.chebyshev = !plan.explicitSprings && accelerate ? p.chebyshev : 0.0f;
  plan.tethers = !plan.explicitSprings && p.tethers != 0;
  plan.bodies = !plan.explicitSprings;
  plan.air = !plan.explicitSprings && (p.drag > 0.0f || p.lift > 0.0f);
  plan.damping = plan.explicitSprings
                     ? 0.0f
                     : float(1.0 - std::pow(1.0 - double(std::min(p.damping, 1.0f)), double(p.dt)));
  plan.selfCollision =
      p.self_collision != 0 && world.solver.self.tooDenseTopology != cloth.topologyVersion;
  plan.selfThickness = p.self_collision != 0 ? selfThicknessOf(world) : 0.0f;
  chooseStages(world, plan);
  // CG iterations up to newton_cg, and within the frame's work budget.
  if (plan.newton) {
    const double constraints =
        double(std::max<std::size_t>(1, cloth.stretch.size() + cloth.bend.size()));
    const double affordable = tuning::kNewtonWorkPerFrame / (double(plan.substeps) * constraints);
    plan.newtonCg = int(std::min(double(p.newton_cg), affordable));
    if (plan.newtonCg < std::min(p.newton_cg, tuning::kNewtonLeastIterations)) {
      plan.newton = false;
      plan.newtonTooLarge = true;
      plan.newtonCg = 0;
    }
  } else {
    plan.newtonCg = 0;
  }
  // The coarse factor only preconditions: made again every few frames.
  const NewtonPreconditioner& factor = world.solver.newton;
  plan.refreshNewtonFactor =
      plan.newton && (factor.frame == UINT64_MAX || world.frame < factor.frame ||
                      world.frame - factor.frame >= kNewtonCoarseFrames);
  plan.selfSpan = selfSpan(world, plan);
  // The still shapes' contacts once a window, but every sub-step while the
  // hand drags the cloth or crossings are being undone (both move vertices
  // further than their sub-step's prediction says).
  plan.colliderSpan =
      offPrediction(world, plan) ? 1 : windowSpan(tuning::kColliderSearchWindow, plan);
  return plan;
}

void updateControls(SolverState& state, const Params& params, std::size_t fresh) {
  // Crumpling cloth moves further in a sub-step than its contacts hold,
  // and makes crossings faster than untangling undoes them. Each frame that
  // starts with crossings doubles the sub-steps, up to `crossing_substeps`
  // times `substeps`; frames without crossings halve them again; crossings
  // that stay while no new ones form count as none (two sheets pinned
  // through each other: sub-steps do not help).
  const int most = std::max(params.crossing_substeps, 1);
  state.framesWithoutFresh = fresh > 0 ? 0 : state.framesWithoutFresh + 1;
  if (!state.crossings.crossings.empty() && state.framesWithoutFresh < tuning::kFramesToGiveUp) {
    state.crossingFactor = std::min(state.crossingFactor * 2, most);
    state.framesUncrossed = 0;
  } else if (++state.framesUncrossed >= tuning::kFramesToCalm) {
    state.crossingFactor = std::max(state.crossingFactor / 2, 1);
    state.framesUncrossed = 0;
  }
  state.crossingFactor = std::min(state.crossingFactor, most);
}

bool planConeWalk(SelfSearchState& state, bool treeReady) {
  if (!treeReady) return false;
  if (state.coneRest > 0) {
    --state.coneRest;
    return false;
  }
  return true;
}

void afterConeWalk(SelfSearchState& state, bool gaveUp) {
  if (!gaveUp) {
    state.coneGiveUps = 0;
    return;
  }
  // A pile lies still for seconds: each time the walk gives up again after
  // its rest, the rest doubles.
  state.coneRest = tuning::kConeRest << std::min(state.coneGiveUps, tuning::kConeRestDoublings);
  ++state.coneGiveUps;
}

std::string explainStep(const World& world, const StepPlan& plan) {
  const Params& p = world.params;
  std::string out;
  char line[256];
  auto say = [&](const char* format, auto... args) {
    std::snprintf(line, sizeof line, format, args...);
    out += line;
    out += '\n';
  };
  say("solver      %s", choiceName(p, "solver"));
  say("substeps    %d of %.6g s: substeps %d%s%s", plan.substeps, double(plan.h), plan.ownSubsteps,
      plan.stableSubsteps > plan.ownSubsteps ? ", raised to the springs' stability limit" : "",
      plan.crossingFactor > 1 ? ", times the crossing factor while crossings are known" : "");
  if (plan.crossingFactor > 1) say("            crossing factor %d", plan.crossingFactor);
  say("iterations  %d%s", plan.iterations,
      plan.explicitSprings ? " (explicit springs: one pass of the contacts)" : "");
  if (!plan.explicitSprings) {
    say("sweeps      %d of the stretch constraints per iteration%s", plan.stretchSweeps,
        plan.stretchSweeps != std::max(p.stretch_sweeps, 1) ? " (one: a balloon or tearing)" : "");
    say("levels      %d%s", plan.levels,
        plan.levels == p.levels      ? ""
        : world.cloth.pressureActive ? " (off: a balloon stretches)"
        : tearing(world)             ? " (off: tearing needs edges that stretch)"
                                     : " (off for this solver)");
    say("chebyshev   %g%s", double(plan.chebyshev),
        plan.chebyshev == p.chebyshev ? ""
        : p.chebyshev == 0.0f         ? ""
        : world.grab.active           ? " (off while a hand pulls)"
        : !world.attachments.empty()  ? " (off: rigid bodies share the corrections)"
                                      : " (off: too few iterations)");
    if (plan.newton)
      say("newton      up to %d CG iterations after the sweeps: bending stiff for the sub-step "
          "(%.3g)%s%s",
          plan.newtonCg, plan.bendingStiffness,
          plan.newtonCg < p.newton_cg ? "; fewer than newton_cg, the frame's work budget for "
                                        "a mesh this large"
                                      : "",
          plan.refreshNewtonFactor ? "; coarse factor made again" : "");
    else if (plan.newtonTooLarge)
      say("newton      off: bending is stiff for the sub-step (%.3g), but the mesh is too large "
          "for the step's work budget (tuning.hpp); the sweeps carry bending alone",
          plan.bendingStiffness);
    else if (plan.solver == SolverKind::Xpbd && plan.bendingStiffness > 0.0)
      say("newton      off: the sweeps carry bending this soft (%.3g)", plan.bendingStiffness);
    if (plan.tethers) say("tethers     on");
  }
  if (!world.cloth.seams.empty())
    say("seams       %zu, closing over %g s, then held", world.cloth.seams.size(),
        double(p.seam_close_time));
  if (p.self_collision != 0) {
    static const char* const kinds[] = {"off", "off: too dense", "the whole cloth",
                                        "the known ones checked again"};
    say("crossings   %s%s%s", kinds[int(plan.crossings.kind)],
        plan.crossings.culled ? " (normal cones)" : "",
        plan.crossings.calm ? ", the cloth calm" : "");
    say("self        %s, thickness %.3g m, one search for %d sub-step%s",
        plan.selfCollision ? "on" : "off: the mesh is too dense", double(plan.selfThickness),
        plan.selfSpan, plan.selfSpan == 1 ? "" : "s (calm and still)");
  }
  if (!world.colliders.empty() && plan.colliderSpan > 1)
    say("colliders   the still shapes' contacts found once for %d sub-steps", plan.colliderSpan);
  else if (!world.colliders.empty())
    say("colliders   contacts found every sub-step (%s)",
        offPrediction(world, plan)
            ? "the springs, crossings or the hand move the cloth off its prediction"
            : "a sub-step is as long as the search window or longer");
  if (!plan.explicitSprings) {
    say("damping     %.3g of the non-rigid motion, once a frame", double(plan.damping));
    if (plan.air)
      say("air         drag %g, lift %g against the air at %g,%g,%g m/s, once a frame",
          double(p.drag), double(p.lift), double(p.wind.x), double(p.wind.y), double(p.wind.z));
    else
      say("air         off (drag 0, lift 0)");
  }
  std::string stages;
  for (std::size_t k = 0; k < plan.stageCount; ++k) {
    if (k > 0) stages += ", ";
    stages += stageName(plan.stages[k]);
  }
  say("stages      %s", stages.c_str());
  return out;
}

}  // namespace drape::sim
