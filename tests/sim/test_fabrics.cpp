// Fabric presets (fabrics.hpp): each one is its physical values through the
// sliders' mapping, the `material` parameter applies one and reads back
// which one the values are, and on a clamped strip the fabrics droop in the
// order of their bending stiffness per weight.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "sim/fabrics.hpp"
#include "sim/material.hpp"
#include "sim/params.hpp"
#include "sim/step/step.hpp"
#include "sim/world.hpp"

using namespace drape;

namespace {

TEST(Fabrics, EachPresetIsItsPhysicalValues) {
  ASSERT_EQ(sim::fabrics().size(), 5u);
  for (const sim::Fabric& f : sim::fabrics()) {
    EXPECT_NEAR(sim::stretchModulus(f.kStretch), f.stretch, 1e-5 * f.stretch) << f.name;
    EXPECT_NEAR(sim::bendingStiffness(f.kBend), f.bending, 1e-5 * f.bending) << f.name;
    EXPECT_GT(f.kStretch, 0.0f);
    EXPECT_LT(f.kStretch, 1.0f);
    EXPECT_GT(f.kBend, 0.0f);
    EXPECT_LT(f.kBend, 1.0f);
    EXPECT_GT(std::string(f.source).size(), 20u) << f.name << " needs a source";
  }
  EXPECT_EQ(sim::kStretchFor(0.0), 0.0);
  EXPECT_EQ(sim::kBendFor(-1.0), 0.0);
}

TEST(Fabrics, TheMaterialParameterAppliesAndReadsBack) {
  const sim::ParamDesc* material = sim::findParam("material");
  ASSERT_NE(material, nullptr);
  sim::Params p;
  EXPECT_EQ(sim::formatParam(p, *material), "custom");  // the defaults are none of them
  ASSERT_TRUE(sim::setParamAssignment(p, "material=denim"));
  const sim::Fabric& denim = sim::fabrics()[2];
  EXPECT_EQ(p.k_bend, denim.kBend);
  EXPECT_EQ(p.k_stretch, denim.kStretch);
  EXPECT_EQ(p.density, denim.density);
  EXPECT_EQ(p.friction, denim.friction);
  EXPECT_EQ(sim::formatParam(p, *material), "denim");
  // A setting after it overrides it, and the values are then no preset.
  ASSERT_TRUE(sim::setParamAssignment(p, "k_bend=0.3"));
  EXPECT_EQ(sim::formatParam(p, *material), "custom");
  EXPECT_EQ(p.density, denim.density);
  // Custom changes nothing; an unknown fabric is refused, naming the choices.
  const sim::Params before = p;
  ASSERT_TRUE(sim::setParamAssignment(p, "material=custom"));
  EXPECT_EQ(p.k_bend, before.k_bend);
  const auto r = sim::setParamAssignment(p, "material=tweed");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("leather"), std::string::npos) << r.error();
}

// The droop of a 0.25 m × 0.05 m strip's free end, clamped along its first
// two columns, after 300 frames, as a share of its length.
double droop(const char* fabric) {
  sim::Params params;
  EXPECT_TRUE(sim::setParamAssignment(params, std::string("material=") + fabric));
  constexpr int kAlong = 21, kAcross = 5;
  auto world = scene::worldFromMesh(scene::makeSheet(kAlong, kAcross, {0.0f, 1.0f, 0.0f},
                                                     {0.25f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.05f}),
                                    params);
  EXPECT_TRUE(world);
  sim::World& w = world.value();
  for (int j = 0; j < kAcross; ++j)
    for (int i = 0; i < 2; ++i) sim::pinVertex(w, std::uint32_t(j * kAlong + i));
  for (int f = 0; f < 300; ++f) sim::step(w);
  double tip = 0.0;
  for (int j = 0; j < kAcross; ++j)
    tip += double(w.state.x[std::size_t(j * kAlong + kAlong - 1)].y);
  return (1.0 - tip / kAcross) / 0.25;
}

TEST(Fabrics, StifferPerWeightDroopsLess) {
  // D / density (m⁴/s² × kg/kg): silk 2e-5, cotton 4.7e-5, denim 2e-4, leather 1.9e-3.
  const double silk = droop("silk"), cotton = droop("cotton"), denim = droop("denim"),
               leather = droop("leather");
  EXPECT_GT(silk, cotton);
  EXPECT_GT(cotton, denim);
  EXPECT_GT(denim, leather);
  // Silk's bending length (D / weight)^⅓ is 1.3 cm, leather's 5.8 cm: one
  // hangs nearly straight down, the other holds part of itself out
  // (measured 0.95 and 0.77).
  EXPECT_GT(silk, 0.9);
  EXPECT_LT(leather, 0.85);
}

}  // namespace
