#include "sim/watchdog.hpp"
#include "sim/tuning.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/models/mass_spring.hpp"
#include "sim/solve/chebyshev.hpp"
#include "sim/stats.hpp"

namespace drape::sim {

namespace {

// How fast a point within `reach` of `at` can move under `m` (m/s).
float motionSpeed(const Motion& m, const glm::vec3& at, float reach) {
  constexpr float kTwoPi = 6.2831853f;
  return glm::length(m.velocity) +
         glm::length(m.angularVelocity) * (glm::length(at - m.pivot) + reach) +
         glm::length(m.amplitude) * kTwoPi * m.frequency;
}

// While k_stretch is at least kMaterialStretch (below it the cloth may
// stretch as it likes), an edge between moving vertices this many times
// its rest length is a solve that has failed. (Edges of a pinned or
// grabbed vertex go where the scene or the hand takes them; pressure and
// drags stretch a cloth several times over, never a thousand.)
constexpr float kMostStretch = 1000.0f;
constexpr float kMaterialStretch = 0.1f;

}  // namespace

void Watchdog::reset(const World& world) {
  good_ = world.state;
  goodTopology_ = world.cloth.topologyVersion;
  goodCloth_ = world.cloth;
  goodBodies_ = world.bodies;
  goodTornEdges_ = world.tornEdges;
  goodTime_ = world.time;
  goodFrame_ = world.frame;
  startTime_ = world.time;
  const Bounds b = bounds(world);
  const float size = std::max(1.0f, glm::length(b.max - b.min));
  // Cloth thrown by hand moves at a few m/s and snaps back from a violent
  // drag at up to a few km/s; an explosion grows exponentially and passes
  // any such bound within frames.
  baseSpeed_ = 2000.0f * size;
  kinematicSpeed_ = 0.0f;
  for (const Pin& pin : world.pins)
    kinematicSpeed_ = std::max(kinematicSpeed_, motionSpeed(pin.motion, pin.anchor, 0.0f));
  for (const Collider& c : world.colliders)
    kinematicSpeed_ = std::max(kinematicSpeed_, motionSpeed(c.motion, c.center, size));
}

float Watchdog::maxSpeed(const World& world) const {
  const float fall = glm::length(world.params.gravity) * float(world.time - startTime_);
  return baseSpeed_ + 2.0f * (fall + kinematicSpeed_);
}

WatchdogVerdict Watchdog::afterStep(World& world) {
  const State& s = world.state;
  auto finite = [](const glm::vec3& a) {
    return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z);
  };
  bool allFinite = true;
  float fastest = 0.0f;
  for (std::size_t i = 0; i < s.x.size() && allFinite; ++i) {
    allFinite = finite(s.x[i]) && finite(s.v[i]);
    // Pinned and grabbed vertices (w = 0) move as the scene or the hand
    // says: their speed is not the solver's doing.
    if (s.w[i] != 0.0f) fastest = std::max(fastest, glm::dot(s.v[i], s.v[i]));
  }
  fastest = std::sqrt(fastest);
  for (const RigidBody& body : world.bodies) {
    allFinite = allFinite && finite(body.x) && finite(body.v) && finite(body.omega);
    const float spin = glm::length(body.omega) * glm::length(body.halfExtents);
    fastest = std::max(fastest, glm::length(body.v) + spin);
  }
  // Stretch: the longest edge between moving vertices against its rest
  // length, squared (no root or division per edge in this per-frame scan).
  float longest = 0.0f;
  const bool material = world.params.k_stretch >= kMaterialStretch;
  if (allFinite && material)
    for (const StretchConstraint& e : world.cloth.stretch)
      if (s.w[e.a] != 0.0f && s.w[e.b] != 0.0f) {
        const glm::vec3 d = s.x[e.a] - s.x[e.b];
        const float allowed = kMostStretch * e.rest;
        if (glm::dot(d, d) > allowed * allowed && e.rest > 0.0f)
          longest = std::max(longest, glm::length(d) / e.rest);
      }
  const float limit = maxSpeed(world);
  char what[160] = "";
  if (!allFinite)
    std::snprintf(what, sizeof what, "positions became non-finite");
  else if (fastest > limit)
    std::snprintf(what, sizeof what, "something reached %.3g m/s", double(fastest));
  else if (longest > kMostStretch)
    std::snprintf(what, sizeof what, "an edge reached %.3g times its rest length", double(longest));
  if (what[0] == '\0') {
    // Good: remember it (the cloth too, if its topology changed).
    good_.x = s.x;
    good_.v = s.v;
    good_.w = s.w;
    good_.p = s.p;
    // The cloth is copied only when its topology changed (tearing).
    if (world.cloth.topologyVersion != goodTopology_) {
      goodTopology_ = world.cloth.topologyVersion;
      goodCloth_ = world.cloth;
    }
    goodBodies_ = world.bodies;
    goodTornEdges_ = world.tornEdges;
    goodTime_ = world.time;
    goodFrame_ = world.frame;
    return {};
  }
  WatchdogVerdict verdict;
  verdict.ok = false;
  verdict.message = "the simulation became unstable at frame " + std::to_string(world.frame) +
                    " (" + what + "); rolled back to frame " + std::to_string(goodFrame_) + ". ";
  rollBack(world);
  // The cause from the restored, finite state (mass-spring estimates its
  // stability limit from the positions).
  verdict.message += likelyCause(world);
  return verdict;
}

// Topology changes of the failed step are undone too, and all the solver's
// derived data is made again (its version numbers may be reused, and its
// caches hold the failed state's contacts and crossings).
void Watchdog::rollBack(World& world) {
  if (world.cloth.topologyVersion != goodTopology_) world.cloth = goodCloth_;
  world.solver = SolverState{};
  world.context.reset();
  world.state = good_;
  world.bodies = goodBodies_;
  syncBodyColliders(world.bodies, world.colliders);
  world.tornEdges = goodTornEdges_;
  world.time = goodTime_;
  world.frame = goodFrame_;
}

WatchdogVerdict Watchdog::outOfMemory(World& world) {
  WatchdogVerdict verdict;
  verdict.ok = false;
  verdict.message = "out of memory at frame " + std::to_string(world.frame + 1) +
                    "; rolled back to frame " + std::to_string(goodFrame_) +
                    ". Lower the resolution";
  if (world.params.self_collision) verdict.message += " or turn self_collision off";
  rollBack(world);
  return verdict;
}

namespace {

// The advice for the PBD and XPBD solvers, naming only what acts.
std::string likelyPbdCause(const World& world) {
  const Params& p = world.params;
  const float h = p.dt / float(std::max(1, p.substeps));
  const bool pressure = world.cloth.pressureActive && p.balloon_model == BalloonModel::Pressure;
  const bool bending = !world.cloth.bend.empty() || !world.cloth.isoBend.empty();
  if (pressure && p.k_pressure > 3.0f)
    return "Likely cause: k_pressure is high; lower it or raise iterations.";
  if (h > 0.02f) return "Likely cause: the time step; lower dt or raise substeps.";
  if (p.chebyshev > 0.9f && p.iterations > tuning::kChebyshevStart)
    return "Likely cause: chebyshev is high and over-relaxes the iterations; lower it to 0.9 or "
           "below.";
  // XPBD converges by sub-steps (Macklin et al. 2019), PBD by iterations.
  if (p.solver == SolverKind::Xpbd && p.substeps * p.iterations < 4)
    return "Likely cause: too few sub-steps for this stiffness; raise substeps.";
  if (p.solver != SolverKind::Xpbd && p.iterations < 3)
    return "Likely cause: too few iterations for this stiffness; raise iterations.";
  if (!world.bodies.empty())
    return "Likely cause: rigid bodies much heavier than the cloth; raise substeps.";
  if (bending && p.k_bend > 0.5f)
    return "Likely cause: stiff bending at this time step; raise substeps or lower k_bend.";
  return "Likely cause: stiff settings at this time step; raise substeps.";
}

}  // namespace

std::string likelyCause(const World& world) {
  const Params& p = world.params;
  if (!(glm::length(p.gravity) < 50.0f))
    return "Likely cause: gravity (" + std::to_string(glm::length(p.gravity)) +
           " m/s2) is extreme.";
  if (p.solver != SolverKind::MassSpring) return likelyPbdCause(world);
  // Explicit integration: name the step and the limit the springs set.
  const float h = p.dt / float(std::max({1, p.substeps, world.stats.substeps}));
  const float limit = massSpringStableStep(world.cloth, world.state, world.params);
  char text[400];
  if (h > 0.95f * limit) {
    const double needed = std::ceil(double(p.dt) / (0.95 * double(limit)));
    const int n = std::snprintf(
        text, sizeof text,
        "Likely cause: the explicit mass-spring solver's step dt/substeps = %.3g s is above its "
        "stability limit of about %.3g s at spring_stiffness %g N/m; ",
        double(h), double(limit), double(p.spring_stiffness));
    const char* advice =
        p.stable_substeps != 0
            ? "more than the %d sub-steps stable_substeps takes: lower spring_stiffness or dt (or "
              "use solver=pbd)."
        : needed <= 100.0
            ? "raise substeps to %.0f or more (or set stable_substeps=1), or lower "
              "spring_stiffness (or use solver=pbd)."
            : "more than the 100 substeps allowed at this dt: set stable_substeps=1, or lower "
              "spring_stiffness or dt (or use solver=pbd).";
    if (p.stable_substeps != 0)
      std::snprintf(text + n, sizeof text - std::size_t(n), advice, kMostStableSubsteps);
    else
      std::snprintf(text + n, sizeof text - std::size_t(n), advice, needed);
    return text;
  }
  return "Likely cause: the explicit mass-spring solver is stable only for small steps; raise "
         "substeps or lower spring_stiffness (or use solver=pbd).";
}

}  // namespace drape::sim
