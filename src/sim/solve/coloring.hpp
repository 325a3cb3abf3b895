#pragma once
// Graph colouring of constraints (as Box2D v3's constraint graph and Jolt's
// constraint groups do): constraints of one colour share no vertex, so they
// can be projected side by side in SIMD lanes and across threads with the
// result independent of how they are split. Constraints are packed in colour
// order into flat arrays (structure of arrays) for the batched kernels.

#include <cstdint>
#include <vector>

#include "sim/cloth.hpp"

namespace drape::sim {

// Colours of a run of packed constraints: colour c is [start[c], start[c + 1])
// of the packed arrays, `serial` the one whose members may conflict
// (UINT32_MAX: none).
struct ColourRun {
  std::vector<std::uint32_t> start;
  std::uint32_t serial = UINT32_MAX;
};

// The threads of the batched solver meet at a barrier after every colour,
// and a cloth's hinges and edges take many colours, so an iteration would
// wait at as many barriers. Where the mesh allows, the constraints are
// therefore packed in blocks: the vertex indices fall into kSolveBlocks
// equal ranges; the constraints whose vertices all lie in one range belong
// to its block, and those whose vertices lie in two neighbouring ranges to
// the seam between them; each block's own and each even block's seams
// (those on either side of it) are coloured on their own. A stage then
// takes two rounds and two barriers, each thread projecting whole blocks,
// colour after colour, without a barrier:
//
//      round 0:  seam 0|1, block 0   ‖  seams 1|2 and 2|3, block 2
//      round 1:  block 1             ‖  block 3
//
// The units of a round share no vertex (the seams either side of an odd
// block must not meet: where they would, every seam joins the rest below),
// so any thread count gives the same result. (Projected by thread 0 alone
// before both rounds, the seams would keep the other threads waiting.) Every
// seam still comes before both of its blocks: after them, the constraints
// across blocks would have the last word along the seams, and a soft grab
// would lag far behind the hand; after one of its blocks, a dragged cloth
// would stretch more at the seam. A grid's rows are ranges of indices, so few
// of its edges and hinges lie on seams, and none across more than two
// neighbouring blocks; those that are (colourStart) go first, on thread 0
// alone. Where more than kMaxAcross of them cross blocks (a mesh whose indices
// do not follow its surface), or where there are fewer than kMinBlocked
// constraints (too few to share among threads: solverThreads() in world.hpp), every colour
// is shared out as before and `blocks` is empty.
constexpr std::size_t kSolveBlocks = 4;
constexpr double kMaxAcross = 0.125;
constexpr std::size_t kMinBlocked = 4096;

// Block g's constraints and, for an even block, those of the seams on
// either side of it, projected first.
struct BlockRuns {
  ColourRun seams, inside;
};

// The blocks thread t of n projects in round 0 or 1 (the even blocks, then
// the odd ones): body(g) for each.
template <typename F>
void forEachBlockOfRound(int round, int t, int n, F&& body) {
  for (std::size_t g = std::size_t(round + 2 * t); g < kSolveBlocks; g += 2 * std::size_t(n))
    body(g);
}

// The block of vertex v of `vertexCount`.
inline std::size_t solveBlockOf(std::uint32_t v, std::size_t vertexCount) {
  return std::size_t(v) * kSolveBlocks / vertexCount;
}

struct PackedStretch {
  std::vector<std::uint32_t> a, b;
  std::vector<float> rest;
  std::vector<float> stiffness;   // material multipliers (cloth.hpp)
  std::vector<float> compliance;  // per unit of 1/Y (material.hpp, edgeCompliance)
  float mostCompliance = 0.0f;
  bool uniform = true;                      // every multiplier is 1
  std::vector<std::uint32_t> colourStart;   // colour c is [colourStart[c], colourStart[c + 1])
  std::uint32_t serialColour = UINT32_MAX;  // a last colour whose members may conflict
  bool coloured = true;                     // false: one serial colour in the cloth's order
  std::vector<BlockRuns> blocks;            // kSolveBlocks blocks before colourStart's, or none
  std::size_t size() const { return a.size(); }
};

struct PackedBend {
  std::vector<std::uint32_t> v0, v1, v2, v3;
  std::vector<float> restAngle, restLength, restArea;
  std::vector<float> stiffness;   // material multipliers (cloth.hpp)
  std::vector<float> compliance;  // per unit of 1/D (material.hpp, hingeCompliance)
  float mostCompliance = 0.0f;
  bool uniform = true;  // every multiplier is 1
  std::vector<std::uint32_t> colourStart;
  std::uint32_t serialColour = UINT32_MAX;
  bool coloured = true;
  std::vector<BlockRuns> blocks;
  std::size_t size() const { return v0.size(); }
};

// Greedy first-fit colouring in input order (deterministic). `vertices` holds
// `per` vertex indices for each of `count` constraints. At most 63 colours
// are independent; anything left goes to a 64th, serial colour.
std::vector<std::uint32_t> colourConstraints(const std::uint32_t* vertices, int per,
                                             std::size_t count, std::size_t vertexCount,
                                             std::uint32_t& colours);

// colourConstraints, then the constraints' order by colour (stable within
// a colour): colour c is [colourStart[c], colourStart[c + 1]) of that
// order, and serialColour the serial one, if any (else UINT32_MAX).
std::vector<std::uint32_t> colourOrder(const std::uint32_t* vertices, int per, std::size_t count,
                                       std::size_t vertexCount,
                                       std::vector<std::uint32_t>& colourStart,
                                       std::uint32_t& serialColour);

// The constraints packed by colour (in blocks where the mesh allows), or
// (coloured = false: the reference Gauss-Seidel order) as given, all in one
// serial colour.
PackedStretch packStretch(const std::vector<StretchConstraint>& c, std::size_t vertexCount,
                          bool coloured = true);
PackedBend packBend(const std::vector<BendConstraint>& c, std::size_t vertexCount,
                    bool coloured = true);

}  // namespace drape::sim
