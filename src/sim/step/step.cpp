#include "sim/step/step.hpp"

#include <algorithm>

#include "sim/models/aerodynamics.hpp"
#include "sim/models/mass_spring.hpp"
#include "sim/models/rigid_body.hpp"
#include "sim/solve/coefficients.hpp"
#include "sim/solve/damping.hpp"
#include "sim/step/contacts.hpp"
#include "sim/step/context.hpp"
#include "sim/step/plan.hpp"
#include "sim/step/stages.hpp"
#include "sim/stopwatch.hpp"
#include "sim/tearing.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

// Vertices per chunk of the per-vertex loops of a sub-step.
constexpr std::size_t kVertexChunk = 4096;

// body(i) for every vertex i, in chunks on the solver's threads (each vertex
// on its own: the same on any thread count), or on this thread for a cloth
// of one chunk.
template <typename F>
void forEachVertex(World& world, F&& body) {
  const std::size_t n = world.state.x.size();
  const std::size_t chunks = (n + kVertexChunk - 1) / kVertexChunk;
  auto range = [&](std::size_t c) {
    const std::size_t end = std::min(n, (c + 1) * kVertexChunk);
    for (std::size_t i = c * kVertexChunk; i < end; ++i) body(i);
  };
  if (chunks <= 1)
    range(0);
  else
    forEachChunk(solverTeam(world), chunks, [&](std::size_t c, int) { range(c); });
}

// The frame's first part: the crossing search its plan asks for, then the
// controllers that read it; for the explicit springs, their stability limit
// estimated again where its inputs changed. The plan of the rest follows.
StepPlan planFrame(World& world, StepContext& ctx, StepTimings& timing) {
  if (world.params.solver == SolverKind::MassSpring && world.params.stable_substeps != 0)
    updateStableStep(world.cloth, world.state, world.params, world.pinsVersion,
                     world.solver.massSpring);
  const CrossingPlan crossings = planCrossingSearch(world);
  const std::size_t fresh = searchCrossings(world, ctx, crossings, timing);
  updateControls(world.solver, world.params, fresh);
  return planStep(world, crossings);
}

// Predict (paper §3.1 lines 5-7): gravity, in the frame's first sub-step the
// air and damping as the plan says, then p = x + h v.
void predict(World& world, StepContext& ctx, const StepPlan& plan, float h, bool first) {
  State& s = world.state;
  const Params& prm = world.params;
  if (plan.explicitSprings) {
    integrateSprings(world.cloth, prm, s, h, ctx.springs);
    return;
  }
  const glm::vec3 fall = h * prm.gravity;
  forEachVertex(world, [&](std::size_t i) {
    if (s.w[i] != 0.0f) s.v[i] += fall;
  });
  if (first && plan.air) applyAerodynamics(world.cloth, prm, s, prm.dt, solverTeam(world), ctx.air);
  if (first) dampVelocities(s, world.cloth, plan.damping, solverTeam(world), ctx.damping);
  forEachVertex(world, [&](std::size_t i) { s.p[i] = s.x[i] + h * s.v[i]; });
  predictBodies(world.bodies, prm.gravity, h);
}

// Pinned vertices and the hand to their targets at time t. A soft grab
// pulls in the solver's iterations; the explicit springs have none, and
// hold the grabbed vertex where the hand is.
void moveToTargets(World& world, const StepPlan& plan, double t) {
  State& s = world.state;
  for (const Pin& pin : world.pins) s.p[pin.vertex] = pin.targetAt(t);
  const bool soft = world.grab.soft && !plan.explicitSprings;
  if (world.grab.active && !soft) s.p[world.grab.vertex] = world.grab.at;
}

// Velocity update (paper §3.1 lines 12-16). The explicit springs keep the
// velocity of their integration where nothing moved a vertex off its path
// (no round trip through positions, which would lose velocity to rounding).
void updateVelocities(World& world, const StepPlan& plan, float h) {
  State& s = world.state;
  const float invH = 1.0f / h;
  if (plan.explicitSprings) {
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (s.p[i] != s.x[i] + h * s.v[i]) s.v[i] = (s.p[i] - s.x[i]) * invH;
      s.x[i] = s.p[i];
    }
    return;
  }
  forEachVertex(world, [&](std::size_t i) {
    s.v[i] = (s.p[i] - s.x[i]) * invH;
    s.x[i] = s.p[i];
  });
  updateBodies(world.bodies, world.colliders, h);
}

// After the velocity update: restitution at the contacts that acted (paper
// §3.4), and each contact made ready for the next sub-step of its span
// (untouched, its approach the velocity now); the self contacts that acted
// counted, the clock advanced.
void finishSubstep(World& world, StepContext& ctx, double t0, float h) {
  State& s = world.state;
  const float invH = 1.0f / h;
  for (Contact& c : ctx.colliders.contacts) {
    const glm::vec3 surface = c.surfaceShift * invH;
    float vn = glm::dot(s.v[c.vertex] - surface, c.n);
    const float target = -world.params.restitution * c.approachSpeed;
    if (c.touched && c.approachSpeed < 0.0f && vn < target) {
      s.v[c.vertex] += (target - vn) * c.n;
      vn = target;
    }
    c.touched = false;
    c.approachSpeed = vn;
  }
  for (const SelfContact& c : ctx.self.contacts)
    world.stats.selfContactsActive += c.touched ? 1 : 0;
  world.time = t0 + double(h);
}

void substep(World& world, StepContext& ctx, const StepPlan& plan, const Coefficients& c, int sub,
             StepTimings& timing) {
  const float h = plan.h;
  world.grab.at =
      glm::mix(world.grab.from, world.grab.target, float(sub + 1) / float(plan.substeps));
  const double t0 = world.time;
  auto t = Clock::now();
  predict(world, ctx, plan, h, sub == 0);
  moveToTargets(world, plan, t0 + double(h));
  timing.predict += msSince(t);
  findContacts(world, ctx, plan, t0, h, sub, timing);
  // Gauss-Seidel projection in a fixed order (paper §3.2).
  t = Clock::now();
  projectConstraints(world, ctx, plan, c);
  timing.solve += msSince(t);
  t = Clock::now();
  updateVelocities(world, plan, h);
  finishSubstep(world, ctx, t0, h);
  timing.update += msSince(t);
}

}  // namespace

void step(World& world) {
  const auto frameStart = Clock::now();
  StepContext& ctx = contextOf(world);
  StepTimings timing;
  world.stats.selfContacts = 0;
  world.stats.selfContactsActive = 0;
  world.stats.selfSearches = 0;
  const StepPlan plan = planFrame(world, ctx, timing);
  world.stats.crossingFactor = plan.crossingFactor;
  world.stats.substeps = plan.substeps;
  prepare(ctx, world, plan);
  // What the sliders mean to the position-based solvers' constraints (the
  // explicit springs read them as spring constants).
  Coefficients c;
  if (!plan.explicitSprings)
    c = deriveCoefficients(world.params, plan.iterations, plan.stretchSweeps, plan.chebyshev,
                           plan.h, ctx.packedStretch, ctx.packedBend, world.cloth, ctx.kStretchEach,
                           ctx.kBendEach);
  for (int sub = 0; sub < plan.substeps; ++sub) substep(world, ctx, plan, c, sub, timing);
  // Tearing after the frame's solve (paper §5.4); what derives from the
  // topology is made again by the next step.
  const auto tearStart = Clock::now();
  tearOverstretched(world);
  timing.tear = msSince(tearStart);
  world.grab.from = world.grab.at = world.grab.target;
  ++world.frame;
  timing.total = msSince(frameStart);
  world.stats.timings = timing;
  world.stats.selfThickness = plan.selfThickness;
  world.stats.tethers = ctx.tethers.size();
}

std::string explainNextStep(const World& world) {
  World copy = world;
  StepTimings timing;
  const StepPlan plan = planFrame(copy, contextOf(copy), timing);
  return explainStep(copy, plan);
}

}  // namespace drape::sim
