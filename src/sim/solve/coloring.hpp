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

// The threads of the batched solver meet at a barrier after every colour:
// a 128² hang's hinges take 18 colours and its edges 8, so an iteration
// waited at some 30 barriers. Where the mesh allows, the constraints are
// therefore packed in blocks: the vertex indices fall into kSolveBlocks
// equal ranges, and the constraints whose vertices all lie in one range
// come first, block by block, each block coloured on its own; those across
// blocks (colourStart) after them. Thread 0 projects those across blocks,
// then each thread whole blocks, colour after colour, without a barrier
// (blocks share no vertex): two barriers a stage. A grid's rows are ranges
// of indices, so a 128² cloth has 1.6 % of its edges and 3.2 % of its
// hinges across blocks. Those go first: last, they had the last word along
// three seams, and a soft grab dragging a hanging 48² cloth a metre stayed
// 23 cm behind the hand instead of 7 mm (15 mm now). Where more than
// kMaxAcross of them cross blocks (a mesh whose indices do not follow its
// surface), or where there are fewer than kMinBlocked constraints (too few
// to share among threads: solver_team.hpp), every colour is shared out as
// before and `blocks` is empty.
constexpr std::size_t kSolveBlocks = 4;
constexpr double kMaxAcross = 0.125;
constexpr std::size_t kMinBlocked = 4096;

struct PackedStretch {
  std::vector<std::uint32_t> a, b;
  std::vector<float> rest;
  std::vector<float> stiffness;             // material multipliers (cloth.hpp)
  bool uniform = true;                      // every multiplier is 1
  std::vector<std::uint32_t> colourStart;   // colour c is [colourStart[c], colourStart[c + 1])
  std::uint32_t serialColour = UINT32_MAX;  // a last colour whose members may conflict
  bool coloured = true;                     // false: one serial colour in the cloth's order
  std::vector<ColourRun> blocks;            // kSolveBlocks blocks before colourStart's, or none
  std::size_t size() const { return a.size(); }
};

struct PackedBend {
  std::vector<std::uint32_t> v0, v1, v2, v3;
  std::vector<float> restAngle, restLength, restArea;
  std::vector<float> stiffness;  // material multipliers (cloth.hpp)
  bool uniform = true;           // every multiplier is 1
  std::vector<std::uint32_t> colourStart;
  std::uint32_t serialColour = UINT32_MAX;
  bool coloured = true;
  std::vector<ColourRun> blocks;
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
