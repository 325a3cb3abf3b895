// The explicit mass-spring solver (solver=mass-spring, Provot 1995): it hangs
// with small enough steps, a spring stretches by m g / k, internal forces keep
// momentum, runs are bit-identical, and at PBD's step it explodes, which the
// watchdog catches and explains.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "scene_helpers.hpp"
#include "sim/models/mass_spring.hpp"
#include "sim/stats.hpp"
#include "sim/step/step.hpp"
#include "sim/watchdog.hpp"

using namespace drape;
using test_support::buildScene;
using test_support::hashPositions;

namespace {

// The sub-steps per frame that keep h at 80 % of the stable step estimate.
int stableSubsteps(const sim::World& w) {
  return int(
      std::ceil(w.params.dt / (0.8f * sim::massSpringStableStep(w.cloth, w.state, w.params))));
}

glm::dvec3 momentum(const sim::World& w) {
  glm::dvec3 p(0.0);
  for (std::size_t i = 0; i < w.vertexCount(); ++i)
    p += double(w.cloth.mass[i]) * glm::dvec3(w.state.v[i]);
  return p;
}

}  // namespace

TEST(MassSpring, HangsWithSmallEnoughSteps) {
  sim::World w = buildScene("hang", {"solver=mass-spring", "resolution=16"});
  w.params.substeps = stableSubsteps(w);
  EXPECT_GT(w.params.substeps, 1);
  EXPECT_LE(w.params.substeps, 100);
  sim::Watchdog dog;
  dog.reset(w);
  const float pinY = w.state.x[w.pins[0].vertex].y;
  float lowest = pinY;
  for (int frame = 0; frame < 240; ++frame) {
    sim::step(w);
    ASSERT_TRUE(dog.afterStep(w).ok) << frame;
    lowest = std::min(lowest, sim::bounds(w).min.y);
  }
  ASSERT_TRUE(sim::allFinite(w));
  // Hanging: it swung down to nearly its length (2 m) below the pins and,
  // swinging still (the dashpots do not damp a swing), is below them; nothing
  // went through the floor (y = −1.5); the springs barely stretched (2000 N/m
  // against 0.4 kg).
  EXPECT_LT(lowest, pinY - 1.8f);
  EXPECT_LT(sim::bounds(w).min.y, pinY - 0.5f);
  EXPECT_GT(lowest, -1.5f - 0.01f);
  EXPECT_LT(sim::strainStats(w).max, 0.1f);
  EXPECT_LT(sim::strainStats(w).mean, 0.02f);
  // The pins stay put.
  for (const sim::Pin& pin : w.pins) EXPECT_EQ(w.state.x[pin.vertex], pin.anchor);
}

TEST(MassSpring, ASpringStretchesByWeightOverStiffness) {
  // One spring of rest length 0.5 m hanging from a pin with 10 g at its end,
  // critically damped (damping = ζ = 1).
  sim::Cloth cloth;
  cloth.restPositions = {{0.0f, 1.0f, 0.0f}, {0.0f, 0.5f, 0.0f}};
  cloth.mass = {0.01f, 0.01f};
  cloth.stretch = {{0, 1, 0.5f}};
  sim::computePieces(cloth);
  sim::Params params;
  params.solver = sim::SolverKind::MassSpring;
  params.spring_stiffness = 100.0f;
  params.damping = 1.0f;
  params.substeps = 10;
  sim::World w = sim::makeWorld(cloth, params);
  sim::pinVertex(w, 0);
  for (int frame = 0; frame < 120; ++frame) sim::step(w);
  const float extension = glm::length(w.state.x[1] - w.state.x[0]) - 0.5f;
  const float expected = 0.01f * 9.81f / 100.0f;  // m g / k
  EXPECT_NEAR(extension, expected, 1e-3f * expected);
  EXPECT_NEAR(w.state.x[1].x, 0.0f, 1e-7f);
  EXPECT_LT(glm::length(w.state.v[1]), 1e-5f);
}

TEST(MassSpring, OneSubstepExplodesAndTheWatchdogSaysWhy) {
  sim::World w = buildScene(
      "hang", {"solver=mass-spring", "resolution=16", "substeps=1", "stable_substeps=0"});
  sim::Watchdog dog;
  dog.reset(w);
  sim::WatchdogVerdict verdict;
  int frame = 0;
  for (; frame < 30 && verdict.ok; ++frame) {
    sim::step(w);
    verdict = dog.afterStep(w);
  }
  ASSERT_FALSE(verdict.ok) << "no explosion in 30 frames";
  EXPECT_LT(frame, 10);
  EXPECT_TRUE(sim::allFinite(w));  // rolled back
  EXPECT_NE(verdict.message.find("mass-spring"), std::string::npos) << verdict.message;
  EXPECT_NE(verdict.message.find("stability limit"), std::string::npos) << verdict.message;
  EXPECT_NE(verdict.message.find("raise substeps to"), std::string::npos) << verdict.message;
  EXPECT_NE(verdict.message.find("spring_stiffness"), std::string::npos) << verdict.message;
  // The advice works: at the substeps it names, the run is stable.
  const std::size_t at = verdict.message.find("raise substeps to ") + 18;
  const int advised = std::stoi(verdict.message.substr(at));
  EXPECT_GT(advised, 1);
  w = buildScene("hang", {"solver=mass-spring", "resolution=16", "stable_substeps=0"});
  w.params.substeps = advised;
  dog.reset(w);
  for (int i = 0; i < 120; ++i) {
    sim::step(w);
    ASSERT_TRUE(dog.afterStep(w).ok) << i;
  }
}

TEST(MassSpring, StiffSpringsNeedMoreSubsteps) {
  // Ten times the stiffness, about √10 times the sub-steps; below, it explodes.
  sim::World w = buildScene("hang", {"solver=mass-spring", "resolution=16", "stable_substeps=0"});
  const float soft = sim::massSpringStableStep(w.cloth, w.state, w.params);
  w.params.spring_stiffness *= 10.0f;
  EXPECT_NEAR(sim::massSpringStableStep(w.cloth, w.state, w.params), soft / std::sqrt(10.0f),
              1e-3f * soft);
  w.params.substeps = stableSubsteps(w) / 3;
  sim::Watchdog dog;
  dog.reset(w);
  bool exploded = false;
  for (int frame = 0; frame < 60 && !exploded; ++frame) {
    sim::step(w);
    exploded = !dog.afterStep(w).ok;
  }
  EXPECT_TRUE(exploded);
}

TEST(MassSpring, TakesTheSubstepsItsStabilityNeedsUnlessToldNotTo) {
  // At the defaults (2 sub-steps of 1/60 s, far beyond the springs' limit)
  // the step takes what the limit needs, and the cloth hangs calmly.
  sim::World w = buildScene("hang", {"solver=mass-spring", "resolution=16"});
  const int needed = stableSubsteps(w);
  ASSERT_GT(needed, w.params.substeps);
  sim::Watchdog dog;
  dog.reset(w);
  for (int frame = 0; frame < 120; ++frame) {
    sim::step(w);
    ASSERT_TRUE(dog.afterStep(w).ok) << frame;
  }
  EXPECT_EQ(w.stats.substeps, needed);
  EXPECT_LT(sim::strainStats(w).mean, 0.01f);
  // Stiffer springs, more sub-steps at once; a user's larger count stands.
  w.params.spring_stiffness *= 4.0f;
  sim::step(w);
  EXPECT_EQ(w.stats.substeps, stableSubsteps(w));
  EXPECT_GT(w.stats.substeps, needed);
  w.params.substeps = 100;
  sim::step(w);
  EXPECT_EQ(w.stats.substeps, 100);
  // Off: exactly the sub-steps asked for.
  w.params.stable_substeps = 0;
  w.params.substeps = 3;
  sim::step(w);
  EXPECT_EQ(w.stats.substeps, 3);
}

TEST(MassSpring, SpringsKeepMomentum) {
  // A free cloth in space, stretched and spinning unevenly: the springs and
  // their dashpots are internal forces, Σ m v stays what it was.
  sim::World w = buildScene("drape", {"solver=mass-spring", "resolution=12", "gravity=0,0,0",
                                      "damping=0.3", "k_bend=0.2"});
  w.colliders.clear();
  for (std::size_t i = 0; i < w.vertexCount(); ++i) {
    const glm::vec3 x = w.state.x[i];
    w.state.x[i] = glm::vec3(1.2f * x.x, x.y + 0.1f * x.x * x.z, 0.9f * x.z);
    w.state.v[i] = glm::vec3(0.5f + x.z, -x.x * x.z, 0.3f - x.x);
  }
  w.params.substeps = stableSubsteps(w);
  const glm::dvec3 before = momentum(w);
  double scale = 0.0;
  for (std::size_t i = 0; i < w.vertexCount(); ++i)
    scale += double(w.cloth.mass[i]) * double(glm::length(w.state.v[i]));
  for (int frame = 0; frame < 60; ++frame) sim::step(w);
  ASSERT_TRUE(sim::allFinite(w));
  const glm::dvec3 after = momentum(w);
  EXPECT_LT(glm::length(after - before), 1e-5 * scale)
      << before.x << " " << before.y << " " << before.z << " -> " << after.x << " " << after.y
      << " " << after.z;
  // And something happened: the stretch relaxed.
  EXPECT_LT(sim::strainStats(w).max, 0.2f);
}

TEST(MassSpring, IsDeterministic) {
  auto run = [] {
    sim::World w = buildScene("hang", {"solver=mass-spring", "resolution=12", "substeps=40"});
    for (int frame = 0; frame < 60; ++frame) sim::step(w);
    return hashPositions(w);
  };
  EXPECT_EQ(run(), run());
}

TEST(MassSpring, BalloonHoldsItsPressure) {
  // The gas pressure force holds the volume of a balloon dropped on the
  // floor; k_pressure 1.5 swells it (it breathes: the dashpots barely damp
  // that slow mode, so look at the largest volume).
  for (const float k : {1.0f, 1.5f}) {
    sim::World w =
        buildScene("balloon", {"solver=mass-spring", k == 1.0f ? "gravity=-9.81" : "gravity=0"});
    w.params.k_pressure = k;
    w.params.substeps = stableSubsteps(w);
    float lo = 1.0f, hi = 1.0f, lowest = 0.0f;
    for (int frame = 0; frame < 120; ++frame) {
      sim::step(w);
      lowest = std::min(lowest, sim::bounds(w).min.y);
      const float ratio = sim::currentVolume(w) / sim::restVolume(w);
      lo = std::min(lo, ratio);
      hi = std::max(hi, ratio);
    }
    ASSERT_TRUE(sim::allFinite(w));
    if (k == 1.0f) {
      EXPECT_LT(lowest, -0.95f);  // it hit the floor (and bounced)
      EXPECT_GT(lo, 0.85f);
      EXPECT_LT(hi, 1.15f);
    } else {
      EXPECT_GT(hi, 1.1f);
    }
  }
}
