#include "sim/step/contacts.hpp"
#include "sim/tuning.hpp"

#include <algorithm>
#include <utility>

#include "sim/collision/collider_contacts.hpp"
#include "sim/self/self_cones.hpp"
#include "sim/self/untangle.hpp"
#include "sim/solve/fold_limits.hpp"
#include "sim/stopwatch.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

// With a span of more than one sub-step, the predicted positions carried
// on to its end, x + span (p − x), in place of State::p while the self
// contacts are looked for (sweepAhead, then swapAhead to put p back, and
// to swap them in and out again).
void sweepAhead(State& s, std::vector<glm::vec3>& ahead, int span) {
  if (span <= 1) return;
  ahead.resize(s.p.size());
  for (std::size_t i = 0; i < s.p.size(); ++i) ahead[i] = s.x[i] + float(span) * (s.p[i] - s.x[i]);
  std::swap(s.p, ahead);
}
void swapAhead(State& s, std::vector<glm::vec3>& ahead, int span) {
  if (span > 1) std::swap(s.p, ahead);
}

// The self contacts' search before the hash: the vertices' travel and
// boxes, and the cone walk where the crossing search's tree is ready.
bool prepareSelf(World& world, StepContext& ctx, const StepPlan& plan, ThreadTeam& team) {
  SolverState& solver = world.solver;
  const std::uint64_t topology = world.cloth.topologyVersion;
  const bool tree = solver.crossings.treeBuilt == topology;
  if (tree) prepareConeTree(world.cloth, ctx.tangles);
  const SelfSearch in{world.cloth,   world.state,           world.params.thickness,
                      plan.substeps, plan.ownSubsteps,      ctx.tangles,
                      tree,          &solver.crossings.rest};
  if (!prepareSelfContacts(ctx.self, in, solver.self, team)) return false;
  if (planConeWalk(solver.self, tree && ctx.tangles.cones.usable))
    afterConeWalk(solver.self, !exposeUnsmoothParts(ctx.self, in, team));
  return true;
}

}  // namespace

std::size_t searchCrossings(World& world, StepContext& ctx, const CrossingPlan& plan,
                            StepTimings& timing) {
  CrossingState& known = world.solver.crossings;
  Tangles& tangles = ctx.tangles;
  const Cloth& cloth = world.cloth;
  const std::uint64_t topology = cloth.topologyVersion;
  std::size_t fresh = 0;
  if (plan.kind == CrossingSearchKind::Off) {
    known.crossings.clear();
    tangles.region.clear();
    known.searchedTopology = UINT64_MAX;
    known.cleanSearches = 0;
    return 0;
  }
  const auto t = Clock::now();
  if (plan.kind == CrossingSearchKind::TooDense) {
    known.crossings.clear();  // not again until the mesh changes
  } else if (plan.kind == CrossingSearchKind::Search) {
    std::vector<Crossing>& before = ctx.knownCrossings;
    before.swap(known.crossings);
    if (known.searchedTopology != topology) {
      before.clear();
      known.cleanSearches = 0;
    }
    known.treeAsked = topology;
    if (plan.culled) known.treeBuilt = topology;
    ThreadTeam& team = solverTeam(world);
    const CrossingSearch how = plan.culled ? CrossingSearch::Culled : CrossingSearch::Every;
    prepareRestCrossings(cloth, &team, tangles, known.rest);
    if (!findCrossings(cloth, world.state.x, &team, tangles, how)) {
      tangles.crossings.clear();
      known.tooDenseTopology = topology;
    }
    dropRestCrossings(cloth, known.rest, tangles.crossings);
    world.stats.restCrossings = known.rest.crossings;
    world.stats.restCrossedPairs = known.rest.pairs.size();
    fresh = countFresh(before, tangles.crossings);
    known.crossings.swap(tangles.crossings);
    known.cleanSearches = known.crossings.empty() ? known.cleanSearches + 1 : 0;
    known.searchedTopology = topology;
  } else {
    keepStillCrossing(world.state.x, known.crossings);
  }
  findRegions(cloth, known.crossings, tangles);
  shareCrossings(cloth.vertexCount(), known.crossings, tangles.crossingsAt);
  timing.selfCollision += msSince(t);
  return fresh;
}

void findContacts(World& world, StepContext& ctx, const StepPlan& plan, double t0, float h, int sub,
                  StepTimings& timing) {
  const bool search = sub % plan.selfSpan == 0;
  State& s = world.state;
  SolverState& solver = world.solver;
  ThreadTeam& team = solverTeam(world);
  markCrossingVertices(solver.crossings.crossings, s.x.size(), ctx.crossingVertices);
  // Self-collision constraints (paper §4.3) and collision constraints (paper
  // §3.4), once per sub-step (the self contacts once per span). The
  // self-collision hash is built on one thread while the others choose the
  // fold limits and then, with it, find the collider contacts: the hash's
  // time counts in selfCollision, the rest of that job (the fold limits'
  // choice too) in collisions.
  auto t = Clock::now();
  if (search) {
    if (plan.selfCollision) {
      sweepAhead(s, ctx.selfAhead, plan.selfSpan);
      ctx.selfSearched = prepareSelf(world, ctx, plan, team);
      swapAhead(s, ctx.selfAhead, plan.selfSpan);
      // A sub-step's travel, as calm reads it.
      if (ctx.selfSearched) solver.self.travelMean /= float(plan.selfSpan);
    } else {
      ctx.selfSearched = false;
      ctx.self.contacts.clear();
    }
    world.stats.selfCollisionTooDense =
        plan.selfCollision ? ctx.self.tooDense : world.params.self_collision != 0;
  } else {
    for (SelfContact& c : ctx.self.contacts) c.touched = false;
  }
  const bool self = ctx.selfSearched && plan.selfCollision;
  const FoldInput fold{world.cloth, s.x, ctx.self.thickness, ctx.crossingVertices,
                       ctx.tangles.region};
  const std::size_t foldChunks =
      self ? beginFoldLimits(ctx.foldLimits, world.cloth, ctx.self.thickness) : 0;
  const std::size_t hashJobs = self && search ? 1 : 0;
  timing.selfCollision += msSince(t);

  t = Clock::now();
  // The untangling moves the vertices of a known crossing by up to
  // tuning::kUntangleStep self-contact thicknesses in each iteration (untangle.hpp),
  // beyond the travel the margin covers: their contacts reach that much
  // further from a collider with a far side (not a half-space). Without,
  // one pushed into a thin collider in a sub-step would be put out on its
  // far side.
  const float untangleReach = ctx.crossingVertices.empty()
                                  ? 0.0f
                                  : tuning::kUntangleStep * plan.selfThickness *
                                        float(std::max(world.params.iterations, 1));
  // The still analytic shapes (not a body's, not a mesh): one search a
  // span, the motion carried on to its end (never past the frame's). Which
  // they are holds for the frame.
  const int span = std::min(plan.colliderSpan, plan.substeps - sub);
  std::vector<std::uint8_t>& spanned = ctx.spannedColliders;
  if (sub == 0) spanned.clear();
  if (sub == 0 && plan.colliderSpan > 1) {
    spanned.assign(world.colliders.size(), 0);
    for (std::size_t c = 0; c < world.colliders.size(); ++c)
      spanned[c] =
          world.colliders[c].kind != ColliderKind::Mesh && world.colliders[c].motion.isStatic();
    for (const RigidBody& b : world.bodies)
      if (b.collider < spanned.size()) spanned[b.collider] = 0;
  }
  const ColliderSearch colliders{world.cloth,
                                 s,
                                 world.colliders,
                                 world.params.thickness,
                                 t0,
                                 h,
                                 ctx.crossingVertices,
                                 untangleReach,
                                 spanned,
                                 span,
                                 sub % plan.colliderSpan == 0};
  const std::size_t besides = hashJobs + foldChunks;
  const std::size_t jobs = beginColliderContacts(ctx.colliders, colliders);
  double hashMs = 0.0;
  forEachChunk(team, besides + jobs, [&](std::size_t job, int) {
    if (job >= besides) return findColliderContacts(ctx.colliders, colliders, job - besides);
    if (job >= hashJobs) return chooseFoldLimitsOf(ctx.foldLimits, fold, job - hashJobs);
    const auto start = Clock::now();
    buildSelfHash(ctx.self);
    hashMs = msSince(start);
  });
  joinColliderContacts(ctx.colliders, colliders);
  timing.collisions += std::max(0.0, msSince(t) - hashMs);

  t = Clock::now();
  if (self) {
    if (search) {
      swapAhead(s, ctx.selfAhead, plan.selfSpan);
      const SelfSearch in{world.cloth,
                          world.state,
                          world.params.thickness,
                          plan.substeps,
                          plan.ownSubsteps,
                          ctx.tangles,
                          solver.crossings.treeBuilt == world.cloth.topologyVersion,
                          &solver.crossings.rest};
      findSelfContacts(ctx.self, in, solver.self, team);
      swapAhead(s, ctx.selfAhead, plan.selfSpan);
      ++world.stats.selfSearches;
      world.stats.selfCollisionTooDense = ctx.self.tooDense;
    }
    world.stats.selfContacts += ctx.self.contacts.size();
    joinFoldLimits(ctx.foldLimits, world.cloth);
  } else {
    ctx.foldLimits.active.clear();
  }
  timing.selfCollision += msSince(t) + hashMs;
}

}  // namespace drape::sim
