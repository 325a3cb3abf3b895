#pragma once
// The simulation never explodes silently: after every step the watchdog
// checks that positions and velocities are finite and within the scene's
// scale. If not, it rolls the world back to the last good state and says what
// happened and which parameter is the likely cause. The caller pauses (UI) or
// stops with an error (command line).

#include <string>

#include "sim/world.hpp"

namespace drape::sim {

struct WatchdogVerdict {
  bool ok = true;
  std::string message;  // what happened and the likely cause (when !ok)
};

class Watchdog {
 public:
  // Remember `world` as the last good state and take its scale.
  void reset(const World& world);
  // After a step: keep the world as the last good state, or roll it back to
  // the last good one and report.
  WatchdogVerdict afterStep(World& world);

  // Limits, from the scene's size at reset: speeds in m/s, distances in m.
  float maxSpeed() const { return maxSpeed_; }
  float maxDistance() const { return maxDistance_; }

 private:
  State good_;
  Cloth goodCloth_;  // the cloth of the last good state (copied when its topology changes)
  std::vector<RigidBody> goodBodies_;
  std::uint64_t goodTopology_ = 0;
  std::uint64_t goodTornEdges_ = 0;
  double goodTime_ = 0.0;
  std::uint64_t goodFrame_ = 0;
  glm::vec3 centre_{0.0f};
  float maxSpeed_ = 500.0f;
  float maxDistance_ = 1e4f;
};

// The parameter most likely to blame for an unstable run, as advice.
std::string likelyCause(const Params& params);
// The same, with what only the world knows: for solver=mass-spring, its
// sub-step against the springs' stability limit and the substeps it needs.
std::string likelyCause(const World& world);

}  // namespace drape::sim
