// The batched solver: valid colouring, the same result on every path (SIMD or
// scalar, any thread count), and the same physics as plain Gauss-Seidel.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <set>

#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "sim/cpu.hpp"
#include "sim/solve/coloring.hpp"
#include "sim/solve/kernel_args.hpp"
#include "sim/solve/ranges.hpp"
#include "sim/solve/tethers.hpp"
#include "sim/stats.hpp"
#include "sim/step/context.hpp"
#include "sim/step/step.hpp"

using namespace drape;

namespace {

sim::World hang(const std::vector<std::string>& sets) {
  const scene::SceneInfo* info = scene::findScene("hang");
  sim::Params params = scene::sceneParams(*info);
  for (const std::string& s : sets) EXPECT_TRUE(sim::setParamAssignment(params, s)) << s;
  auto built = info->build(params);
  return std::move(built->world);
}

std::vector<glm::vec3> positionsAfter(const std::vector<std::string>& sets, int frames) {
  sim::World w = hang(sets);
  for (int i = 0; i < frames; ++i) sim::step(w);
  return w.state.x;
}

bool bitIdentical(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec3)) == 0;
}

}  // namespace

TEST(Colouring, EveryConstraintOnceAndNoSharedVertexWithinAColour) {
  auto prepared = sim::prepareMesh(scene::makeGrid(40, 2.0f, glm::vec3(0)));
  const sim::Cloth cloth = sim::buildCloth(prepared.value(), 0.1f);
  const sim::PackedStretch ps = sim::packStretch(cloth.stretch, cloth.vertexCount());
  const sim::PackedBend pb = sim::packBend(cloth.bend, cloth.vertexCount());
  ASSERT_EQ(ps.size(), cloth.stretch.size());
  ASSERT_EQ(pb.size(), cloth.bend.size());
  EXPECT_EQ(ps.serialColour, UINT32_MAX);
  EXPECT_LT(ps.colourStart.size(), 20u);
  std::multiset<std::pair<std::uint32_t, std::uint32_t>> original, packed;
  for (const auto& c : cloth.stretch) original.insert({c.a, c.b});
  for (std::size_t i = 0; i < ps.size(); ++i) packed.insert({ps.a[i], ps.b[i]});
  EXPECT_EQ(original, packed);
  for (std::size_t c = 0; c + 1 < ps.colourStart.size(); ++c) {
    std::set<std::uint32_t> seen;
    for (std::uint32_t i = ps.colourStart[c]; i < ps.colourStart[c + 1]; ++i) {
      EXPECT_TRUE(seen.insert(ps.a[i]).second);
      EXPECT_TRUE(seen.insert(ps.b[i]).second);
    }
  }
  for (std::size_t c = 0; c + 1 < pb.colourStart.size(); ++c) {
    std::set<std::uint32_t> seen;
    for (std::uint32_t i = pb.colourStart[c]; i < pb.colourStart[c + 1]; ++i)
      for (std::uint32_t v : {pb.v0[i], pb.v1[i], pb.v2[i], pb.v3[i]})
        EXPECT_TRUE(seen.insert(v).second);
  }
}

TEST(Colouring, AGridIsPackedInBlocksThatShareNoVertex) {
  // 64²: each block's constraints stay inside it and each seam's inside
  // the two blocks it joins; an even block holds the seams on either side
  // of it, and the units of a round (the even blocks with their seams, then
  // the odd blocks) share no vertex, so threads project them without
  // meeting. Few edges and hinges lie on seams, and none across more than
  // two blocks.
  auto prepared = sim::prepareMesh(scene::makeGrid(64, 2.0f, glm::vec3(0)));
  const sim::Cloth cloth = sim::buildCloth(prepared.value(), 0.1f);
  const std::size_t n = cloth.vertexCount();
  const sim::PackedBend pb = sim::packBend(cloth.bend, n);
  const sim::PackedStretch ps = sim::packStretch(cloth.stretch, n);
  ASSERT_EQ(ps.blocks.size(), sim::kSolveBlocks);
  ASSERT_EQ(pb.blocks.size(), sim::kSolveBlocks);
  auto blockOf = [&](std::uint32_t v) { return sim::solveBlockOf(v, n); };
  std::size_t inBlocks = 0, onSeams = 0, packed = 0;
  std::vector<std::set<std::uint32_t>> unitVertices(sim::kSolveBlocks);
  for (std::size_t g = 0; g < sim::kSolveBlocks; ++g) {
    for (const bool seam : {true, false}) {
      const std::vector<std::uint32_t>& start =
          seam ? pb.blocks[g].seams.start : pb.blocks[g].inside.start;
      // Only the even blocks hold seams.
      if (seam && g % 2 == 1) {
        EXPECT_EQ(start.size(), 1u);
      } else {
        ASSERT_GE(start.size(), 2u);
      }
      EXPECT_EQ(start.front(), packed);
      for (std::size_t c = 0; c + 1 < start.size(); ++c) {
        std::set<std::uint32_t> seen;
        for (std::uint32_t i = start[c]; i < start[c + 1]; ++i) {
          std::set<std::size_t> blocks;
          for (std::uint32_t v : {pb.v0[i], pb.v1[i], pb.v2[i], pb.v3[i]}) {
            blocks.insert(blockOf(v));
            unitVertices[g].insert(v);
            EXPECT_TRUE(seen.insert(v).second);
          }
          if (seam) {
            ASSERT_EQ(blocks.size(), 2u);
            EXPECT_TRUE(blocks.count(g));
            EXPECT_EQ(*blocks.rbegin() - *blocks.begin(), 1u);
          } else {
            EXPECT_EQ(blocks, std::set<std::size_t>{g});
          }
        }
      }
      (seam ? onSeams : inBlocks) += start.back() - start.front();
      packed = start.back();
    }
    for (std::uint32_t i = ps.blocks[g].inside.start.front(); i < ps.blocks[g].inside.start.back();
         ++i) {
      EXPECT_EQ(blockOf(ps.a[i]), g);
      EXPECT_EQ(blockOf(ps.b[i]), g);
    }
  }
  // The units of each round share no vertex.
  for (std::size_t g = 0; g < sim::kSolveBlocks; ++g)
    for (std::size_t h = g + 2; h < sim::kSolveBlocks; h += 2)
      for (std::uint32_t v : unitVertices[g]) EXPECT_FALSE(unitVertices[h].count(v)) << v;
  // Nothing across more than two blocks; few on the seams.
  EXPECT_EQ(pb.colourStart.front(), inBlocks + onSeams);
  EXPECT_EQ(pb.colourStart.back(), pb.size());
  EXPECT_EQ(ps.colourStart.back(), ps.colourStart.front());
  EXPECT_GT(onSeams, 0u);
  EXPECT_LT(double(onSeams), 0.1 * double(pb.size()));

  // Indices that do not follow the surface: no blocks, colours as before.
  std::vector<sim::StretchConstraint> shuffled = cloth.stretch;
  std::vector<std::uint32_t> perm(n);
  for (std::uint32_t i = 0; i < n; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), std::mt19937(7));
  for (sim::StretchConstraint& c : shuffled) {
    c.a = perm[c.a];
    c.b = perm[c.b];
  }
  const sim::PackedStretch loose = sim::packStretch(shuffled, n);
  EXPECT_TRUE(loose.blocks.empty());
  EXPECT_EQ(loose.colourStart.back(), loose.size());
  // Too few to share among threads: no blocks either.
  auto small = sim::prepareMesh(scene::makeGrid(24, 2.0f, glm::vec3(0)));
  const sim::Cloth smallCloth = sim::buildCloth(small.value(), 0.1f);
  EXPECT_TRUE(sim::packStretch(smallCloth.stretch, smallCloth.vertexCount()).blocks.empty());
}

TEST(Batched, SimdAndScalarPathsAreBitIdentical) {
  for (const char* solver : {"solver=pbd", "solver=xpbd"}) {
    const std::vector<std::string> sets = {"resolution=20", solver, "threads=1"};
    sim::setAvx2Enabled(true);
    const auto simd = positionsAfter(sets, 60);
    sim::setAvx2Enabled(false);
    const auto scalar = positionsAfter(sets, 60);
    sim::setAvx2Enabled(true);
    EXPECT_TRUE(bitIdentical(simd, scalar)) << solver;
  }
}

TEST(Batched, ThreadCountDoesNotChangeTheResult) {
  // Large enough that two and four threads really split the colours; with
  // more than one sweep of the stretch constraints too.
  for (const char* sweeps : {"stretch_sweeps=1", "stretch_sweeps=3"}) {
    const auto one = positionsAfter({"resolution=64", sweeps, "threads=1"}, 20);
    const auto two = positionsAfter({"resolution=64", sweeps, "threads=2"}, 20);
    const auto four = positionsAfter({"resolution=64", sweeps, "threads=4"}, 20);
    EXPECT_TRUE(bitIdentical(one, two)) << sweeps;
    EXPECT_TRUE(bitIdentical(one, four)) << sweeps;
  }
}

TEST(Batched, SamePhysicsAsPlainGaussSeidel) {
  for (const char* solver : {"solver=pbd", "solver=xpbd"}) {
    sim::World fast = hang({"resolution=32", solver});
    sim::World plain = hang({"resolution=32", solver, "kernels=reference"});
    // The strain over the last second, its mean and 99th percentile
    // averaged: which frame of its swing a run ends on moves them by half.
    sim::StrainStats a, b;
    for (int i = 0; i < 240; ++i) {
      sim::step(fast);
      sim::step(plain);
      if (i < 180) continue;
      const sim::StrainStats fa = sim::strainStats(fast), pa = sim::strainStats(plain);
      a.mean += fa.mean / 60.0f;
      a.p99 += fa.p99 / 60.0f;
      b.mean += pa.mean / 60.0f;
      b.p99 += pa.p99 / 60.0f;
    }
    EXPECT_TRUE(sim::allFinite(fast));
    EXPECT_LT(std::abs(a.mean - b.mean), 0.25f * b.mean + 1e-4f)
        << solver << " " << a.mean << " vs " << b.mean;
    // The tail lives at the pins, where the order matters most: the mesh's
    // order runs from the pinned row down, the colours do not (last second
    // at 32²: XPBD 0.89 % against 0.49 %, PBD 0.22 % against 0.15 %).
    EXPECT_LT(a.p99, 2.0f * b.p99) << solver << " " << a.p99 << " vs " << b.p99;
    EXPECT_GT(a.p99, 0.5f * b.p99) << solver << " " << a.p99 << " vs " << b.p99;
    // Same overall shape; the swing's phase drifts apart with the order.
    const sim::Bounds fb = sim::bounds(fast), pb = sim::bounds(plain);
    EXPECT_LT(glm::length(fb.min - pb.min), 0.25f) << solver;
    EXPECT_LT(glm::length(fb.max - pb.max), 0.25f) << solver;
  }
}

// How far ten Gauss-Seidel iterations get on a hanging cloth depends on the
// order of the constraints; the fast path's colour order is one more order.
// Its worst frame (the largest mean edge strain over 4 s of swinging, W1 at
// 32²: no tethers) lies within what plain Gauss-Seidel gives in the mesh's
// order, reversed and shuffled (measured: 0.088, 0.110, 0.103; fast 0.096;
// with 8 iterations instead of 10, the fast path falls outside).
TEST(Batched, ConvergesWithinTheSpreadOfGaussSeidelOrders) {
  // The fine solve alone: one sub-step, no coarse levels, no Chebyshev.
  const std::vector<std::string> w1 = {"resolution=32", "substeps=1",  "iterations=10",
                                       "k_stretch=1",   "k_bend=0.01", "tethers=0",
                                       "levels=0",      "chebyshev=0"};
  auto worstMean = [](sim::World w, int order) {
    w.colliders.clear();
    if (order == 1) {
      std::reverse(w.cloth.stretch.begin(), w.cloth.stretch.end());
      std::reverse(w.cloth.bend.begin(), w.cloth.bend.end());
    } else if (order == 2) {
      std::mt19937 shuffle(7);
      std::shuffle(w.cloth.stretch.begin(), w.cloth.stretch.end(), shuffle);
      std::shuffle(w.cloth.bend.begin(), w.cloth.bend.end(), shuffle);
    }
    float worst = 0.0f;
    for (int i = 0; i < 240; ++i) {
      sim::step(w);
      worst = std::max(worst, sim::strainStats(w).mean);
    }
    EXPECT_TRUE(sim::allFinite(w));
    return worst;
  };
  std::vector<std::string> reference = w1;
  reference.push_back("kernels=reference");
  float lo = 1e9f, hi = 0.0f;
  for (int order = 0; order < 3; ++order) {
    const float worst = worstMean(hang(reference), order);
    lo = std::min(lo, worst);
    hi = std::max(hi, worst);
  }
  const float fast = worstMean(hang(w1), 0);
  EXPECT_GE(fast, lo) << lo << " .. " << hi;
  EXPECT_LE(fast, hi) << lo << " .. " << hi;
  // The orders do differ (a spread of over 10 %), so the bounds mean something.
  EXPECT_GT(hi, 1.1f * lo);
}

TEST(Batched, TethersOnTheBufferMatchThePlainProjectionBitForBit) {
  // A hanging cloth with its vertices pulled down by a fixed pattern, so
  // that many tethers act, and a held vertex (w = 0) that must stay.
  sim::World w = hang({"resolution=24", "tethers=1"});
  sim::step(w);
  const sim::Tethers& tethers = sim::contextOf(w).tethers;
  ASSERT_EQ(tethers.size(), w.state.x.size() - 2);
  std::vector<glm::vec3> p = w.state.x;
  for (std::size_t i = 0; i < p.size(); ++i)
    p[i] += glm::vec3(0.01f * float(i % 7), -0.3f * float(i % 5), 0.02f * float(i % 3));
  std::vector<float> mass = w.state.w;
  mass[tethers.vertex[5]] = 0.0f;
  const float slack = 1.05f;

  // The tether's projection written out: the free vertex pulled back to
  // rest · slack from its pin when further.
  std::vector<glm::vec3> plain = p;
  for (std::size_t j = 0; j < tethers.size(); ++j) {
    const std::uint32_t v = tethers.vertex[j];
    if (!(mass[v] > 0.0f)) continue;
    const glm::vec3 d = plain[v] - plain[tethers.anchor[j]];
    const float len = glm::length(d);
    const float rest = tethers.rest[j] * slack;
    if (len > rest) plain[v] -= ((len - rest) / len) * d;
  }
  std::size_t moved = 0;
  for (std::size_t i = 0; i < p.size(); ++i) moved += plain[i] != p[i] ? 1 : 0;
  EXPECT_GT(moved, p.size() / 4);
  EXPECT_EQ(plain[tethers.vertex[5]], p[tethers.vertex[5]]);

  for (bool avx2 : {true, false}) {
    sim::setAvx2Enabled(avx2);
    std::vector<float> buffer(4 * p.size());
    sim::batch::toSolveBuffer(reinterpret_cast<const float*>(p.data()), mass.data(), buffer.data(),
                              p.size());
    const sim::batch::TetherArgs args{buffer.data(), tethers.vertex.data(), tethers.anchor.data(),
                                      tethers.rest.data(), slack};
    // In pieces of odd sizes, as threads would split it.
    const std::size_t cut[] = {0, 3, 40, 41, 200, tethers.size()};
    for (std::size_t k = 0; k + 1 < std::size(cut); ++k)
      sim::batch::tetherRange(args, cut[k], cut[k + 1]);
    std::vector<glm::vec3> batched(p.size());
    sim::batch::fromSolveBuffer(buffer.data(), reinterpret_cast<float*>(batched.data()), p.size());
    EXPECT_TRUE(bitIdentical(batched, plain)) << (avx2 ? "avx2" : "scalar");
  }
  sim::setAvx2Enabled(true);
}
