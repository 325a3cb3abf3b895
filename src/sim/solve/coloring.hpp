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

struct PackedStretch {
  std::vector<std::uint32_t> a, b;
  std::vector<float> rest;
  std::vector<float> stiffness;             // material multipliers (cloth.hpp)
  bool uniform = true;                      // every multiplier is 1
  std::vector<std::uint32_t> colourStart;   // colour c is [colourStart[c], colourStart[c + 1])
  std::uint32_t serialColour = UINT32_MAX;  // a last colour whose members may conflict
  bool coloured = true;                     // false: one serial colour in the cloth's order
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

// The constraints packed by colour, or (coloured = false: the reference
// Gauss-Seidel order) as given, all in one serial colour.
PackedStretch packStretch(const std::vector<StretchConstraint>& c, std::size_t vertexCount,
                          bool coloured = true);
PackedBend packBend(const std::vector<BendConstraint>& c, std::size_t vertexCount,
                    bool coloured = true);

}  // namespace drape::sim
