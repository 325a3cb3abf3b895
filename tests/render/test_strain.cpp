// The strain heat map's numbers and colours.

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "render/strain.hpp"

namespace drape::render {
namespace {

// A strip of two triangles: 0—1 along x, 2—3 above them.
//   2---3
//   | \ |
//   0---1
const std::vector<glm::vec3> kRest = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
std::vector<sim::StretchConstraint> edges() {
  return {{0, 1, 1.0f}, {0, 2, 1.0f}, {1, 2, std::sqrt(2.0f)}, {1, 3, 1.0f}, {2, 3, 1.0f}};
}

TEST(Strain, ZeroAtRest) {
  std::vector<float> s;
  std::vector<std::uint32_t> n;
  computeVertexStrain(kRest, edges(), s, n);
  ASSERT_EQ(s.size(), 4u);
  for (float v : s) EXPECT_NEAR(v, 0.0f, 1e-6f);
}

TEST(Strain, MeanOverTheVertexEdgesStretchedOrCompressed) {
  std::vector<glm::vec3> x = kRest;
  x[3].x = 1.2f;  // edge 2–3 stretched by 20 %, edge 1–3 a little longer
  std::vector<float> s;
  std::vector<std::uint32_t> n;
  computeVertexStrain(x, edges(), s, n);
  const float e13 = std::sqrt(0.04f + 1.0f) - 1.0f;
  EXPECT_NEAR(s[3], (0.2f + e13) / 2.0f, 1e-5f);
  EXPECT_NEAR(s[2], 0.2f / 3.0f, 1e-5f);  // edges 0–2, 1–2, 2–3
  EXPECT_NEAR(s[0], 0.0f, 1e-6f);
  // Compressed by 20 % counts like stretched by 20 %.
  x = kRest;
  x[3].x = 0.8f;
  computeVertexStrain(x, edges(), s, n);
  EXPECT_NEAR(s[2], 0.2f / 3.0f, 1e-5f);
}

TEST(Strain, VerticesWithoutEdgesAndStaleEdgesAreHarmless) {
  std::vector<glm::vec3> x = kRest;
  x.push_back({5, 5, 5});  // a fifth vertex with no edge
  std::vector<sim::StretchConstraint> e = edges();
  e.push_back({0, 99, 1.0f});  // names no vertex: skipped
  std::vector<float> s = {7.0f};
  std::vector<std::uint32_t> n;
  computeVertexStrain(x, e, s, n);
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[4], 0.0f);
  EXPECT_NEAR(s[0], 0.0f, 1e-6f);
}

TEST(StrainColor, RampFromItsFirstToItsLastStopAndClamped) {
  const auto same = [](const glm::vec3& a, const glm::vec3& b) {
    return glm::length(a - b) < 1e-6f;
  };
  EXPECT_TRUE(same(strainColor(0.0f), strainStop(0)));
  EXPECT_TRUE(same(strainColor(1.0f), strainStop(kStrainStops - 1)));
  EXPECT_TRUE(same(strainColor(7.0f), strainStop(kStrainStops - 1)));
  EXPECT_TRUE(same(strainColor(-1.0f), strainStop(0)));
  EXPECT_TRUE(same(strainColor(std::nanf("")), strainStop(0)));
  EXPECT_TRUE(same(strainColor(0.5f), strainStop(2)));
  // Between two stops: between their colours.
  const glm::vec3 mid = strainColor(0.125f);
  EXPECT_TRUE(same(mid, 0.5f * (strainStop(0) + strainStop(1))));
  // Low is blue, high is red: the reading everyone expects.
  EXPECT_GT(strainColor(0.0f).z, strainColor(0.0f).x);
  EXPECT_GT(strainColor(1.0f).x, strainColor(1.0f).z);
}

}  // namespace
}  // namespace drape::render
