// The outline test of the normal-cone tree (outline.hpp): which closed
// chains of sides are one simple loop running counter-clockwise.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sim/self/outline.hpp"

namespace drape {
namespace {

using sim::OutlineSide;

// The loop through `corners` in order (vertex k at corners[k]).
std::vector<OutlineSide> loop(const std::vector<glm::dvec2>& corners) {
  std::vector<OutlineSide> sides;
  const std::uint32_t n = std::uint32_t(corners.size());
  for (std::uint32_t k = 0; k < n; ++k)
    sides.push_back({corners[k], corners[(k + 1) % n], k, (k + 1) % n});
  return sides;
}

bool simple(const std::vector<OutlineSide>& sides) {
  sim::OutlineScratch scratch;
  return sim::simpleOutline(sides, scratch);
}

TEST(Outline, AConvexLoopCountsWhereItRunsCounterClockwise) {
  const std::vector<glm::dvec2> square{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  EXPECT_TRUE(simple(loop(square)));
  EXPECT_FALSE(simple(loop({square.rbegin(), square.rend()})));
  // Far from the origin, the same.
  std::vector<glm::dvec2> far = square;
  for (glm::dvec2& p : far) p = p * 1e-3 + glm::dvec2(1e3, -1e3);
  EXPECT_TRUE(simple(loop(far)));
}

TEST(Outline, SimpleLoopsThatAreNotStarShapedCount) {
  // Two grid clusters meeting corner to corner along a staircase (a Z: no
  // point sees every side), and a C.
  const std::vector<glm::dvec2> z{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {-1, 2}, {-1, 1}, {0, 1}};
  EXPECT_TRUE(simple(loop(z)));
  const std::vector<glm::dvec2> c{{0, 0}, {3, 0}, {3, 1}, {1, 1}, {1, 2}, {3, 2}, {3, 3}, {0, 3}};
  EXPECT_TRUE(simple(loop(c)));
}

TEST(Outline, ALoopThatCrossesOrTouchesItselfDoesNotCount) {
  // The outline of a band wound 1.3 times round: its end runs over its start.
  std::vector<glm::dvec2> band;
  const int steps = 60;
  for (int k = 0; k <= steps; ++k) {
    const double a = 2.0 * M_PI * 1.3 * k / steps;
    band.push_back(1.2 * glm::dvec2(std::cos(a), std::sin(a)));
  }
  for (int k = steps; k >= 0; --k) {
    const double a = 2.0 * M_PI * 1.3 * k / steps;
    band.push_back(0.8 * glm::dvec2(std::cos(a), std::sin(a)));
  }
  EXPECT_FALSE(simple(loop(band)));
  // A C closed until its arms touch.
  const std::vector<glm::dvec2> touching{{0, 0}, {3, 0}, {3, 1}, {1, 1}, {1, 2},
                                         {3, 2}, {3, 3}, {0, 3}, {0, 2}, {2, 1}};
  EXPECT_FALSE(simple(loop(touching)));
}

TEST(Outline, TwoLoopsOrAVertexPassedTwiceDoNotCount) {
  std::vector<OutlineSide> two = loop({{0, 0}, {1, 0}, {1, 1}, {0, 1}});
  for (OutlineSide s : loop({{2, 0}, {3, 0}, {3, 1}, {2, 1}})) {
    s.from += 4;
    s.to += 4;
    two.push_back(s);
  }
  EXPECT_FALSE(simple(two));
  // A bow tie's two triangles sharing a corner (vertex 0 starts two sides).
  std::vector<OutlineSide> bow{{{0, 0}, {1, -1}, 0, 1},   {{1, -1}, {1, 1}, 1, 2},
                               {{1, 1}, {0, 0}, 2, 0},    {{0, 0}, {-1, 1}, 0, 3},
                               {{-1, 1}, {-1, -1}, 3, 4}, {{-1, -1}, {0, 0}, 4, 0}};
  EXPECT_FALSE(simple(bow));
}

}  // namespace
}  // namespace drape
