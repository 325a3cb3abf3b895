// Every constraint gradient against central finite differences (Müller et al. 2007),
// in double precision on random non-degenerate configurations.

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gradient_check.hpp"
#include "scene/shapes.hpp"
#include "sim/constraints.hpp"
#include "sim/mesh.hpp"
#include "sim/solve/seams.hpp"

using namespace drape::sim;
using dvec3 = glm::dvec3;
using drape::test_support::expectNear;
using drape::test_support::numericGradient;

namespace {

dvec3 randomPoint(std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return {u(rng), u(rng), u(rng)};
}

}  // namespace

TEST(Gradient, StretchMatchesFiniteDifferences) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<dvec3> x = {randomPoint(rng), randomPoint(rng)};
    const double rest = 0.7;
    auto f = [&](const std::vector<dvec3>& p) { return evalStretch(p[0], p[1], rest).C; };
    const auto e = evalStretch(x[0], x[1], rest);
    ASSERT_TRUE(e.valid);
    for (std::size_t i = 0; i < 2; ++i) expectNear(e.grad[i], numericGradient(f, x, i), 1e-6);
  }
}

// A seam is the stretch constraint with a rest length that shrinks to 0
// (solve/seams.hpp): checked there too, and while it holds at 0.
TEST(Gradient, SeamMatchesFiniteDifferencesWhileClosingAndHeld) {
  std::mt19937 rng(7);
  const Seam seam{0, 1, 0.4f};
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<dvec3> x = {randomPoint(rng), randomPoint(rng)};
    const double rest = double(seamRest(seam, trial % 2 == 0 ? 0.1 : 2.0, 0.5f));
    auto f = [&](const std::vector<dvec3>& p) { return evalStretch(p[0], p[1], rest).C; };
    const auto e = evalStretch(x[0], x[1], rest);
    ASSERT_TRUE(e.valid);
    for (std::size_t i = 0; i < 2; ++i) expectNear(e.grad[i], numericGradient(f, x, i), 1e-6);
  }
}

TEST(Gradient, RodAngleMatchesFiniteDifferences) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<dvec3> x = {randomPoint(rng), randomPoint(rng), randomPoint(rng)};
    const double rest = 0.3;
    auto f = [&](const std::vector<dvec3>& p) { return evalRodAngle(p[0], p[1], p[2], rest).C; };
    const auto e = evalRodAngle(x[0], x[1], x[2], rest);
    ASSERT_TRUE(e.valid);
    for (std::size_t i = 0; i < 3; ++i) expectNear(e.grad[i], numericGradient(f, x, i), 1e-5);
  }
}

TEST(Gradient, RodAngleIsTheTurnAndInvalidWhenStraight) {
  const dvec3 a(0.0), b(1.0, 0.0, 0.0), c(1.0, 1.0, 0.0), d(2.0, 0.0, 0.0);
  const auto right = evalRodAngle(a, b, c, 0.0);
  ASSERT_TRUE(right.valid);
  EXPECT_NEAR(right.C, 0.5 * 3.14159265358979, 1e-12);
  EXPECT_FALSE(evalRodAngle(a, b, d, 0.0).valid);
  EXPECT_FALSE(evalRodAngle(a, a, d, 0.0).valid);
}

TEST(Gradient, PointPlaneMatchesFiniteDifferences) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> fraction(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<dvec3> x = {randomPoint(rng), randomPoint(rng), randomPoint(rng)};
    // Barycentric weights of a triangle's point, or an edge's (third 0).
    const double u = fraction(rng), v = (1.0 - u) * fraction(rng);
    const double w[3] = {u, v, trial % 2 ? 0.0 : 1.0 - u - v};
    const dvec3 q = randomPoint(rng), n = glm::normalize(randomPoint(rng) + dvec3(0.0, 2.0, 0.0));
    auto f = [&](const std::vector<dvec3>& p) {
      const dvec3 at[3] = {p[0], p[1], p[2]};
      return evalPointPlane(at, w, q, n).C;
    };
    const dvec3 at[3] = {x[0], x[1], x[2]};
    const auto e = evalPointPlane(at, w, q, n);
    for (std::size_t i = 0; i < 3; ++i) expectNear(e.grad[i], numericGradient(f, x, i), 1e-6);
  }
}

TEST(Gradient, DihedralMatchesFiniteDifferences) {
  std::mt19937 rng(2);
  int checked = 0;
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<dvec3> x = {randomPoint(rng), randomPoint(rng), randomPoint(rng), randomPoint(rng)};
    const double rest = std::uniform_real_distribution<double>(-3.0, 3.0)(rng);
    const auto e = evalDihedral(x[0], x[1], x[2], x[3], rest);
    if (!e.valid) continue;
    // Keep away from the ±π wrap, where C jumps and differences are meaningless.
    if (std::abs(e.C) > 3.0) continue;
    // And from nearly degenerate triangles, where the angle is ill-conditioned.
    const double a1 = glm::length(glm::cross(x[2] - x[0], x[3] - x[0]));
    const double a2 = glm::length(glm::cross(x[3] - x[1], x[2] - x[1]));
    if (a1 < 0.05 || a2 < 0.05) continue;
    auto f = [&](const std::vector<dvec3>& p) {
      return evalDihedral(p[0], p[1], p[2], p[3], rest).C;
    };
    for (std::size_t i = 0; i < 4; ++i) expectNear(e.grad[i], numericGradient(f, x, i), 1e-5);
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

TEST(Gradient, DihedralAngleIsSignedAndZeroWhenFlat) {
  // Flat pair: x0 and x1 on opposite sides of the edge along z.
  const dvec3 x2(0, 0, 0), x3(0, 0, 1);
  const dvec3 x0(-1, 0, 0.5), x1(1, 0, 0.5);
  double theta = 1.0;
  ASSERT_TRUE(dihedralAngle(x0, x1, x2, x3, theta));
  EXPECT_NEAR(theta, 0.0, 1e-12);
  // Fold x1 up or down: the angle changes sign.
  double up = 0.0, down = 0.0;
  ASSERT_TRUE(dihedralAngle(x0, dvec3(1, 0.5, 0.5), x2, x3, up));
  ASSERT_TRUE(dihedralAngle(x0, dvec3(1, -0.5, 0.5), x2, x3, down));
  EXPECT_GT(std::abs(up), 0.3);
  EXPECT_NEAR(up, -down, 1e-12);
}

TEST(Gradient, IsometricMatchesFiniteDifferences) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    const dvec3 r[4] = {randomPoint(rng), randomPoint(rng), randomPoint(rng), randomPoint(rng)};
    const IsometricQ<double> q = isometricQ(r[0], r[1], r[2], r[3]);
    if (!q.valid) continue;
    const double rest = isometricValue(r, q.q);
    std::vector<dvec3> x = {randomPoint(rng), randomPoint(rng), randomPoint(rng), randomPoint(rng)};
    const auto e = evalIsometric(x.data(), q.q, rest);
    auto f = [&](const std::vector<dvec3>& p) { return evalIsometric(p.data(), q.q, rest).C; };
    for (std::size_t i = 0; i < 4; ++i) expectNear(e.grad[i], numericGradient(f, x, i), 1e-5);
  }
}

TEST(Gradient, IsometricIsZeroForFlatStencils) {
  // Any planar stencil has zero mean curvature: C and ∇C vanish.
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 100; ++trial) {
    const dvec3 x[4] = {{-1 + 0.2 * u(rng), 0, 0.5 + 0.2 * u(rng)},
                        {1 + 0.2 * u(rng), 0, 0.5 + 0.2 * u(rng)},
                        {0.1 * u(rng), 0, 0},
                        {0.1 * u(rng), 0, 1}};
    const IsometricQ<double> q = isometricQ(x[0], x[1], x[2], x[3]);
    ASSERT_TRUE(q.valid);
    const auto e = evalIsometric(x, q.q, 0.0);
    EXPECT_NEAR(e.C, 0.0, 1e-12);
    for (const dvec3& g : e.grad) EXPECT_NEAR(glm::length(g), 0.0, 1e-9);
  }
}

TEST(Gradient, VolumeMatchesFiniteDifferences) {
  // The balloon constraint over a whole closed mesh (Müller et al. 2007, §4.4).
  const TriMesh sphere = drape::scene::makeIcosphere(1, 0.5f, glm::vec3(0.1f, 0.2f, 0.3f));
  std::mt19937 rng(5);
  std::vector<dvec3> x;
  for (const glm::vec3& p : sphere.positions) x.push_back(dvec3(p) + 0.05 * randomPoint(rng));
  auto sixV = [&](const std::vector<dvec3>& p) {
    double s = 0.0;
    for (const glm::uvec3& t : sphere.triangles)
      s += glm::dot(glm::cross(p[t[0]], p[t[1]]), p[t[2]]);
    return s;
  };
  std::vector<dvec3> grad(x.size(), dvec3(0.0));
  for (const glm::uvec3& t : sphere.triangles) {
    dvec3 ga, gb, gc;
    volumeGradient(x[t[0]], x[t[1]], x[t[2]], ga, gb, gc);
    grad[t[0]] += ga;
    grad[t[1]] += gb;
    grad[t[2]] += gc;
  }
  for (std::size_t i = 0; i < x.size(); ++i) expectNear(grad[i], numericGradient(sixV, x, i), 1e-6);
}

TEST(Gradient, HalfSpaceMatchesFiniteDifferences) {
  std::mt19937 rng(6);
  for (int trial = 0; trial < 50; ++trial) {
    const dvec3 q = randomPoint(rng), n = glm::normalize(randomPoint(rng));
    std::vector<dvec3> x = {randomPoint(rng)};
    auto f = [&](const std::vector<dvec3>& p) { return evalHalfSpace(p[0], q, n, 0.01).C; };
    expectNear(evalHalfSpace(x[0], q, n, 0.01).grad[0], numericGradient(f, x, 0), 1e-7);
  }
}

TEST(Gradient, DegenerateInputGivesNoNaN) {
  const glm::vec3 a(0.0f), b(1.0f, 0.0f, 0.0f);
  // Coincident stretch ends.
  EXPECT_FALSE(evalStretch(a, a, 1.0f).valid);
  // Zero-area triangles in a bending stencil.
  const auto e = evalDihedral(a, glm::vec3(2.0f, 0.0f, 0.0f), a, b, 0.0f);
  EXPECT_FALSE(e.valid);
  const auto q = isometricQ(a, a, a, b);
  EXPECT_FALSE(q.valid);
  // pbdScale refuses a zero denominator (all vertices pinned).
  const auto s = evalStretch(a, b, 0.5f);
  const float w[2] = {0.0f, 0.0f};
  float scale = 0.0f;
  EXPECT_FALSE(pbdScale(s, w, scale));
}
