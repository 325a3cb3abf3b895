// Vertex Block Descent (solver=vbd, Chen et al. 2024): each vertex's force
// and 3×3 block are the derivatives of its terms of the incremental
// potential, no two vertices of a colour share a constraint, a sweep lowers
// the potential, and the result is the same on any thread count. (A spring
// stretches by XPBD's compliance: Xpbd.SpringExtensionMatchesCompliance.)

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gradient_check.hpp"
#include "scene/shapes.hpp"
#include "scene_helpers.hpp"
#include "sim/constraints.hpp"
#include "sim/mesh.hpp"
#include "sim/models/vertex_block_descent.hpp"
#include "sim/solve/coefficients.hpp"
#include "sim/stats.hpp"
#include "sim/step/step.hpp"
#include "sim/world.hpp"

using namespace drape;
using test_support::buildScene;
using test_support::hashPositions;

namespace {

// A 4 × 4 grid's cloth with its vertices moved off the flat rest, targets
// y beside them, and its own position buffer.
struct Patch {
  sim::Cloth cloth;
  std::vector<glm::vec3> p;
  std::vector<float> w;
  std::vector<glm::vec4> target;
  sim::VbdTopology topology;

  explicit Patch(bool isometric, unsigned seed, float stretchBy = 1.0f, float by = 0.02f) {
    auto prepared = sim::prepareMesh(scene::makeGrid(3, 0.3f, glm::vec3(0.0f)));
    cloth = sim::buildCloth(prepared.value(), 0.1f);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> jitter(-by, by);
    for (std::size_t i = 0; i < cloth.vertexCount(); ++i) {
      const glm::vec3 x = stretchBy * cloth.restPositions[i];
      p.push_back(x + glm::vec3(jitter(rng), jitter(rng), jitter(rng)));
      w.push_back(1.0f / cloth.mass[i]);
      target.push_back(glm::vec4(x + glm::vec3(jitter(rng), jitter(rng), jitter(rng)), 0.0f));
    }
    sim::buildVbdTopology(cloth, isometric, topology);
  }
  sim::Points points() { return {reinterpret_cast<float*>(p.data()), w.data(), 3, 1}; }
  sim::VbdBlock block(const sim::VbdStiffness& k, std::uint32_t i) {
    return sim::vbdBlock(cloth, topology, points(), target.data(), k, i);
  }
  // The whole incremental potential: inertia plus ½ k C² of every constraint.
  double potential(const sim::VbdStiffness& k) {
    double g = 0.0;
    for (std::uint32_t i = 0; i < p.size(); ++i) {
      const glm::vec3 d = p[i] - glm::vec3(target[i]);
      g += 0.5 / (double(w[i]) * k.h * k.h) * double(glm::dot(d, d));
    }
    for (const sim::StretchConstraint& s : cloth.stretch) {
      const double c = double(glm::length(p[s.a] - p[s.b]) - s.rest);
      g += 0.5 * double(sim::vbdStiffness(k.kStretch, sim::kStretchComplianceUnit)) * c * c;
    }
    for (const sim::BendConstraint& b : cloth.bend) {
      const auto e = sim::evalDihedral(p[b.v[0]], p[b.v[1]], p[b.v[2]], p[b.v[3]], b.restAngle);
      if (e.valid)
        g += 0.5 * double(sim::vbdStiffness(k.kBend, sim::kBendComplianceUnit)) * double(e.C) *
             double(e.C);
    }
    return g;
  }
};

// The block's energy as a function of vertex i's position (double in, float inside).
double blockEnergy(Patch& patch, const sim::VbdStiffness& k, std::uint32_t i,
                   const glm::dvec3& at) {
  const glm::vec3 keep = patch.p[i];
  patch.p[i] = glm::vec3(at);
  const double e = patch.block(k, i).energy;
  patch.p[i] = keep;
  return e;
}

}  // namespace

TEST(Vbd, ForceIsMinusTheGradientOfTheVertexTerms) {
  // Soft enough that float's energies resolve the differences.
  const sim::VbdStiffness k{0.3f, 0.3f, 1.0f / 120.0f};
  for (bool isometric : {false, true}) {
    Patch patch(isometric, 7);
    for (std::uint32_t i = 0; i < patch.p.size(); ++i) {
      std::vector<glm::dvec3> x = {glm::dvec3(patch.p[i])};
      const glm::dvec3 numeric = -test_support::numericGradient(
          [&](std::vector<glm::dvec3>& at) { return blockEnergy(patch, k, i, at[0]); }, x, 0, 1e-4);
      test_support::expectNear(glm::dvec3(patch.block(k, i).force), numeric, 2e-2);
    }
  }
}

TEST(Vbd, StretchBlockIsTheHessianWhereEdgesAreLong) {
  // Every edge longer than its rest, bending off: the block is the exact
  // second derivative, checked column by column against the force's change.
  const sim::VbdStiffness k{0.3f, 0.0f, 1.0f / 120.0f};
  Patch patch(false, 11, 1.2f, 0.005f);
  for (const sim::StretchConstraint& e : patch.cloth.stretch)
    ASSERT_GT(glm::length(patch.p[e.a] - patch.p[e.b]), e.rest);
  for (std::uint32_t i = 0; i < patch.p.size(); ++i) {
    const glm::mat3 H = patch.block(k, i).hessian;
    const float trace = H[0][0] + H[1][1] + H[2][2];  // the scale of float's rounding
    const glm::vec3 keep = patch.p[i];
    for (int a = 0; a < 3; ++a) {
      const float eps = 1e-4f;
      patch.p[i][a] = keep[a] + eps;
      const glm::vec3 fp = patch.block(k, i).force;
      patch.p[i][a] = keep[a] - eps;
      const glm::vec3 fm = patch.block(k, i).force;
      patch.p[i] = keep;
      const glm::vec3 column = -(fp - fm) / (2.0f * eps);
      for (int b = 0; b < 3; ++b)
        EXPECT_NEAR(H[a][b], column[b], 2e-2f * std::abs(H[a][b]) + 1e-3f * trace)
            << i << " " << a << " " << b;
    }
  }
}

TEST(Vbd, BlocksArePositiveDefinite) {
  const sim::VbdStiffness k{1.0f, 0.5f, 1.0f / 120.0f};
  for (bool isometric : {false, true}) {
    Patch patch(isometric, 3, 0.9f);
    for (std::uint32_t i = 0; i < patch.p.size(); ++i) {
      const glm::mat3 H = patch.block(k, i).hessian;
      EXPECT_NEAR(H[0][1], H[1][0], 1e-3f * std::abs(H[0][0]));
      // Sylvester: the leading minors are positive.
      EXPECT_GT(H[0][0], 0.0f);
      EXPECT_GT(H[0][0] * H[1][1] - H[0][1] * H[1][0], 0.0f);
      EXPECT_GT(glm::determinant(H), 0.0f);
    }
  }
}

TEST(Vbd, NoTwoVerticesOfAColourShareAConstraint) {
  auto prepared = sim::prepareMesh(scene::makeGrid(20, 1.0f, glm::vec3(0.0f)));
  const sim::Cloth cloth = sim::buildCloth(prepared.value(), 0.1f);
  sim::VbdTopology t;
  sim::buildVbdTopology(cloth, false, t);
  std::vector<std::uint32_t> colour(cloth.vertexCount());
  ASSERT_EQ(t.byColour.size(), cloth.vertexCount());
  std::set<std::uint32_t> seen;
  for (std::uint32_t c = 0; c + 1 < t.colourStart.size(); ++c)
    for (std::uint32_t k = t.colourStart[c]; k < t.colourStart[c + 1]; ++k) {
      colour[t.byColour[k]] = c;
      seen.insert(t.byColour[k]);
    }
  EXPECT_EQ(seen.size(), cloth.vertexCount());  // each vertex once
  for (const sim::StretchConstraint& e : cloth.stretch) EXPECT_NE(colour[e.a], colour[e.b]);
  for (const sim::BendConstraint& b : cloth.bend)
    for (int r = 0; r < 4; ++r)
      for (int q = r + 1; q < 4; ++q) EXPECT_NE(colour[b.v[r]], colour[b.v[q]]);
  EXPECT_LE(t.colourStart.size() - 1, 12u);  // a grid needs few
}

TEST(Vbd, SweepsLowerThePotential) {
  const sim::VbdStiffness k{0.9f, 0.5f, 1.0f / 120.0f};
  Patch patch(false, 5);
  double before = patch.potential(k);
  for (int sweep = 0; sweep < 5; ++sweep) {
    for (std::uint32_t c = 0; c + 1 < patch.topology.colourStart.size(); ++c)
      sim::vbdSweep(patch.cloth, patch.topology, patch.points(), patch.target.data(), k,
                    patch.topology.colourStart[c], patch.topology.colourStart[c + 1]);
    const double after = patch.potential(k);
    EXPECT_LT(after, before) << sweep;
    before = after;
  }
}

TEST(Vbd, SameResultOnAnyThreadCount) {
  std::uint64_t hashes[3];
  int k = 0;
  for (int threads : {1, 2, 4}) {
    // Large enough that the team really takes that many threads.
    sim::World w =
        buildScene("drape", {"solver=vbd", "resolution=72", "threads=" + std::to_string(threads)});
    ASSERT_EQ(sim::solverThreads(threads, w.cloth.stretch.size() + w.cloth.bend.size()), threads);
    for (int i = 0; i < 30; ++i) sim::step(w);
    ASSERT_TRUE(sim::allFinite(w));
    hashes[k++] = hashPositions(w);
  }
  EXPECT_EQ(hashes[0], hashes[1]);
  EXPECT_EQ(hashes[0], hashes[2]);
}

TEST(Vbd, RunsTheScenes) {
  for (const char* name : {"hang", "drape", "balloon"}) {
    for (const char* bending : {"bending=dihedral", "bending=isometric"}) {
      sim::World w = buildScene(name, {"solver=vbd", "resolution=24", bending});
      for (int i = 0; i < 90; ++i) sim::step(w);
      EXPECT_TRUE(sim::allFinite(w)) << name;
      EXPECT_LT(sim::strainStats(w).mean, 0.1f) << name << " " << bending;
    }
  }
}
