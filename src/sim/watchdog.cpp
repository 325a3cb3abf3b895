#include "sim/watchdog.hpp"

#include <cmath>
#include <cstdio>

#include "sim/stats.hpp"

namespace drape::sim {

void Watchdog::reset(const World& world) {
  good_ = world.state;
  goodTopology_ = world.cloth.topologyVersion;
  goodCloth_ = world.cloth;
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
                    " (" + what + "); rolled back to frame " + std::to_string(goodFrame_) + ". " +
                    likelyCause(world.params);
  // Roll back. Topology changes of the failed step are undone too, and the
  // solver's derived data is rebuilt (its version numbers may be reused).
  if (world.cloth.topologyVersion != goodTopology_) world.cloth = goodCloth_;
  world.scratch.packedVersion = UINT64_MAX;
  world.scratch.tethersTopology = UINT64_MAX;
  world.state = good_;
  world.tornEdges = goodTornEdges_;
  world.time = goodTime_;
  world.frame = goodFrame_;
  return verdict;
}

std::string likelyCause(const Params& p) {
  const float h = p.dt / float(std::max(1, p.substeps));
  if (!(glm::length(p.gravity) < 50.0f))
    return "Likely cause: gravity (" + std::to_string(glm::length(p.gravity)) +
           " m/s2) is extreme.";
  if (p.k_pressure > 3.0f) return "Likely cause: k_pressure is high; lower it or raise iterations.";
  if (h > 0.02f) return "Likely cause: the time step; lower dt or raise substeps.";
  if (p.iterations < 3)
    return "Likely cause: too few iterations for this stiffness; raise iterations.";
  return "Likely cause: stiff settings at this time step; raise substeps or lower k_bend.";
}

}  // namespace drape::sim
