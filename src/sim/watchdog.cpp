#include "sim/watchdog.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/mass_spring.hpp"
#include "sim/stats.hpp"

namespace drape::sim {

void Watchdog::reset(const World& world) {
  good_ = world.state;
  goodTopology_ = world.cloth.topologyVersion;
  goodCloth_ = world.cloth;
  goodBodies_ = world.bodies;
  goodTornEdges_ = world.tornEdges;
  goodTime_ = world.time;
  goodFrame_ = world.frame;
  const Bounds b = bounds(world);
  centre_ = 0.5f * (b.min + b.max);
  const float size = std::max(1.0f, glm::length(b.max - b.min));
  // Cloth thrown by hand moves at a few m/s and snaps back from a violent
  // drag at up to a few km/s; an explosion grows exponentially and passes
  // any such bound within frames. Two thousand scene sizes per second, or a
  // thousand scene sizes away, is an explosion.
  maxSpeed_ = 2000.0f * size;
  maxDistance_ = 1000.0f * size;
}

WatchdogVerdict Watchdog::afterStep(World& world) {
  const State& s = world.state;
  bool finite = true;
  float fastest = 0.0f, furthest = 0.0f;
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    const glm::vec3 &x = s.x[i], &v = s.v[i];
    if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z) || !std::isfinite(v.x) ||
        !std::isfinite(v.y) || !std::isfinite(v.z)) {
      finite = false;
      break;
    }
    // Pinned and grabbed vertices (w = 0) move as the scene or the hand
    // says: their speed is not the solver's doing.
    if (s.w[i] != 0.0f) fastest = std::max(fastest, glm::dot(v, v));
    furthest = std::max(furthest, glm::dot(x - centre_, x - centre_));
  }
  fastest = std::sqrt(fastest);
  furthest = std::sqrt(furthest);
  if (finite && fastest <= maxSpeed_ && furthest <= maxDistance_) {
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
  char what[160];
  if (!finite)
    std::snprintf(what, sizeof what, "positions became non-finite");
  else if (fastest > maxSpeed_)
    std::snprintf(what, sizeof what, "a vertex reached %.3g m/s", double(fastest));
  else
    std::snprintf(what, sizeof what, "a vertex flew %.3g m away", double(furthest));
  WatchdogVerdict verdict;
  verdict.ok = false;
  verdict.message = "the simulation became unstable at frame " + std::to_string(world.frame) +
                    " (" + what + "); rolled back to frame " + std::to_string(goodFrame_) + ". ";
  // Roll back. Topology changes of the failed step are undone too, and the
  // solver's derived data is rebuilt (its version numbers may be reused).
  if (world.cloth.topologyVersion != goodTopology_) world.cloth = goodCloth_;
  world.scratch.packedVersion = UINT64_MAX;
  world.scratch.tethersTopology = UINT64_MAX;
  world.scratch.tets.version = UINT64_MAX;
  world.scratch.springs.version = UINT64_MAX;
  world.state = good_;
  world.bodies = goodBodies_;
  syncBodyColliders(world.bodies, world.colliders);
  world.tornEdges = goodTornEdges_;
  world.time = goodTime_;
  world.frame = goodFrame_;
  // The cause from the restored, finite state (mass-spring estimates its
  // stability limit from the positions).
  verdict.message += likelyCause(world);
  return verdict;
}

std::string likelyCause(const Params& p) {
  const float h = p.dt / float(std::max(1, p.substeps));
  if (!(glm::length(p.gravity) < 50.0f))
    return "Likely cause: gravity (" + std::to_string(glm::length(p.gravity)) +
           " m/s2) is extreme.";
  if (p.solver == SolverKind::MassSpring)
    return "Likely cause: the explicit mass-spring solver is stable only for small steps; raise "
           "substeps or lower spring_stiffness (or use solver=pbd).";
  if (p.k_pressure > 3.0f) return "Likely cause: k_pressure is high; lower it or raise iterations.";
  if (h > 0.02f) return "Likely cause: the time step; lower dt or raise substeps.";
  if (p.iterations < 3)
    return "Likely cause: too few iterations for this stiffness; raise iterations.";
  return "Likely cause: stiff settings at this time step; raise substeps or lower k_bend.";
}

std::string likelyCause(const World& world) {
  const Params& p = world.params;
  if (p.solver != SolverKind::MassSpring || !(glm::length(p.gravity) < 50.0f))
    return likelyCause(p);
  // Explicit integration: name the step and the limit the springs set.
  const float h = p.dt / float(std::max(1, p.substeps));
  const float limit = massSpringStableStep(world);
  char text[400];
  if (h > 0.95f * limit) {
    const double needed = std::ceil(double(p.dt) / (0.95 * double(limit)));
    const int n = std::snprintf(
        text, sizeof text,
        "Likely cause: the explicit mass-spring solver's step dt/substeps = %.3g s is above its "
        "stability limit of about %.3g s at spring_stiffness %g N/m; ",
        double(h), double(limit), double(p.spring_stiffness));
    if (needed <= 100.0)
      std::snprintf(text + n, sizeof text - std::size_t(n),
                    "raise substeps to %.0f or more, or lower spring_stiffness (or use "
                    "solver=pbd).",
                    needed);
    else
      std::snprintf(text + n, sizeof text - std::size_t(n),
                    "more than the 100 substeps allowed at this dt: lower spring_stiffness or "
                    "dt (or use solver=pbd).");
    return text;
  }
  return likelyCause(p);
}

}  // namespace drape::sim
