#include "sim/self/rest_crossings.hpp"

#include <algorithm>

#include "sim/cloth.hpp"
#include "sim/self/untangle.hpp"

namespace drape::sim {

bool RestCrossings::has(std::uint32_t pieceA, std::uint32_t pieceB) const {
  return !pairs.empty() &&
         std::binary_search(pairs.begin(), pairs.end(), restPairKey(pieceA, pieceB));
}

void prepareRestCrossings(const Cloth& cloth, ThreadTeam* team, Tangles& tangles,
                          RestCrossings& rest) {
  if (rest.topology == cloth.topologyVersion) return;
  // A split vertex keeps its rest position, so tearing makes no crossing at
  // rest that was not there: a shape found clean stays clean.
  if (rest.searched && rest.pairs.empty()) {
    rest.topology = cloth.topologyVersion;
    return;
  }
  rest.pairs.clear();
  rest.crossings = 0;
  rest.searched = true;
  rest.topology = cloth.topologyVersion;
  if (!findCrossings(cloth, cloth.restPositions, team, tangles) || tangles.crossings.empty())
    return;
  // A piece is closed where every edge has a triangle on each side.
  std::vector<std::uint8_t> closed(cloth.pieceCount, 1);
  for (std::size_t e = 0; e < cloth.stretch.size(); ++e)
    if (tangles.opposite[e].y == UINT32_MAX) closed[cloth.piece[cloth.stretch[e].a]] = 0;
  for (const Crossing& c : tangles.crossings) {
    const std::uint32_t a = cloth.piece[c.a], b = cloth.piece[c.tri[0]];
    if (!closed[a] || !closed[b]) continue;
    rest.pairs.push_back(restPairKey(a, b));
    ++rest.crossings;
  }
  std::sort(rest.pairs.begin(), rest.pairs.end());
  rest.pairs.erase(std::unique(rest.pairs.begin(), rest.pairs.end()), rest.pairs.end());
  tangles.crossings.clear();
}

void dropRestCrossings(const Cloth& cloth, const RestCrossings& rest,
                       std::vector<Crossing>& crossings) {
  if (rest.empty()) return;
  crossings.erase(std::remove_if(crossings.begin(), crossings.end(),
                                 [&](const Crossing& c) {
                                   return rest.has(cloth.piece[c.a], cloth.piece[c.tri[0]]);
                                 }),
                  crossings.end());
}

}  // namespace drape::sim
