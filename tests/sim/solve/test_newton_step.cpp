// XPBD's Newton step after the iterations (newton_step.hpp): the equations
// it solves, what it does to a clamped strip, and that it stays optional.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "scene_helpers.hpp"
#include "sim/constraints.hpp"
#include "sim/solve/coefficients.hpp"
#include "sim/solve/coloring.hpp"
#include "sim/solve/newton_step.hpp"
#include "sim/step/step.hpp"
#include "sim/world.hpp"

using namespace drape;

namespace {

// A strip `along` × 5 vertices, 1 m × 0.2 m, clamped along its first two
// columns, settled under XPBD with `sets`: the mean droop of its free end
// over the last 60 of 400 frames.
double stripDroop(int along, float kBend, const std::vector<std::string>& sets) {
  sim::Params params;
  params.solver = sim::SolverKind::Xpbd;
  params.damping = 0.1f;
  params.k_bend = kBend;
  for (const std::string& s : sets) EXPECT_TRUE(sim::setParamAssignment(params, s)) << s;
  constexpr int kAcross = 5;
  auto world = scene::worldFromMesh(
      scene::makeSheet(along, kAcross, {0.0f, 1.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.2f}),
      params);
  EXPECT_TRUE(world);
  sim::World& w = world.value();
  for (int j = 0; j < kAcross; ++j)
    for (int i = 0; i < 2; ++i) sim::pinVertex(w, std::uint32_t(j * along + i));
  double droop = 0.0;
  for (int f = 0; f < 400; ++f) {
    sim::step(w);
    if (f < 340) continue;
    double tip = 0.0;
    for (int j = 0; j < kAcross; ++j)
      tip += double(w.state.x[std::size_t(j * along + along - 1)].y);
    droop += 1.0 - tip / kAcross;
  }
  return droop / 60.0;
}

// A 5 × 4 sheet bent and stretched out of its rest shape, one corner
// pinned, its inertial target a little lower, its edges' multipliers
// `lambda` × a pattern of both signs; XPBD's compliances, mesh order.
struct Bent {
  sim::World world;
  std::vector<glm::vec4> buffer, before;
  sim::PackedStretch ps;
  sim::PackedBend pb;
  sim::Coefficients c;
  std::vector<float> lambdaS, lambdaB;
  sim::NewtonScratch sc;
  sim::NewtonPreconditioner factor;
  double meanRest = 0.0;

  explicit Bent(float lambda) : world(make()) {
    const sim::Cloth& cloth = world.cloth;
    const std::size_t n = world.state.x.size();
    buffer.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const glm::vec3 x = world.state.x[i];
      const float bump = 0.005f * std::sin(7.0f * x.x + 3.0f * x.z);
      buffer[i] = glm::vec4(1.02f * x.x, x.y + bump, x.z, 1.0f / cloth.mass[i]);
    }
    buffer[0].w = 0.0f;  // pinned
    ps = sim::packStretch(cloth.stretch, n, false);
    pb = sim::packBend(cloth.bend, n, false);
    c.xpbd = true;
    c.alphaStretch = 0.05f;
    c.alphaBend = 400.0f;
    lambdaS.resize(ps.size());
    for (std::size_t j = 0; j < lambdaS.size(); ++j) lambdaS[j] = lambda * (float(j % 5) - 2.0f);
    lambdaB.assign(pb.size(), 0.0f);
    for (float r : ps.rest) meanRest += double(r) / double(ps.size());
    sc.coarse = sim::buildNewtonCoarse(cloth, std::vector<float>(n, 1.0f));
    sc.predicted = buffer;
    for (glm::vec4& q : sc.predicted) q.y -= 0.002f;  // gravity's pull
    before = buffer;
  }
  static sim::World make() {
    sim::Params params;
    auto w = scene::worldFromMesh(
        scene::makeSheet(5, 4, {0.0f, 0.0f, 0.0f}, {0.4f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.3f}), params);
    EXPECT_TRUE(w);
    return std::move(w.value());
  }
  void step() {
    const sim::Points pts = sim::Points::ofBuffer(buffer.data(), glm::vec3(0.0f));
    sim::newtonStep(pts, ps, pb, c, lambdaS.data(), lambdaB.data(), 400, 1e-12, true, sc, factor);
  }
  double moved() const {
    double most = 0.0;
    for (std::size_t i = 0; i < buffer.size(); ++i)
      most = std::max(most, double(glm::length(glm::vec3(buffer[i]) - glm::vec3(before[i]))));
    return most;
  }
};

}  // namespace

TEST(NewtonStep, SolvesTheLinearisedXpbdEquations) {
  // After one step solved to convergence, M (x' − x̃) + G Δx = Σ ∇C(x) λ'
  // holds at every free vertex: the linearised equations of XPBD, λ' the
  // step's new multipliers, G the taut edges' λ ∇²C (−λ / l across each
  // edge where λ < 0). A pinned vertex does not move.
  Bent b(1e-5f);
  const std::vector<float> lambdaBefore = b.lambdaS;
  b.step();
  ASSERT_LT(b.moved(), sim::kNewtonMaxMove * b.meanRest);  // not bounded
  const std::size_t n = b.buffer.size();
  const sim::PackedStretch& ps = b.ps;
  const sim::PackedBend& pb = b.pb;
  std::vector<glm::dvec3> force(n, glm::dvec3(0.0));
  auto at = [&](std::uint32_t i) { return glm::dvec3(glm::vec3(b.before[i])); };
  auto moveOf = [&](std::uint32_t i) {
    return glm::dvec3(glm::vec3(b.buffer[i]) - glm::vec3(b.before[i]));
  };
  for (std::size_t j = 0; j < ps.size(); ++j) {
    const auto e = sim::evalStretch<double>(at(ps.a[j]), at(ps.b[j]), double(ps.rest[j]));
    force[ps.a[j]] += double(b.lambdaS[j]) * e.grad[0];
    force[ps.b[j]] += double(b.lambdaS[j]) * e.grad[1];
    if (lambdaBefore[j] >= 0.0f) continue;
    const glm::dvec3 d = at(ps.a[j]) - at(ps.b[j]), dir = glm::normalize(d);
    const double t = -double(lambdaBefore[j]) / glm::length(d);
    const glm::dvec3 du = moveOf(ps.a[j]) - moveOf(ps.b[j]);
    const glm::dvec3 across = t * (du - glm::dot(du, dir) * dir);
    force[ps.a[j]] -= across;
    force[ps.b[j]] += across;
  }
  for (std::size_t j = 0; j < pb.size(); ++j) {
    const std::uint32_t v[4] = {pb.v0[j], pb.v1[j], pb.v2[j], pb.v3[j]};
    const auto e =
        sim::evalDihedral<double>(at(v[0]), at(v[1]), at(v[2]), at(v[3]), double(pb.restAngle[j]));
    for (int k = 0; k < 4; ++k) force[v[k]] += double(b.lambdaB[j]) * e.grad[k];
  }
  double largest = 0.0, worst = 0.0;
  for (std::size_t i = 1; i < n; ++i) {
    const glm::dvec3 inertia =
        double(b.world.cloth.mass[i]) *
        (glm::dvec3(glm::vec3(b.buffer[i])) - glm::dvec3(glm::vec3(b.sc.predicted[i])));
    largest = std::max(largest, glm::length(inertia));
    worst = std::max(worst, glm::length(inertia - force[i]));
  }
  EXPECT_GT(largest, 1e-7);
  EXPECT_LT(worst, 1e-3 * largest);
  EXPECT_EQ(glm::vec3(b.buffer[0]), glm::vec3(b.before[0]));
}

TEST(NewtonStep, NoVertexMovesFurtherThanItsBound) {
  // Multipliers far beyond what the vertices' inertia balances ask for a
  // long move: it is scaled down to a quarter of the mean rest edge.
  Bent b(1e-2f);
  b.step();
  EXPECT_NEAR(b.moved(), sim::kNewtonMaxMove * b.meanRest, 1e-5);
  EXPECT_EQ(glm::vec3(b.buffer[0]), glm::vec3(b.before[0]));
}

TEST(NewtonStep, EnvelopeCholeskySolves) {
  // A banded SPD matrix with a gap in its envelope.
  sim::EnvelopeCholesky f;
  f.n = 4;
  f.a = {4, 1, 0, 0,  //
         1, 5, 2, 0,  //
         0, 2, 6, 0,  //
         0, 0, 0, 3};
  const std::vector<double> a = f.a;
  ASSERT_TRUE(f.factor());
  std::vector<double> b = {1, 2, 3, 4};
  const std::vector<double> rhs = b;
  f.solve(b.data());
  for (int i = 0; i < 4; ++i) {
    double s = 0.0;
    for (int j = 0; j < 4; ++j) s += a[std::size_t(4 * i + j)] * b[std::size_t(j)];
    EXPECT_NEAR(s, rhs[std::size_t(i)], 1e-12);
  }
  sim::EnvelopeCholesky g;
  g.n = 2;
  g.a = {1, 2, 2, 1};  // indefinite
  EXPECT_FALSE(g.factor());
}

TEST(NewtonStep, StripDroopsAsKBendSaysAtTheDefaultBudget) {
  // The default budget lands within 10 % of 25 sub-steps × 10 iterations at
  // k_bend 0.2 (the sweeps carry it) and 0.5 (the step carries it: without
  // it the strip droops as if softer); a stiffer k_bend droops less, and
  // k_bend 1 holds the strip out straight.
  const int kAlong = 21;
  const double soft = stripDroop(kAlong, 0.2f, {}), stiff = stripDroop(kAlong, 0.5f, {});
  const double softRef = stripDroop(kAlong, 0.2f, {"substeps=25", "iterations=10"});
  const double stiffRef = stripDroop(kAlong, 0.5f, {"substeps=25", "iterations=10"});
  EXPECT_NEAR(soft, softRef, 0.1 * softRef);
  EXPECT_NEAR(stiff, stiffRef, 0.1 * stiffRef);
  EXPECT_LT(stiff, 0.8 * soft);
  const double stiffOff = stripDroop(kAlong, 0.5f, {"newton_cg=0"});
  EXPECT_GT(stiffOff, 1.1 * stiff);
  EXPECT_LT(stripDroop(kAlong, 1.0f, {}), 0.05);
  std::printf(
      "strip droop: k_bend 0.2 %.3f (25 x 10: %.3f), 0.5 %.3f (%.3f, without the step %.3f)\n",
      soft, softRef, stiff, stiffRef, stiffOff);
}

TEST(NewtonStep, SameBitsOnAnyThreadCount) {
  // 64²: enough constraints that the solver's team splits the sweeps among
  // its threads (at 20² it keeps them on one).
  auto run = [](const char* threads) {
    sim::World w =
        test_support::buildScene("hang", {"solver=xpbd", "resolution=64", "k_bend=0.3", threads});
    EXPECT_EQ(sim::solverThreads(w.params.threads, w.cloth.stretch.size() + w.cloth.bend.size()),
              w.params.threads);
    for (int f = 0; f < 8; ++f) sim::step(w);
    return test_support::hashPositions(w);
  };
  const std::uint64_t one = run("threads=1");
  EXPECT_EQ(one, run("threads=2"));
  EXPECT_EQ(one, run("threads=3"));
}
