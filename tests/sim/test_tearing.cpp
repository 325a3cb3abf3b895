// Tearing (paper §5.4): splitting a vertex on a small fan, a randomised
// stress test that checks every invariant of the rest data after every split,
// the tear scene ripping apart, a torn balloon bursting, determinism.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "scene_helpers.hpp"
#include "sim/stats.hpp"
#include "sim/step/step.hpp"
#include "sim/tearing.hpp"

using namespace drape;
using test_support::buildScene;
using test_support::hashPositions;

namespace {

using Edge = std::pair<std::uint32_t, std::uint32_t>;
Edge edgeOf(std::uint32_t a, std::uint32_t b) {
  return a < b ? Edge{a, b} : Edge{b, a};
}

std::array<std::uint32_t, 3> sorted(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::array<std::uint32_t, 3> t{a, b, c};
  std::sort(t.begin(), t.end());
  return t;
}

std::uint32_t root(std::vector<std::uint32_t>& parent, std::uint32_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

double restArea(const sim::Cloth& c, const glm::uvec3& t) {
  const glm::dvec3 a(c.restPositions[t[0]]), b(c.restPositions[t[1]]), d(c.restPositions[t[2]]);
  return 0.5 * glm::length(glm::cross(b - a, d - a));
}

// Every invariant of a cloth whose topology tearing may have changed; empty
// when they all hold, else what is wrong.
std::string topologyProblem(const sim::World& w, double density) {
  std::ostringstream err;
  const sim::Cloth& c = w.cloth;
  const std::size_t n = c.restPositions.size();
  if (w.state.x.size() != n || w.state.p.size() != n || w.state.v.size() != n ||
      w.state.w.size() != n || c.mass.size() != n || c.piece.size() != n)
    return "per-vertex arrays disagree on the vertex count";

  std::map<Edge, int> edgeTriangles;
  std::set<std::array<std::uint32_t, 3>> triangles;
  std::vector<std::vector<std::uint32_t>> around(n);  // triangles per vertex
  for (std::uint32_t t = 0; t < c.triangles.size(); ++t) {
    const glm::uvec3& tri = c.triangles[t];
    for (int k = 0; k < 3; ++k)
      if (tri[k] >= n) return "triangle " + std::to_string(t) + " has a stale index";
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) return "degenerate triangle";
    if (!triangles.insert(sorted(tri[0], tri[1], tri[2])).second) return "duplicate triangle";
    for (int k = 0; k < 3; ++k) {
      ++edgeTriangles[edgeOf(tri[k], tri[(k + 1) % 3])];
      around[tri[k]].push_back(t);
    }
  }
  std::set<Edge> edges, interior;
  for (const auto& [e, count] : edgeTriangles) {
    if (count > 2) return "an edge has more than two triangles";
    edges.insert(e);
    if (count == 2) interior.insert(e);
  }

  std::set<Edge> stretch;
  for (const sim::StretchConstraint& s : c.stretch) {
    if (s.a >= n || s.b >= n) return "stretch constraint with a stale index";
    if (!stretch.insert(edgeOf(s.a, s.b)).second) return "two stretch constraints on one edge";
    const float len = glm::length(c.restPositions[s.a] - c.restPositions[s.b]);
    if (std::abs(len - s.rest) > 1e-5f * std::max(1.0f, len)) return "stretch rest length changed";
  }
  if (stretch != edges) return "stretch constraints are not the triangles' edges";

  auto hinges = [&](const auto& list, const char* what) -> std::string {
    std::set<Edge> seen;
    for (const auto& b : list) {
      for (int k = 0; k < 4; ++k)
        if (b.v[k] >= n) return std::string(what) + " with a stale index";
      if (!triangles.count(sorted(b.v[0], b.v[2], b.v[3])) ||
          !triangles.count(sorted(b.v[1], b.v[2], b.v[3])))
        return std::string(what) + " across triangles that do not exist";
      if (!seen.insert(edgeOf(b.v[2], b.v[3])).second)
        return std::string("two ") + what + "s on one edge";
    }
    if (seen != interior) return std::string(what) + "s are not the interior edges";
    return "";
  };
  if (std::string e = hinges(c.bend, "bend constraint"); !e.empty()) return e;
  if (std::string e = hinges(c.isoBend, "isometric bend constraint"); !e.empty()) return e;

  // Masses: a third of ρ·(rest area) of each adjacent triangle; the total
  // is ρ times the rest area.
  std::vector<double> expected(n, 0.0);
  double total = 0.0, sum = 0.0;
  for (const glm::uvec3& t : c.triangles) {
    const double a = density * restArea(c, t);
    total += a;
    for (int k = 0; k < 3; ++k) expected[t[k]] += a / 3.0;
  }
  for (std::size_t i = 0; i < n; ++i) {
    sum += c.mass[i];
    if (!(c.mass[i] > 0.0f)) return "vertex " + std::to_string(i) + " has no mass";
    if (std::abs(c.mass[i] - expected[i]) > 1e-3 * expected[i])
      return "vertex " + std::to_string(i) + " mass is not its triangles' share";
  }
  if (std::abs(sum - total) > 1e-4 * total) return "masses do not sum to density times area";

  // Each vertex's triangles form one fan (no vertex joins surfaces that
  // only touch there).
  for (std::uint32_t v = 0; v < n; ++v) {
    const std::vector<std::uint32_t>& fan = around[v];
    if (fan.empty()) return "vertex " + std::to_string(v) + " has no triangle";
    std::vector<std::uint32_t> parent(fan.size());
    std::iota(parent.begin(), parent.end(), 0u);
    for (std::size_t i = 0; i < fan.size(); ++i)
      for (std::size_t j = i + 1; j < fan.size(); ++j) {
        int shared = 0;
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b)
            shared += c.triangles[fan[i]][a] == c.triangles[fan[j]][b] ? 1 : 0;
        if (shared >= 2) parent[root(parent, std::uint32_t(i))] = root(parent, std::uint32_t(j));
      }
    for (std::size_t i = 0; i < fan.size(); ++i)
      if (root(parent, std::uint32_t(i)) != root(parent, 0))
        return "bowtie at vertex " + std::to_string(v);
  }

  // Pins and inverse masses.
  std::set<std::uint32_t> pinned;
  for (const sim::Pin& pin : w.pins) {
    if (pin.vertex >= n) return "pin with a stale index";
    if (!pinned.insert(pin.vertex).second) return "vertex pinned twice";
    if (w.state.w[pin.vertex] != 0.0f) return "pinned vertex with inverse mass";
  }
  for (std::uint32_t i = 0; i < n; ++i)
    if (!pinned.count(i) && std::abs(w.state.w[i] * c.mass[i] - 1.0f) > 1e-4f)
      return "inverse mass of vertex " + std::to_string(i) + " is stale";

  // Pieces: the connected components of the mesh.
  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  for (const Edge& e : edges) parent[root(parent, e.first)] = root(parent, e.second);
  std::map<std::uint32_t, std::uint32_t> label;
  for (std::uint32_t i = 0; i < n; ++i) {
    auto [it, fresh] = label.emplace(root(parent, i), c.piece[i]);
    if (!fresh && it->second != c.piece[i]) return "a piece is split between labels";
  }
  std::set<std::uint32_t> labels(c.piece.begin(), c.piece.end());
  if (labels.size() != label.size() || c.pieceCount != label.size()) return "wrong piece count";

  if (c.pressureActive && !edges.empty() && interior.size() != edges.size())
    return "pressure on an open surface";
  return "";
}

// A hexagon fan in the x–z plane: centre 0, ring vertices 1..6 at 0°, 60°, …
sim::World hexFan() {
  sim::TriMesh mesh;
  mesh.positions.push_back(glm::vec3(0.0f));
  for (int i = 0; i < 6; ++i) {
    const float a = float(i) * 1.04719755f;
    mesh.positions.push_back({std::cos(a), 0.0f, std::sin(a)});
  }
  for (std::uint32_t i = 1; i <= 6; ++i) mesh.triangles.push_back({0, i % 6 + 1, i});
  sim::Params params;
  params.density = 1.0f;
  auto world = scene::worldFromMesh(mesh, params);
  EXPECT_TRUE(world) << world.error();
  return std::move(world.value());
}

bool usesVertex(const glm::uvec3& t, std::uint32_t v) {
  return t[0] == v || t[1] == v || t[2] == v;
}

}  // namespace

TEST(Tearing, SplitVertexOnAFan) {
  sim::World w = hexFan();
  ASSERT_EQ(topologyProblem(w, 1.0), "");
  ASSERT_EQ(w.cloth.stretch.size(), 12u);
  ASSERT_EQ(w.cloth.bend.size(), 6u);
  const float centreMass = w.cloth.mass[0];
  const std::uint64_t version = w.cloth.topologyVersion;
  w.state.v[0] = glm::vec3(0.1f, 0.2f, 0.3f);

  // The plane x + 0.2 z = 0: triangles centred at 330°, 30°, 90° keep the
  // centre, those at 150°, 210°, 270° go to the duplicate. The spokes to
  // ring vertices 3 (120°) and 6 (300°) had a triangle on each side: two
  // torn edges. The cut runs from rim to rim, so those two rim vertices are
  // parted too and the hexagon falls in two.
  const sim::TearResult r = sim::splitVertex(w, 0, glm::vec3(1.0f, 0.0f, 0.2f));
  ASSERT_TRUE(r.split);
  EXPECT_EQ(r.vertex, 0u);
  EXPECT_EQ(r.duplicate, 7u);
  EXPECT_EQ(r.tornEdges, 2u);
  EXPECT_EQ(r.boundarySplits, 2u);
  EXPECT_EQ(w.tornEdges, 2u);
  EXPECT_EQ(w.vertexCount(), 10u);
  EXPECT_EQ(topologyProblem(w, 1.0), "");
  for (const glm::uvec3& t : w.cloth.triangles) {
    const glm::vec3 centroid =
        (w.cloth.restPositions[t[0]] + w.cloth.restPositions[t[1]] + w.cloth.restPositions[t[2]]) /
        3.0f;
    const bool front = centroid.x + 0.2f * centroid.z > 0.0f;
    EXPECT_EQ(usesVertex(t, 0), front);
    EXPECT_EQ(usesVertex(t, 7), !front);
  }
  EXPECT_EQ(w.cloth.stretch.size(), 14u);
  EXPECT_EQ(w.cloth.bend.size(), 4u);
  EXPECT_EQ(w.cloth.isoBend.size(), 4u);
  EXPECT_NEAR(w.cloth.mass[0], 0.5f * centreMass, 1e-6f);
  EXPECT_NEAR(w.cloth.mass[7], 0.5f * centreMass, 1e-6f);
  EXPECT_EQ(w.state.x[7], w.state.x[0]);
  EXPECT_EQ(w.state.v[7], w.state.v[0]);
  EXPECT_EQ(w.cloth.restPositions[7], w.cloth.restPositions[0]);
  EXPECT_EQ(w.cloth.restPositions[8], w.cloth.restPositions[3]);
  EXPECT_EQ(w.cloth.restPositions[9], w.cloth.restPositions[6]);
  EXPECT_EQ(w.cloth.pieceCount, 2u);
  EXPECT_NE(w.cloth.piece[0], w.cloth.piece[7]);
  EXPECT_FALSE(w.cloth.closed);
  EXPECT_GT(w.cloth.topologyVersion, version);

  // The centre now sits on the boundary: its fan is a chain, cut once,
  // through the spoke to ring vertex 1; the triangle at 330° comes off.
  const sim::TearResult again = sim::splitVertex(w, 0, glm::vec3(0.0f, 0.0f, 1.0f));
  ASSERT_TRUE(again.split);
  EXPECT_EQ(again.tornEdges, 1u);
  EXPECT_EQ(again.boundarySplits, 1u);
  EXPECT_EQ(w.vertexCount(), 12u);
  EXPECT_EQ(w.cloth.pieceCount, 3u);
  EXPECT_EQ(w.tornEdges, 3u);
  EXPECT_EQ(topologyProblem(w, 1.0), "");

  // No split: a vertex with one triangle, a plane with every triangle on one
  // side, no plane. Nothing changes.
  const std::uint64_t before = w.cloth.topologyVersion;
  EXPECT_FALSE(sim::splitVertex(w, again.duplicate, glm::vec3(1.0f, 0.0f, 0.0f)).split);
  EXPECT_FALSE(sim::splitVertex(w, 2, glm::vec3(0.5f, 0.0f, 0.866f)).split);  // both inward
  EXPECT_FALSE(sim::splitVertex(w, 0, glm::vec3(0.0f)).split);
  EXPECT_EQ(w.cloth.topologyVersion, before);
  EXPECT_EQ(w.vertexCount(), 12u);
}

TEST(Tearing, SplittingEveryVertexApartLeavesSeparateTriangles) {
  // Split every vertex of a small grid over and over by varying planes:
  // the cloth ends as triangles that share no vertex, one piece each.
  sim::World w =
      scene::worldFromMesh(scene::makeGrid(4, 1.0f, glm::vec3(0.0f)), sim::Params{}).value();
  const std::size_t triangles = w.cloth.triangles.size();
  for (int round = 0; round < 20; ++round)
    for (std::uint32_t v = 0; v < w.vertexCount(); ++v) {
      const float a = 0.7f * float(round) + 0.3f * float(v);
      if (sim::splitVertex(w, v, glm::vec3(std::cos(a), 0.0f, std::sin(a))).split) {
        ASSERT_EQ(topologyProblem(w, w.params.density), "") << "round " << round << " vertex " << v;
      }
    }
  EXPECT_EQ(w.vertexCount(), 3 * triangles);
  EXPECT_EQ(w.cloth.pieceCount, triangles);
  EXPECT_TRUE(w.cloth.bend.empty());
  EXPECT_EQ(w.cloth.stretch.size(), 3 * triangles);
}

TEST(Tearing, RandomPullsKeepTheTopologyValidAfterEverySplit) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::size_t splits = 0;
  for (int trial = 0; trial < 8; ++trial) {
    sim::Params params;
    params.density = 0.1f + 0.1f * float(trial);
    params.tethers = trial % 2;
    params.gravity = glm::vec3(0.0f, -9.81f * float(trial % 3) / 2.0f, 0.0f);
    const float threshold = 1.1f + 0.1f * float(trial % 5);
    const int n = 5 + trial;
    sim::TriMesh mesh = trial % 4 == 3
                            ? scene::makeIcosphere(2, 0.5f, glm::vec3(0.0f))
                            : scene::makeGrid(n, 0.5f + 0.25f * float(trial), glm::vec3(0.0f));
    auto built = scene::worldFromMesh(mesh, params);
    ASSERT_TRUE(built) << built.error();
    sim::World w = std::move(built.value());
    // A few vertices pulled in random directions, some held still.
    std::set<std::uint32_t> chosen;
    while (chosen.size() < std::size_t(2 + trial % 4))
      chosen.insert(std::uint32_t(rng() % w.vertexCount()));
    for (std::uint32_t v : chosen) {
      sim::Motion m;
      if (rng() % 4 != 0)
        m.velocity = (1.0f + 2.0f * float(rng() % 3)) *
                     glm::normalize(glm::vec3(unit(rng), unit(rng), unit(rng)) + glm::vec3(1e-3f));
      sim::pinVertex(w, v, m);
    }
    ASSERT_EQ(topologyProblem(w, params.density), "");
    // Even trials tear by hand after each frame, checking after every split;
    // odd ones let the step tear and check after each frame.
    const bool byHand = trial % 2 == 0;
    w.params.tear = byHand ? 0.0f : threshold;
    for (int frame = 0; frame < 60; ++frame) {
      const std::size_t before = w.vertexCount();
      sim::step(w);
      ASSERT_TRUE(sim::allFinite(w)) << "trial " << trial << " frame " << frame;
      if (byHand) {
        std::vector<std::pair<float, std::uint32_t>> over;
        for (std::uint32_t j = 0; j < w.cloth.stretch.size(); ++j) {
          const sim::StretchConstraint& c = w.cloth.stretch[j];
          const float ratio = glm::length(w.state.x[c.a] - w.state.x[c.b]) / c.rest;
          if (ratio > threshold) over.push_back({-ratio, j});
        }
        std::sort(over.begin(), over.end());
        std::size_t done = 0;
        for (const auto& [ratio, j] : over) {
          if (done >= std::max<std::size_t>(1, w.vertexCount() / 200)) break;
          if (!sim::tearEdge(w, j).split) continue;
          ++done;
          ASSERT_EQ(topologyProblem(w, params.density), "")
              << "trial " << trial << " frame " << frame;
        }
      } else {
        ASSERT_EQ(topologyProblem(w, params.density), "")
            << "trial " << trial << " frame " << frame;
      }
      splits += w.vertexCount() - before;
    }
  }
  EXPECT_GT(splits, 100u);
}

TEST(Tearing, TearSceneRipsIntoPieces) {
  sim::World w = buildScene("tear");
  ASSERT_GT(w.params.tear, 1.0f);
  const std::size_t vertices = w.vertexCount();
  // Two seconds: the moving pins rip their corners off within about 1.5 s
  // at any budget from 1 × 3 to 3 × 8, though what comes off first may be a
  // triangle or two at a pin.
  for (int frame = 0; frame < 120; ++frame) sim::step(w);
  EXPECT_GE(w.cloth.pieceCount, 2u);
  EXPECT_GT(w.tornEdges, 0u);
  EXPECT_GT(w.vertexCount(), vertices);
  EXPECT_TRUE(sim::allFinite(w));
  EXPECT_EQ(topologyProblem(w, w.params.density), "");
  // Torn apart, not a triangle shed: the second largest piece is sizeable.
  std::vector<std::size_t> size(w.cloth.pieceCount, 0);
  for (const glm::uvec3& t : w.cloth.triangles) ++size[w.cloth.piece[t[0]]];
  std::sort(size.rbegin(), size.rend());
  EXPECT_GE(size[1], 20u);
}

TEST(Tearing, NothingTearsWhenOff) {
  sim::World w = buildScene("tear", {"tear=0"});
  const std::uint64_t built = w.cloth.topologyVersion;
  for (int frame = 0; frame < 120; ++frame) sim::step(w);
  EXPECT_EQ(w.tornEdges, 0u);
  EXPECT_EQ(w.cloth.topologyVersion, built);
  EXPECT_EQ(w.cloth.pieceCount, 1u);
  EXPECT_GT(sim::strainStats(w).max, 0.5f);  // it was pulled hard enough to tear
}

TEST(Tearing, TornBalloonLosesItsPressure) {
  // Pull the top and bottom of a balloon apart; with tearing it rips, the
  // surface is open and the pressure constraint goes; without, it holds.
  for (int tear = 0; tear < 2; ++tear) {
    sim::World w = buildScene("balloon", {tear ? "tear=1.3" : "tear=0", "gravity=0"});
    ASSERT_TRUE(w.cloth.pressureActive);
    const auto [top, bottom] = test_support::pullTopAndBottomApart(w);
    for (int frame = 0; frame < 60 && w.cloth.pressureActive; ++frame) sim::step(w);
    EXPECT_EQ(w.cloth.pressureActive, !tear);
    EXPECT_EQ(w.cloth.closed, !tear);
    // Let go and drop it on the floor: the whole balloon keeps its volume,
    // the burst one collapses.
    sim::unpinVertex(w, top);
    sim::unpinVertex(w, bottom);
    w.params.gravity = glm::vec3(0.0f, -9.81f, 0.0f);
    w.params.tear = 0.0f;
    for (int frame = 0; frame < 180; ++frame) sim::step(w);
    ASSERT_TRUE(sim::allFinite(w));
    if (tear) {
      // An unstretchable shell slumps only where it creases: by a third.
      EXPECT_LT(sim::currentVolume(w), 0.75f * sim::restVolume(w));
    } else {
      EXPECT_GT(sim::currentVolume(w), 0.9f * sim::restVolume(w));
    }
  }
}

TEST(Tearing, TearSceneIsDeterministic) {
  sim::World a = buildScene("tear"), b = buildScene("tear");
  for (int frame = 0; frame < 150; ++frame) {
    sim::step(a);
    sim::step(b);
  }
  EXPECT_GT(a.tornEdges, 0u);
  EXPECT_EQ(a.tornEdges, b.tornEdges);
  EXPECT_EQ(a.vertexCount(), b.vertexCount());
  EXPECT_EQ(hashPositions(a), hashPositions(b));
}
