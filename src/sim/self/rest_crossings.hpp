#pragma once
// Closed pieces that pass through each other, or themselves, in the rest
// shape: a sculpted model assembled from overlapping parts (an eye in a
// head, a horn through a helmet). Their crossings are the shape, not a
// tangle that the step should undo: the parts enclose overlapping volumes,
// untangling would pull at the model in thousands of places, and the
// sub-steps that crossings call for would be spent in every frame. So
// crossings between such a pair are left as they are, and so are the self
// contacts between them (which would hold each crossing's sides apart);
// every other pair keeps both. Open sheets through each other at rest are a
// tangle, and are untangled (untangle.hpp).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace drape::sim {

struct Cloth;
struct Crossing;
struct Tangles;
class ThreadTeam;

// The pairs of closed pieces (Cloth::piece; a piece with itself too) whose
// rest positions cross, found for `topology` (tearing renumbers the pieces).
struct RestCrossings {
  std::vector<std::uint64_t> pairs;  // sorted, each restPairKey(lower, higher)
  std::size_t crossings = 0;         // edges through triangles at rest
  std::uint64_t topology = UINT64_MAX;
  bool searched = false;  // once searched and found none, never again (tearing adds none)

  bool empty() const { return pairs.empty(); }
  bool has(std::uint32_t pieceA, std::uint32_t pieceB) const;
};

inline std::uint64_t restPairKey(std::uint32_t a, std::uint32_t b) {
  return a < b ? (std::uint64_t(a) << 32) | b : (std::uint64_t(b) << 32) | a;
}

// Finds the rest crossings for the cloth's topology where not known yet
// (one search of the rest positions, with `tangles`' buffers), on `team`'s
// threads. Where the rest shape is too dense to search, none.
void prepareRestCrossings(const Cloth& cloth, ThreadTeam* team, Tangles& tangles,
                          RestCrossings& rest);

// Removes from `crossings` those between pieces that cross at rest.
void dropRestCrossings(const Cloth& cloth, const RestCrossings& rest,
                       std::vector<Crossing>& crossings);

}  // namespace drape::sim
