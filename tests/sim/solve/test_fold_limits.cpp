// Fold limits (fold_limits.hpp): the bound the thickness puts on a hinge,
// which hinges a sub-step chooses, and the projection that holds them.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "scene/scenes.hpp"
#include "scene_helpers.hpp"
#include "sim/constraints.hpp"
#include "sim/self/self_collision.hpp"
#include "sim/solve/fold_limits.hpp"
#include "sim/step/context.hpp"
#include "sim/step/step.hpp"

using namespace drape;

namespace {

constexpr float kPi = 3.14159265358979f;

// Two right triangles of legs 0.1 m on the hinge x2–x3 along z, the wing
// tips at altitude 0.1 m; the second wing turned by `fold` (rad) about the
// hinge, so that the dihedral angle is ±fold.
sim::World hinge(float fold) {
  sim::TriMesh mesh;
  mesh.positions = {{-0.1f, 0.0f, 0.05f},
                    {0.1f * std::cos(fold), 0.1f * std::sin(fold), 0.05f},
                    {0.0f, 0.0f, 0.0f},
                    {0.0f, 0.0f, 0.1f}};
  mesh.triangles = {{0, 3, 2}, {1, 2, 3}};
  sim::Params params;
  params.gravity = glm::vec3(0.0f);
  params.self_collision = 1;
  params.damping = 0.0f;
  params.thickness = 0.03f;
  auto world = scene::worldFromMesh(mesh, params);
  EXPECT_TRUE(world) << world.error();
  return std::move(world.value());
}

float angleOf(const sim::World& w, const std::vector<glm::vec3>& x) {
  const sim::BendConstraint& b = w.cloth.bend.at(0);
  float theta = 0.0f;
  EXPECT_TRUE(sim::dihedralAngle(x[b.v[0]], x[b.v[1]], x[b.v[2]], x[b.v[3]], theta));
  return theta;
}

}  // namespace

TEST(FoldLimits, TheBoundKeepsTheNarrowerTipAThicknessFromTheOtherWing) {
  // π − asin(h / a): folded that far, the tip at altitude a lies h from the
  // other wing's plane.
  EXPECT_NEAR(sim::foldLimit(0.01f, 0.02f), kPi - std::asin(0.5f), 1e-6f);
  EXPECT_NEAR(0.02f * std::sin(kPi - sim::foldLimit(0.01f, 0.02f)), 0.01f, 1e-6f);
  // Thinner layers fold further; slivers and altitudes under the thickness
  // stop at the floor, not at 90°.
  EXPECT_GT(sim::foldLimit(0.001f, 0.02f), sim::foldLimit(0.01f, 0.02f));
  EXPECT_FLOAT_EQ(sim::foldLimit(0.01f, 0.005f), sim::tuning::kFoldLimitFloor);
  EXPECT_FLOAT_EQ(sim::foldLimit(0.01f, 0.0f), sim::tuning::kFoldLimitFloor);

  const sim::World w = hinge(0.0f);
  ASSERT_EQ(w.cloth.bend.size(), 1u);
  const std::vector<float> altitude = sim::hingeAltitudes(w.cloth);
  ASSERT_EQ(altitude.size(), 1u);
  EXPECT_NEAR(altitude[0], 0.1f, 1e-6f);
}

TEST(FoldLimits, OnlyHingesNearTheirBoundAreChosenOnTheSideTheyFold) {
  for (const float fold : {0.5f, 2.0f, 2.9f, -2.9f}) {
    sim::World w = hinge(fold);
    w.state.p = w.state.x;
    test_support::SelfSearchRun run;
    run.search(w);  // the self contacts' thickness
    ASSERT_TRUE(run.found);
    // The self contacts keep the thickness (under 0.35 of the 11 cm mean edge).
    ASSERT_FLOAT_EQ(run.self.thickness, 0.03f);
    sim::FoldLimits limits;
    const sim::FoldInput in{w.cloth, w.state.x, run.self.thickness, {}, {}};
    const std::size_t chunks = sim::beginFoldLimits(limits, w.cloth, run.self.thickness);
    for (std::size_t c = 0; c < chunks; ++c) sim::chooseFoldLimitsOf(limits, in, c);
    sim::joinFoldLimits(limits, w.cloth);
    const float bound = sim::foldLimit(0.03f, 0.1f);  // 162.5°
    const auto& active = limits.active;
    const float theta = angleOf(w, w.state.x);
    if (std::abs(theta) < bound - sim::tuning::kFoldLimitWindow) {
      EXPECT_TRUE(active.empty()) << "fold " << fold;
    } else {
      ASSERT_EQ(active.size(), 1u) << "fold " << fold;
      EXPECT_EQ(active[0].hinge, 0u);
      EXPECT_FLOAT_EQ(active[0].bound, theta > 0.0f ? bound : -bound);
    }
  }
  // Without self collision, none.
  sim::World off = hinge(2.9f);
  off.params.self_collision = 0;
  sim::step(off);
  EXPECT_TRUE(sim::contextOf(off).foldLimits.active.empty());
}

TEST(FoldLimits, AClothThatLostItsLastHingeKeepsNoLimit) {
  // The hinge near its bound has a limit; with the hinge gone (as a tear
  // drops a hinge whose triangles it parts, and bumps the topology), the
  // next sub-steps keep no limit of it.
  sim::World w = hinge(2.9f);
  sim::step(w);
  ASSERT_EQ(sim::contextOf(w).foldLimits.active.size(), 1u);
  w.cloth.bend.clear();
  w.cloth.isoBend.clear();
  ++w.cloth.topologyVersion;
  sim::step(w);
  EXPECT_TRUE(sim::contextOf(w).foldLimits.active.empty());
  for (const glm::vec3& x : w.state.x) EXPECT_TRUE(std::isfinite(x.x + x.y + x.z));
}

TEST(FoldLimits, AHingeFoldedPastItsBoundIsOpenedToItKeepingMomentum) {
  for (const float fold : {3.0f, -3.0f}) {
    sim::World w = hinge(fold);
    const float bound = sim::foldLimit(0.03f, 0.1f);
    const float side = angleOf(w, w.state.x) > 0.0f ? 1.0f : -1.0f;
    EXPECT_NEAR(std::abs(angleOf(w, w.state.x)), 3.0f, 1e-5f);
    const sim::FoldLimit limit{0, side * bound};
    std::vector<glm::vec3> p = w.state.x;
    std::vector<float> invMass = w.state.w;
    const sim::Points pts{reinterpret_cast<float*>(p.data()), invMass.data(), 3, 1};
    // A bound within reach is not touched at all.
    const sim::FoldLimit loose{0, side * 3.1f};
    sim::solveFoldLimits(pts, w.cloth, &loose, 1);
    for (std::size_t i = 0; i < p.size(); ++i) EXPECT_EQ(p[i], w.state.x[i]);
    for (int pass = 0; pass < 20; ++pass) sim::solveFoldLimits(pts, w.cloth, &limit, 1);
    EXPECT_NEAR(std::abs(angleOf(w, p)), bound, 1e-3f) << "fold " << fold;
    glm::vec3 moved(0.0f);
    for (std::size_t i = 0; i < p.size(); ++i) moved += (p[i] - w.state.x[i]) / invMass[i];
    EXPECT_LT(glm::length(moved), 1e-6f) << "fold " << fold;
  }
}
