#include "sim/solve/step.hpp"

#include <algorithm>

#include "sim/collision/step_contacts.hpp"
#include "sim/models/aerodynamics.hpp"
#include "sim/models/mass_spring.hpp"
#include "sim/models/rigid_body.hpp"
#include "sim/self/self_collision.hpp"
#include "sim/solve/coefficients.hpp"
#include "sim/solve/damping.hpp"
#include "sim/solve/pipeline.hpp"
#include "sim/solve/solver_scratch.hpp"
#include "sim/solve/solver_team.hpp"
#include "sim/solve/tethers.hpp"
#include "sim/stopwatch.hpp"
#include "sim/tearing.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

// Frames without crossings before the extra sub-steps are halved, and
// frames in which no new crossing forms before the ones that stay count as
// none (two sheets pinned through each other: sub-steps do not help).
constexpr int kFramesToCalm = 8, kFramesToGiveUp = 60;

// The sub-steps a frame takes while the cloth is known to pass through
// itself: crumpling cloth moves further in a sub-step than its contacts
// hold, and makes crossings faster than untangling undoes them. Each frame
// that starts with crossings doubles the sub-steps, up to
// `crossing_substeps` times `substeps`; kFramesToCalm frames without halve
// them again; crossings that stay while no new ones form for
// kFramesToGiveUp frames count as none. ARCSim's flag dropped with self
// collision keeps 1.3 crossings over its last 50 frames instead of 52
// (docs/performance.md).
int crossingSubsteps(World& world, int substeps) {
  SolverScratch& sc = *world.scratch;
  const int most = std::max(world.params.crossing_substeps, 1);
  sc.framesWithoutFresh = sc.tangles.fresh > 0 ? 0 : sc.framesWithoutFresh + 1;
  if (!sc.tangles.crossings.empty() && sc.framesWithoutFresh < kFramesToGiveUp) {
    sc.crossingFactor = std::min(sc.crossingFactor * 2, most);
    sc.framesUncrossed = 0;
  } else if (++sc.framesUncrossed >= kFramesToCalm) {
    sc.crossingFactor = std::max(sc.crossingFactor / 2, 1);
    sc.framesUncrossed = 0;
  }
  sc.crossingFactor = std::min(sc.crossingFactor, most);
  world.stats.crossingFactor = sc.crossingFactor;
  return std::max(substeps, std::min(substeps * sc.crossingFactor, kMostStableSubsteps));
}

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

}  // namespace

void step(World& world) {
  const auto frameStart = Clock::now();
  Params& prm = world.params;
  State& s = world.state;
  Cloth& cloth = world.cloth;
  SolverScratch& sc = *world.scratch;
  StepTimings timing;
  int substeps = prm.substeps > 0 ? prm.substeps : 1;
  if (prm.solver == SolverKind::MassSpring && prm.stable_substeps != 0)
    substeps = std::max(substeps, massSpringStableSubsteps(world));
  // The crossings at the frame's start (untangle.hpp) decide its sub-steps.
  world.stats.selfContacts = 0;
  world.stats.selfContactsActive = 0;
  world.stats.selfSearches = 0;
  findTangles(world, timing);
  substeps = crossingSubsteps(world, substeps);
  world.stats.substeps = substeps;
  const int iterations = prm.iterations > 0 ? prm.iterations : 1;
  const float h = prm.dt / float(substeps);
  const std::size_t n = s.x.size();
  if (prm.tethers == 0) {
    sc.tethers.clear();
    sc.tethersPins = UINT64_MAX;
  } else if (sc.tethersPins != world.pinsVersion || sc.tethersTopology != cloth.topologyVersion) {
    sc.tethers = buildTethers(cloth, world.pins);
    sc.tethersPins = world.pinsVersion;
    sc.tethersTopology = cloth.topologyVersion;
  }
  // Coarse levels for the position-based solvers, but not where stretch is
  // wanted: a balloon inflates by the stretch its pressure and edges settle
  // at, and tearing by strain needs edges that stretch where it is pulled
  // (the levels' limits hold every edge at its rest length). Likewise one
  // sweep of the stretch constraints per iteration there: more carry a
  // balloon's pressure or a tearing pull across the cloth instead of
  // letting the edges there give.
  const std::uint32_t grabbed =
      world.grab.active && !world.grab.soft ? world.grab.vertex : UINT32_MAX;
  const bool tearing = prm.tear > 0.0f || (world.grab.active && world.grab.tear > 0.0f);
  const int levels = prm.solver == SolverKind::MassSpring || prm.solver == SolverKind::Vbd ||
                             cloth.pressureActive || tearing
                         ? 0
                         : prm.levels;
  const int stretchSweeps = cloth.pressureActive || tearing ? 1 : prm.stretch_sweeps;
  if (sc.hierarchyPins != world.pinsVersion || sc.hierarchyTopology != cloth.topologyVersion ||
      sc.hierarchyGrab != grabbed || sc.hierarchyLevels != levels) {
    sc.hierarchy = buildHierarchy(cloth, s.w, levels);
    sc.hierarchyPins = world.pinsVersion;
    sc.hierarchyTopology = cloth.topologyVersion;
    sc.hierarchyGrab = grabbed;
    sc.hierarchyLevels = levels;
  }

  // Vertex Block Descent's colours and each vertex's constraints.
  if (prm.solver == SolverKind::Vbd) {
    const bool isometric = prm.bending == BendingModel::Isometric;
    if (sc.vbd.version != cloth.topologyVersion || sc.vbd.isometric != isometric ||
        sc.vbd.edgeStart.size() != n + 1)
      buildVbdTopology(cloth, isometric, sc.vbd);
  }
  // The position-based solvers' constraints and what the sliders mean to
  // them (mass-spring has springs instead).
  Coefficients coefficients;
  if (prm.solver != SolverKind::MassSpring) {
    packConstraints(world);
    coefficients =
        deriveCoefficients(prm, iterations, stretchSweeps, chebyshevRho(world, iterations), h,
                           sc.packedStretch, sc.packedBend, cloth, sc.kStretchEach, sc.kBendEach);
  }

  // Self contacts found once for the frame's sub-steps where the cloth is
  // calm (step_contacts.hpp); the explicit springs search every sub-step.
  const int span = prm.solver == SolverKind::MassSpring ? 1 : selfContactSpan(world, substeps);
  for (int sub = 0; sub < substeps; ++sub) {
    world.grab.at = glm::mix(world.grab.from, world.grab.target, float(sub + 1) / float(substeps));
    if (prm.solver == SolverKind::MassSpring) {
      massSpringSubstep(world, h, timing);  // explicit springs instead (mass_spring.hpp)
      continue;
    }
    const double t0 = world.time;
    // Predict (paper §3.1 lines 5-7), damping included.
    auto t = Clock::now();
    const glm::vec3 fall = h * prm.gravity;
    forEachVertex(world, [&](std::size_t i) {
      if (s.w[i] != 0.0f) s.v[i] += fall;
    });
    applyAerodynamics(world, h, sc.aeroForce);  // nothing in still air
    dampVelocities(world, prm.damping);
    forEachVertex(world, [&](std::size_t i) { s.p[i] = s.x[i] + h * s.v[i]; });
    predictBodies(world.bodies, prm.gravity, h);
    moveToTargets(world, t0 + double(h));
    timing.predict += msSince(t);
    generateStepContacts(world, t0, h, timing, sub % span == 0 ? span : 0);

    // Gauss-Seidel projection in a fixed order (paper §3.2).
    t = Clock::now();
    projectConstraints(world, coefficients);
    timing.solve += msSince(t);

    // Velocity update (paper §3.1 lines 12-16), then restitution at contacts.
    t = Clock::now();
    const float invH = 1.0f / h;
    forEachVertex(world, [&](std::size_t i) {
      s.v[i] = (s.p[i] - s.x[i]) * invH;
      s.x[i] = s.p[i];
    });
    updateBodies(world.bodies, world.colliders, h);
    finishSubstep(world, t0, h);
    timing.update += msSince(t);
  }

  // Tearing after the frame's solve (paper §5.4); what derives from the
  // topology is rebuilt by the next step.
  const auto tearStart = Clock::now();
  tearOverstretched(world);
  timing.tear = msSince(tearStart);
  world.grab.from = world.grab.at = world.grab.target;
  ++world.frame;
  timing.total = msSince(frameStart);
  world.stats.timings = timing;
  world.stats.selfThickness = sc.selfThickness;
  world.stats.tethers = sc.tethers.size();
}

}  // namespace drape::sim
