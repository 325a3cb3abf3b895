// The step's plan (step/plan.hpp) as a table: what each kind of world and
// parameter setting makes a frame do, the controllers' transitions, and the
// schedule of the crossing searches.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scene_helpers.hpp"
#include "sim/self/self_collision.hpp"
#include "sim/step/plan.hpp"
#include "sim/step/step.hpp"
#include "sim/tuning.hpp"

namespace drape {
namespace {

using sim::Stage;
using test_support::buildScene;

sim::StepPlan planOf(const sim::World& w) {
  return sim::planStep(w, sim::planCrossingSearch(w));
}

std::vector<Stage> stagesOf(const sim::StepPlan& plan) {
  return {plan.stages.begin(), plan.stages.begin() + std::ptrdiff_t(plan.stageCount)};
}

struct Row {
  const char* scene;
  std::vector<std::string> sets;
  int substeps, iterations, stretchSweeps, levels;
  float chebyshev;
  bool newton;
  std::vector<Stage> stages;
};

TEST(Plan, EachSettingMakesItsPlan) {
  const std::vector<Stage> contacts = {Stage::ColliderFeatures, Stage::ColliderContacts};
  auto with = [&](std::vector<Stage> first) {
    first.insert(first.end(), contacts.begin(), contacts.end());
    return first;
  };
  const Row rows[] = {
      // XPBD at the defaults: coarse levels, four sweeps of the edges, one
      // iteration of eight sub-steps (too few for Chebyshev's schedule).
      {"hang",
       {},
       8,
       1,
       4,
       4,
       0.0f,
       false,
       with({Stage::CoarseLevels, Stage::Stretch, Stage::Bend})},
      // No bending stiffness: no bending stage.
      {"hang", {"k_bend=0"}, 8, 1, 4, 4, 0.0f, false, with({Stage::CoarseLevels, Stage::Stretch})},
      // Bending too stiff for the sweeps: the Newton step ends each sub-step.
      {"hang",
       {"k_bend=0.5"},
       8,
       1,
       4,
       4,
       0.0f,
       true,
       with({Stage::CoarseLevels, Stage::Stretch, Stage::Bend})},
      // PBD at the paper's budget, accelerated.
      {"hang",
       {"solver=pbd", "substeps=2", "iterations=4"},
       2,
       4,
       4,
       4,
       0.9f,
       false,
       with({Stage::CoarseLevels, Stage::Stretch, Stage::Bend, Stage::Chebyshev})},
      {"hang",
       {"bending=isometric"},
       8,
       1,
       4,
       4,
       0.0f,
       false,
       with({Stage::CoarseLevels, Stage::Stretch, Stage::IsometricBend})},
      // Too few iterations for the acceleration's schedule.
      {"hang",
       {"solver=pbd", "iterations=2"},
       8,
       2,
       4,
       4,
       0.0f,
       false,
       with({Stage::CoarseLevels, Stage::Stretch, Stage::Bend})},
      {"hang",
       {"tethers=on"},
       8,
       1,
       4,
       4,
       0.0f,
       false,
       with({Stage::CoarseLevels, Stage::Stretch, Stage::Bend, Stage::Tethers})},
      // A balloon and a tearing cloth stretch: no levels, one sweep.
      {"balloon",
       {},
       1,
       20,
       1,
       0,
       0.9f,
       false,
       with({Stage::Pressure, Stage::Stretch, Stage::Bend, Stage::Chebyshev})},
      {"hang", {"tear=1.5"}, 8, 1, 1, 0, 0.0f, false, with({Stage::Stretch, Stage::Bend})},
      // Self collision adds its stages before the vertices' collider contacts.
      {"fold",
       {},
       3,
       5,
       4,
       4,
       0.9f,
       false,
       {Stage::CoarseLevels, Stage::Stretch, Stage::Bend, Stage::Chebyshev, Stage::ColliderFeatures,
        Stage::FoldLimits, Stage::SelfContacts, Stage::Crossings, Stage::ColliderContacts}},
  };
  for (const Row& row : rows) {
    const sim::World w = buildScene(row.scene, row.sets);
    const sim::StepPlan plan = planOf(w);
    std::string name = row.scene;
    for (const std::string& set : row.sets) name += " " + set;
    EXPECT_EQ(plan.substeps, row.substeps) << name;
    EXPECT_EQ(plan.iterations, row.iterations) << name;
    EXPECT_EQ(plan.stretchSweeps, row.stretchSweeps) << name;
    EXPECT_EQ(plan.levels, row.levels) << name;
    EXPECT_EQ(plan.chebyshev, row.chebyshev) << name;
    EXPECT_EQ(plan.newton, row.newton) << name;
    EXPECT_EQ(stagesOf(plan), row.stages) << name;
    EXPECT_FLOAT_EQ(plan.h, w.params.dt / float(plan.substeps)) << name;
    EXPECT_FALSE(sim::explainStep(w, plan).empty());
  }
}

TEST(Plan, TheNewtonStepKeepsToItsWorkBudget) {
  // Stiff bending on a small cloth: all of newton_cg.
  const sim::StepPlan strip = planOf(buildScene("hang", {"resolution=24", "k_bend=0.9"}));
  EXPECT_TRUE(strip.newton);
  EXPECT_EQ(strip.newtonCg, 100);
  // On a larger one, fewer: the frame's iterations × constraints stay within the budget.
  const sim::World mid = buildScene("hang", {"resolution=100", "k_bend=0.9"});
  const sim::StepPlan fewer = planOf(mid);
  ASSERT_TRUE(fewer.newton);
  const double constraints = double(mid.cloth.stretch.size() + mid.cloth.bend.size());
  EXPECT_LT(fewer.newtonCg, 100);
  EXPECT_GE(fewer.newtonCg, sim::tuning::kNewtonLeastIterations);
  EXPECT_LE(double(fewer.newtonCg) * fewer.substeps * constraints,
            sim::tuning::kNewtonWorkPerFrame);
  // Too large for even the least: left out, and --explain-step says why.
  const sim::World big = buildScene("drape", {"resolution=256"});
  const sim::StepPlan none = planOf(big);
  EXPECT_GT(none.bendingStiffness, sim::tuning::kStiffBending);
  EXPECT_FALSE(none.newton);
  EXPECT_TRUE(none.newtonTooLarge);
  EXPECT_NE(sim::explainStep(big, none).find("too large for the step's work budget"),
            std::string::npos);
}

TEST(Plan, TheExplicitSpringsProjectOnlyTheirContactsAtTheirStableSubsteps) {
  sim::World w = buildScene("hang", {"solver=mass-spring"});
  sim::step(w);  // estimates the springs' limit
  const sim::StepPlan plan = planOf(w);
  EXPECT_TRUE(plan.explicitSprings);
  EXPECT_EQ(plan.iterations, 1);
  EXPECT_GT(plan.stableSubsteps, w.params.substeps);
  EXPECT_EQ(plan.substeps, plan.stableSubsteps);
  EXPECT_EQ(stagesOf(plan), (std::vector<Stage>{Stage::ColliderFeatures, Stage::ColliderContacts}));
  EXPECT_FALSE(plan.damping || plan.air || plan.bodies);
  w.params.stable_substeps = 0;
  EXPECT_EQ(planOf(w).substeps, w.params.substeps);
}

TEST(Plan, AHandTurnsTheAccelerationOffAndASoftOnePullsInItsStage) {
  sim::World w = buildScene("hang", {"resolution=12"});
  sim::startGrab(w, 70);
  sim::StepPlan plan = planOf(w);
  EXPECT_EQ(plan.chebyshev, 0.0f);
  ASSERT_TRUE(w.grab.soft);
  EXPECT_EQ(stagesOf(plan).front(), Stage::Hand);
  sim::endGrab(w, glm::vec3(0.0f));
  sim::startGrab(w, 70, 1.5f);  // a tearing grab: hard, and the edges must stretch
  plan = planOf(w);
  EXPECT_FALSE(plan.has(Stage::Hand));
  EXPECT_EQ(plan.levels, 0);
  EXPECT_EQ(plan.stretchSweeps, 1);
}

TEST(Plan, KnownCrossingsMultiplyTheSubstepsUpToTheirLimit) {
  sim::World w = buildScene("fold");
  w.solver.crossingFactor = 2;
  EXPECT_EQ(planOf(w).substeps, 2 * w.params.substeps);
  EXPECT_EQ(planOf(w).selfSpan, 1);  // frames of extra sub-steps search each one
  // The controller: doubled in each frame that starts with crossings, up to
  // crossing_substeps; halved after frames without; crossings that stay
  // while no new ones form count as none.
  sim::SolverState s;
  s.crossings.crossings.resize(3);
  sim::Params p;
  p.crossing_substeps = 4;
  sim::updateControls(s, p, 3);
  EXPECT_EQ(s.crossingFactor, 2);
  sim::updateControls(s, p, 0);
  sim::updateControls(s, p, 0);
  EXPECT_EQ(s.crossingFactor, 4);
  for (int frame = 0; frame < 100; ++frame) sim::updateControls(s, p, 0);
  EXPECT_EQ(s.crossingFactor, 1);  // given up on: they stayed 60 frames with none new
  s.crossings.crossings.clear();
  s.crossingFactor = 4;
  s.framesWithoutFresh = s.framesUncrossed = 0;
  for (int frame = 0; frame < 7; ++frame) sim::updateControls(s, p, 0);
  EXPECT_EQ(s.crossingFactor, 4);
  sim::updateControls(s, p, 0);
  EXPECT_EQ(s.crossingFactor, 2);  // eight frames without crossings
}

TEST(Plan, CrossingsAreSearchedOnAScheduleThatFollowsTheCloth) {
  sim::World w = buildScene("fold");
  // Off without self collision.
  w.params.self_collision = 0;
  EXPECT_EQ(sim::planCrossingSearch(w).kind, sim::CrossingSearchKind::Off);
  w.params.self_collision = 1;
  // The first frame of a topology searches; then every fourth frame.
  EXPECT_EQ(sim::planCrossingSearch(w).kind, sim::CrossingSearchKind::Search);
  w.solver.crossings.searchedTopology = w.cloth.topologyVersion;
  for (std::uint64_t frame = 1; frame <= 8; ++frame) {
    w.frame = frame;
    EXPECT_EQ(sim::planCrossingSearch(w).kind,
              frame % 4 == 0 ? sim::CrossingSearchKind::Search : sim::CrossingSearchKind::Recheck)
        << frame;
  }
  // Every second frame while crossings are known.
  w.solver.crossings.crossings.resize(1);
  w.frame = 6;
  EXPECT_EQ(sim::planCrossingSearch(w).kind, sim::CrossingSearchKind::Search);
  w.solver.crossings.crossings.clear();
  // Every eighth while calm: two clean searches, the vertices barely moving.
  w.solver.crossings.cleanSearches = 2;
  w.solver.self.travelMean = 0.0f;
  w.frame = 4;
  EXPECT_TRUE(sim::planCrossingSearch(w).calm);
  EXPECT_EQ(sim::planCrossingSearch(w).kind, sim::CrossingSearchKind::Recheck);
  w.frame = 8;
  EXPECT_EQ(sim::planCrossingSearch(w).kind, sim::CrossingSearchKind::Search);
  // A mesh too dense to search: not again until it changes.
  w.solver.crossings.tooDenseTopology = w.cloth.topologyVersion;
  EXPECT_EQ(sim::planCrossingSearch(w).kind, sim::CrossingSearchKind::TooDense);
  // Self contacts too dense: off for the mesh, and so is the untangling
  // (without contacts, it chases crossings the cloth keeps making).
  w.solver.crossings.tooDenseTopology = UINT64_MAX;
  w.solver.self.tooDenseTopology = w.cloth.topologyVersion;
  EXPECT_EQ(sim::planCrossingSearch(w).kind, sim::CrossingSearchKind::TooDense);
  const sim::StepPlan plan = planOf(w);
  EXPECT_FALSE(plan.selfCollision);
  EXPECT_FALSE(plan.has(Stage::SelfContacts));
}

TEST(Plan, TheSelfContactsKeepAThinnerLayerOnAFineMesh) {
  const sim::World fine = buildScene("drape", {"resolution=128", "self_collision=1"});
  const float edge = sim::meanRestEdge(fine.cloth);
  EXPECT_FLOAT_EQ(planOf(fine).selfThickness, sim::tuning::kSelfThicknessPerEdge * edge);
  const sim::World coarse = buildScene("drape", {"resolution=32", "self_collision=1"});
  EXPECT_FLOAT_EQ(planOf(coarse).selfThickness, coarse.params.thickness);
}

}  // namespace
}  // namespace drape
