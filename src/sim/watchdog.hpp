#pragma once
// The simulation never explodes silently: after every step the watchdog
// judges what an explosion looks like, not how far the cloth went (a cloth
// may fall or be carried as far as it likes):
// - a position or velocity that is not finite (cloth or rigid body);
// - a speed beyond what the scene can give: gravity over the time run,
//   its kinematic pins and colliders, and a margin of two thousand scene
//   sizes per second for a snap back from a violent drag;
// - an edge between moving vertices over a thousand times its rest length,
//   while k_stretch asks for a material (k_stretch >= 0.1).
// On any of these it rolls the world back to the last good state and says
// what happened and the parameter likely to blame, among those that act in
// the scene. The caller pauses (UI) or stops with an error (command line).

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
  // A step that ran out of memory: roll the world back to the last good
  // state (its derived data freed) and say so.
  WatchdogVerdict outOfMemory(World& world);

  // The fastest a vertex or body may move now (m/s): from the scene's
  // size and kinematic motion at reset, gravity and the time since.
  float maxSpeed(const World& world) const;

 private:
  void rollBack(World& world);

  State good_;
  Cloth goodCloth_;  // the cloth of the last good state (copied when its topology changes)
  std::vector<RigidBody> goodBodies_;
  std::uint64_t goodTopology_ = 0;
  std::uint64_t goodTornEdges_ = 0;
  double goodTime_ = 0.0;
  std::uint64_t goodFrame_ = 0;
  double startTime_ = 0.0;
  float baseSpeed_ = 500.0f;     // the margin, m/s
  float kinematicSpeed_ = 0.0f;  // the fastest pin or collider motion, m/s
};

// The parameter most likely to blame for an unstable run, as advice, among
// those that act in the world (k_pressure only on a balloon, k_bend only
// where there is bending); for solver=mass-spring, its sub-step against the
// springs' stability limit and the substeps it needs.
std::string likelyCause(const World& world);

}  // namespace drape::sim
