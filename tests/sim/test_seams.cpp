// Seams (cloth.hpp, solve/seams.hpp): pairs of vertices pulled together
// over seam_close_time and then held, kept through welding and tearing.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "scene/shapes.hpp"
#include "scene_helpers.hpp"
#include "sim/sim.hpp"
#include "sim/solve/seams.hpp"
#include "sim/step/plan.hpp"
#include "sim/step/step.hpp"
#include "sim/tearing.hpp"

using namespace drape::sim;
using drape::test_support::hashPositions;

namespace {

constexpr int kSide = 9;  // vertices along each side of a panel

// Two 0.4 × 0.4 m panels in the planes z = 0 and z = 0.2, facing each
// other, their edges x = 0 sewn vertex to vertex.
TriMesh sewnPanels() {
  TriMesh a = drape::scene::makeSheet(kSide, kSide, {0, 1, 0}, {0.4f, 0, 0}, {0, 0.4f, 0});
  const TriMesh b = drape::scene::makeSheet(kSide, kSide, {0, 1, 0.2f}, {0, 0.4f, 0}, {0.4f, 0, 0});
  const auto offset = std::uint32_t(a.positions.size());
  a.positions.insert(a.positions.end(), b.positions.begin(), b.positions.end());
  for (const glm::uvec3& t : b.triangles) a.triangles.push_back(t + offset);
  a.cornerUVs.clear();
  // Panel a's vertex (0, j) is j·kSide; panel b's (j, 0) is offset + j.
  for (std::uint32_t j = 0; j < std::uint32_t(kSide); ++j)
    a.seams.emplace_back(j * kSide, offset + j);
  return a;
}

World sewnWorld(const std::vector<std::string>& sets = {}) {
  Params params;
  params.gravity = glm::vec3(0.0f);
  for (const std::string& s : sets) EXPECT_TRUE(setParamAssignment(params, s));
  auto prepared = prepareMesh(sewnPanels());
  EXPECT_TRUE(prepared) << prepared.error();
  return makeWorld(buildCloth(prepared.value(), params.density), params);
}

void stepFor(World& w, float seconds) {
  const int frames = int(std::lround(seconds / w.params.dt));
  for (int f = 0; f < frames; ++f) step(w);
}

}  // namespace

TEST(Seams, PreparationMapsThemToTheWeldedVertices) {
  TriMesh mesh = sewnPanels();
  // A copy of vertex 0 that welds into it, named by a seam of its own.
  mesh.positions.push_back(mesh.positions[0]);
  const auto copy = std::uint32_t(mesh.positions.size() - 1);
  mesh.triangles.push_back({copy, 1, kSide});
  mesh.seams.emplace_back(copy, 1);  // becomes 0–1
  mesh.seams.emplace_back(copy, 0);  // welds into one vertex: dropped
  auto prepared = prepareMesh(mesh);
  ASSERT_TRUE(prepared) << prepared.error();
  const std::vector<glm::uvec2>& seams = prepared->mesh.seams;
  ASSERT_EQ(seams.size(), std::size_t(kSide) + 1);
  for (const glm::uvec2& s : seams) EXPECT_NE(s[0], s[1]);
  EXPECT_EQ(seams.back(), glm::uvec2(prepared->inputToVertex[0], prepared->inputToVertex[1]));
  EXPECT_EQ(prepared->report.weldedSeams, 1u);
  bool noted = false;
  for (const std::string& r : prepared->report.repairs())
    noted = noted || r == "1 seams dropped (their two ends welded into one vertex)";
  EXPECT_TRUE(noted);
  const Cloth cloth = buildCloth(prepared.value(), 0.1f);
  ASSERT_EQ(cloth.seams.size(), seams.size());
  EXPECT_NEAR(cloth.seams[0].gap, 0.2f, 1e-6f);
}

TEST(Seams, PreparationRefusesSeamsThatNameNoVertexOfATriangle) {
  TriMesh mesh = sewnPanels();
  mesh.seams = {{0, 999}};
  auto r = prepareMesh(mesh);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "seam 1 refers to vertex 1000 of 162");
  mesh.seams = {{3, 3}};
  r = prepareMesh(mesh);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "seam 1 joins vertex 4 to itself");
  mesh.positions.push_back({5, 5, 5});  // on no triangle
  mesh.seams = {{0, 162}};
  r = prepareMesh(mesh);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "seam 1 refers to vertex 163, which is on no triangle");
}

TEST(Seams, RestShrinksToZeroOverTheClosingTime) {
  const Seam s{0, 1, 0.2f};
  EXPECT_FLOAT_EQ(seamRest(s, 0.0, 0.5f), 0.2f);
  EXPECT_FLOAT_EQ(seamRest(s, 0.25, 0.5f), 0.1f);
  EXPECT_FLOAT_EQ(seamRest(s, 0.5, 0.5f), 0.0f);
  EXPECT_FLOAT_EQ(seamRest(s, 3.0, 0.5f), 0.0f);
  EXPECT_FLOAT_EQ(seamRest(s, 0.0, 0.0f), 0.0f);
}

TEST(Seams, ProjectionIsCappedAndKeepsTheCentreOfMass) {
  State s;
  s.p = {{0, 0, 0}, {1, 0, 0}};
  s.w = {1.0f, 3.0f};
  const Seam seam{0, 1, 1.0f};
  const glm::vec3 centre = (s.p[0] / s.w[0] + s.p[1] / s.w[1]) / (1 / s.w[0] + 1 / s.w[1]);
  solveSeams(Points::of(s), &seam, 1, 10.0, 0.5f, 0.1f);
  EXPECT_NEAR(glm::length(s.p[1] - s.p[0]), 0.9f, 1e-6f);  // moved 0.1 m, not 1 m
  const glm::vec3 after = (s.p[0] / s.w[0] + s.p[1] / s.w[1]) / (1 / s.w[0] + 1 / s.w[1]);
  EXPECT_NEAR(glm::length(after - centre), 0.0f, 1e-6f);
  for (int k = 0; k < 20; ++k) solveSeams(Points::of(s), &seam, 1, 10.0, 0.5f, 0.1f);
  EXPECT_LT(glm::length(s.p[1] - s.p[0]), 1e-6f);
}

TEST(Seams, PanelsApartAreSewnAndStayFinite) {
  // With self collision too: a seam's ends skip each other's triangles, so
  // the contacts do not hold it a thickness open.
  for (const char* solver : {"solver=pbd", "solver=xpbd", "self_collision=1"}) {
    World w = sewnWorld({solver});
    EXPECT_NEAR(seamGapMax(w), 0.2f, 1e-6f);
    const StepPlan plan = planStep(w, planCrossingSearch(w));
    EXPECT_TRUE(plan.has(Stage::Seams));
    // Drawn in, not snapped: a third of the way through the closing, the
    // gap is still about two thirds of what it was.
    stepFor(w, w.params.seam_close_time / 3.0f);
    EXPECT_GT(seamGapMax(w), 0.1f) << solver;
    stepFor(w, 1.5f - w.params.seam_close_time / 3.0f);
    EXPECT_LE(seamGapMax(w), 0.002f) << solver;
    EXPECT_TRUE(allFinite(w)) << solver;
    // Held: another second changes nothing.
    stepFor(w, 1.0f);
    EXPECT_LE(seamGapMax(w), 0.002f) << solver;
    EXPECT_TRUE(allFinite(w)) << solver;
  }
}

TEST(Seams, NoStageWithoutSeams) {
  const World w = drape::test_support::buildScene("hang", {"resolution=8"});
  EXPECT_FALSE(planStep(w, planCrossingSearch(w)).has(Stage::Seams));
  EXPECT_EQ(seamGapMax(w), 0.0f);
}

TEST(Seams, SameBitsOnOneAndTwoThreads) {
  World one = sewnWorld({"threads=1"}), two = sewnWorld({"threads=2"});
  stepFor(one, 0.5f);
  stepFor(two, 0.5f);
  EXPECT_EQ(hashPositions(one), hashPositions(two));
}

// A split seam vertex hands its seams to its larger side (the duplicate
// when that has more of the vertex's mass); the seams close all the same.
TEST(Seams, TearingAndCutsKeepThemAndTheyStillClose) {
  int moved = 0;
  for (const float sign : {1.0f, -1.0f}) {
    World w = sewnWorld();
    stepFor(w, 0.1f);
    int splits = 0;
    for (std::uint32_t j = 1; j + 1 < std::uint32_t(kSide); ++j) {
      const std::uint32_t v = w.cloth.seams[j].a;
      // Planes at several slants, so that some leave unequal sides.
      const float angle = 0.4f + 0.3f * float(j);
      const TearResult r = splitVertex(w, v, sign * glm::vec3(std::cos(angle), std::sin(angle), 0));
      if (!r.split) continue;
      ++splits;
      const bool dupLarger = w.cloth.mass[r.duplicate] > w.cloth.mass[r.vertex];
      EXPECT_EQ(w.cloth.seams[j].a, dupLarger ? r.duplicate : r.vertex);
      moved += dupLarger ? 1 : 0;
    }
    EXPECT_GT(splits, 3);
    // A cut (the window's knife tears edges) across the other panel.
    const auto edges = std::uint32_t(w.cloth.stretch.size());
    for (std::uint32_t e = 0; e < edges; ++e) {
      const glm::vec3 a = w.cloth.restPositions[w.cloth.stretch[e].a];
      const glm::vec3 b = w.cloth.restPositions[w.cloth.stretch[e].b];
      if (a.z > 0.1f && (a.y - 1.2f) * (b.y - 1.2f) < 0.0f) tearEdge(w, e);
    }
    EXPECT_GT(w.tornEdges, 0u);
    for (const Seam& s : w.cloth.seams) {
      ASSERT_LT(s.a, w.vertexCount());
      ASSERT_LT(s.b, w.vertexCount());
    }
    stepFor(w, 1.5f);
    EXPECT_LE(seamGapMax(w), 0.002f);
    EXPECT_TRUE(allFinite(w));
  }
  EXPECT_GT(moved, 0);  // the rule was met both ways
  EXPECT_LT(moved, 2 * (kSide - 2));
}
