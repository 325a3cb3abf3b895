// The one parameter table: names, ranges, parsing, refusals.

#include <gtest/gtest.h>

#include <set>

#include "sim/material.hpp"
#include "sim/params.hpp"
#include "sim/solve/coefficients.hpp"

using namespace drape::sim;

TEST(Params, NamesAreUniqueAndDefaultsInRange) {
  std::set<std::string> names;
  const Params defaults;
  for (const ParamDesc& d : paramTable()) {
    EXPECT_TRUE(names.insert(d.name).second) << d.name;
    if (d.type == ParamType::Vec3) {
      const glm::vec3 v = d.getVec(defaults);
      for (int i = 0; i < 3; ++i) {
        EXPECT_GE(v[i], d.min) << d.name;
        EXPECT_LE(v[i], d.max) << d.name;
      }
    } else {
      EXPECT_GE(d.get(defaults), d.min) << d.name;
      EXPECT_LE(d.get(defaults), d.max) << d.name;
    }
  }
  for (const char* required :
       {"dt", "iterations", "k_stretch", "k_bend", "resolution", "solver", "gravity", "substeps",
        "bending", "k_pressure", "damping", "friction", "restitution", "thickness"})
    EXPECT_NE(findParam(required), nullptr) << required;
}

TEST(Params, SetsEveryTypeFromText) {
  Params p;
  ASSERT_TRUE(setParamAssignment(p, "dt=0.005"));
  EXPECT_FLOAT_EQ(p.dt, 0.005f);
  ASSERT_TRUE(setParamAssignment(p, "iterations=25"));
  EXPECT_EQ(p.iterations, 25);
  ASSERT_TRUE(setParamAssignment(p, "solver=xpbd"));
  EXPECT_EQ(p.solver, SolverKind::Xpbd);
  ASSERT_TRUE(setParamAssignment(p, "gravity=0,-3.5,1"));
  EXPECT_EQ(p.gravity, glm::vec3(0.0f, -3.5f, 1.0f));
  ASSERT_TRUE(setParamAssignment(p, "gravity=-1.62"));
  EXPECT_EQ(p.gravity, glm::vec3(0.0f, -1.62f, 0.0f));
  // Round trip through the text form.
  for (const ParamDesc& d : paramTable()) {
    Params q;
    ASSERT_TRUE(setParam(q, d.name, formatParam(p, d))) << d.name;
    EXPECT_EQ(formatParam(q, d), formatParam(p, d)) << d.name;
  }
}

TEST(Params, SwitchesTakeTheWordsPeopleType) {
  const ParamDesc* self = findParam("self_collision");
  ASSERT_NE(self, nullptr);
  EXPECT_TRUE(isSwitch(*self));
  EXPECT_TRUE(isSwitch(*findParam("tethers")));
  EXPECT_FALSE(isSwitch(*findParam("iterations")));
  for (const char* on : {"1", "true", "TRUE", "on", "On", "yes", " yes "}) {
    Params p;
    ASSERT_TRUE(setParam(p, "self_collision", on)) << on;
    EXPECT_EQ(p.self_collision, 1) << on;
  }
  for (const char* off : {"0", "false", "off", "NO"}) {
    Params p;
    p.self_collision = 1;
    ASSERT_TRUE(setParam(p, "self_collision", off)) << off;
    EXPECT_EQ(p.self_collision, 0) << off;
  }
  for (const char* bad : {"2", "maybe", "onn", ""}) {
    Params p;
    auto r = setParam(p, "self_collision", bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().find("true/false, on/off or yes/no"), std::string::npos) << r.error();
  }
  // Words are for switches only.
  Params p;
  EXPECT_FALSE(setParam(p, "iterations", "true"));
}

TEST(Params, RefusesBadValuesNamingKeyAndRange) {
  Params p;
  const Params before = p;
  struct Case {
    const char* text;
    const char* mustContain;
  };
  for (const Case& c : {Case{"dt=-1", "[0.0001, 0.25]"}, Case{"dt=nan", "dt"}, Case{"dt=inf", "dt"},
                        Case{"dt=", "dt"}, Case{"dt=0.01x", "dt"}, Case{"iterations=0", "[1, 200]"},
                        Case{"iterations=2.5", "integer"}, Case{"solver=euler", "pbd, xpbd"},
                        Case{"k_stretch=1.5", "[0, 1]"}, Case{"gravity=1,2", "x,y,z"},
                        Case{"resolution=100000", "resolution"},
                        Case{"nope=1", "unknown parameter 'nope'"}, Case{"dt", "KEY=VALUE"}}) {
    auto r = setParamAssignment(p, c.text);
    ASSERT_FALSE(r) << c.text;
    EXPECT_NE(r.error().find(c.mustContain), std::string::npos) << c.text << ": " << r.error();
  }
  for (const ParamDesc& d : paramTable()) EXPECT_EQ(formatParam(p, d), formatParam(before, d));
}

TEST(Params, ComplianceFollowsStiffness) {
  EXPECT_EQ(complianceFromStiffness(1.0f, 1e-3f), 0.0f);
  EXPECT_TRUE(std::isinf(complianceFromStiffness(0.0f, 1e-3f)));
  EXPECT_FLOAT_EQ(complianceFromStiffness(0.5f, 1e-3f), 1e-3f);
  EXPECT_LT(complianceFromStiffness(0.9f, 1.0f), complianceFromStiffness(0.1f, 1.0f));
}

TEST(Params, TheStiffnessHelpNamesTheMaterialTheSolverTakes) {
  // The table says once what k means physically; the text must follow the
  // code: D(0.5) in N·m and Y(0.5) in N/m, and the rigid bending cap.
  auto help = [](const char* name) { return std::string(findParam(name)->help); };
  char unit[64];
  std::snprintf(unit, sizeof unit, "D = %g (k/(1 − k))³ N·m", drape::sim::bendingStiffness(0.5));
  EXPECT_NE(help("k_bend").find(unit), std::string::npos) << help("k_bend");
  std::snprintf(unit, sizeof unit, "at most %g N·m", drape::sim::bendingStiffness(1.0));
  EXPECT_NE(help("k_bend").find(unit), std::string::npos) << help("k_bend");
  EXPECT_NE(help("k_stretch").find("Y = 10⁴ (k/(1 − k))² N/m"), std::string::npos);
  EXPECT_DOUBLE_EQ(drape::sim::stretchModulus(0.5), 1e4);
}

TEST(Params, OnlyRebuildMarkedChangesNeedARebuild) {
  const Params base;
  Params live = base;
  live.k_bend = 0.7f;
  live.friction = 1.2f;
  EXPECT_FALSE(needsRebuild(base, live));
  Params rebuilt = base;
  rebuilt.resolution = base.resolution + 1;
  EXPECT_TRUE(needsRebuild(base, rebuilt));
  rebuilt = base;
  rebuilt.density = 2.0f * base.density;
  EXPECT_TRUE(needsRebuild(base, rebuilt));
  EXPECT_FALSE(needsRebuild(base, base));
}
