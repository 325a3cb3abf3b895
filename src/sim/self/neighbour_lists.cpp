#include "sim/self/neighbour_lists.hpp"

#include <cstdint>
#include <vector>

namespace drape::sim {
namespace {

// The partners of each of n vertices in a list of pairs (.a, .b), CSR.
template <typename Pairs>
void partnersOf(std::size_t n, const Pairs& pairs, std::vector<std::uint32_t>& start,
                std::vector<std::uint32_t>& partner) {
  start.assign(n + 1, 0);
  for (const auto& e : pairs) {
    ++start[e.a + 1];
    ++start[e.b + 1];
  }
  for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
  partner.resize(start[n]);
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (const auto& e : pairs) {
    partner[fill[e.a]++] = e.b;
    partner[fill[e.b]++] = e.a;
  }
}

}  // namespace

void buildAdjacency(const Cloth& cloth, std::vector<std::uint32_t>& start,
                    std::vector<std::uint32_t>& adjacent) {
  partnersOf(cloth.vertexCount(), cloth.stretch, start, adjacent);
}

// A corner with more edges than this (a fan's hub) lists only itself in
// its triangles' lists: listing its neighbours in each of its triangles
// would take memory quadratic in its valence (a 20,000-triangle fan: 1.6
// GB). The lookup checks a found vertex's own edges for such a corner.
constexpr std::uint32_t kListedValence = 32;

// Each triangle's corners and the vertices joined to a corner by an edge,
// each once (CSR): the vertices its lookup skips, without the repeats of its
// corners' lists. `hub[t]` is set when a corner of t has more than
// kListedValence edges.
void buildTriangleNeighbours(const Cloth& cloth, const std::vector<std::uint32_t>& adjStart,
                             const std::vector<std::uint32_t>& adj,
                             std::vector<std::uint32_t>& start,
                             std::vector<std::uint32_t>& neighbours,
                             std::vector<std::uint8_t>& hub) {
  const std::size_t n = cloth.vertexCount();
  const std::size_t count = cloth.triangles.size();
  auto listed = [&](std::uint32_t c) {
    const std::uint32_t valence = adjStart[c + 1] - adjStart[c];
    return valence > kListedValence ? 0u : valence;
  };
  // A seam's ends are as near each other as the ends of an edge: each
  // skips the triangles of the other and of the other's neighbours (the
  // seam's next stitches), or the contacts would hold the seam a thickness
  // open (CSR of each vertex's seam partners).
  std::vector<std::uint32_t> seamStart, seamOf;
  if (!cloth.seams.empty()) partnersOf(n, cloth.seams, seamStart, seamOf);
  auto seamed = [&](std::uint32_t c) {
    return seamStart.empty() ? 0u : seamStart[c + 1] - seamStart[c];
  };
  std::size_t most = 0;
  for (const glm::uvec3& tri : cloth.triangles)
    for (int k = 0; k < 3; ++k) {
      most += 1 + listed(tri[k]);
      for (std::uint32_t j = 0; j < seamed(tri[k]); ++j)
        most += 1 + listed(seamOf[seamStart[tri[k]] + j]);
    }
  start.assign(count + 1, 0);
  neighbours.resize(most);
  hub.assign(count, 0);
  // Written without a branch each: a vertex is kept by moving the end past
  // it unless this triangle has it already.
  std::vector<std::uint32_t> last(n, UINT32_MAX);
  std::size_t end = 0;
  for (std::size_t t = 0; t < count; ++t) {
    const std::uint32_t stamp = std::uint32_t(t);
    auto add = [&](std::uint32_t v) {
      neighbours[end] = v;
      end += last[v] != stamp ? 1 : 0;
      last[v] = stamp;
    };
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t c = cloth.triangles[t][k];
      add(c);
      for (std::uint32_t j = 0; j < seamed(c); ++j) {
        const std::uint32_t partner = seamOf[seamStart[c] + j];
        add(partner);
        if (listed(partner) == 0) continue;
        for (std::uint32_t m = adjStart[partner]; m < adjStart[partner + 1]; ++m) add(adj[m]);
      }
      if (listed(c) == 0 && adjStart[c + 1] > adjStart[c]) {
        hub[t] = 1;
        continue;
      }
      for (std::uint32_t j = adjStart[c]; j < adjStart[c + 1]; ++j) add(adj[j]);
    }
    start[t + 1] = std::uint32_t(end);
  }
  neighbours.resize(end);
}

// The lists of buildTriangleNeighbours joined for each triangle t that
// shares an edge with t + 1, each vertex once with the bits of the two that
// skip it (SelfCollision::pairNear): a lookup of the pair marks each
// vertex with one write instead of a read and a write per list it is in.
void buildPairNeighbours(const Cloth& cloth, const std::vector<std::uint32_t>& nearStart,
                         const std::vector<std::uint32_t>& near, std::vector<std::uint32_t>& start,
                         std::vector<std::uint32_t>& pairNear) {
  const std::size_t n = cloth.vertexCount();
  const std::size_t count = cloth.triangles.size();
  pairNear.clear();
  start.assign(count + 1, 0);
  std::vector<std::uint32_t> stamp(n, UINT32_MAX), at(n, 0);
  for (std::size_t t = 0; t < count; ++t) {
    start[t] = std::uint32_t(pairNear.size());
    if (t + 1 == count || !shareEdge(cloth.triangles[t], cloth.triangles[t + 1])) continue;
    for (std::uint32_t k = 0; k < 2; ++k)
      for (std::uint32_t j = nearStart[t + k]; j < nearStart[t + k + 1]; ++j) {
        const std::uint32_t v = near[j];
        if (stamp[v] == std::uint32_t(t)) {
          pairNear[at[v]] |= 1u << k;
          continue;
        }
        stamp[v] = std::uint32_t(t);
        at[v] = std::uint32_t(pairNear.size());
        pairNear.push_back(4 * v + (1u << k));
      }
  }
  start[count] = std::uint32_t(pairNear.size());
}

}  // namespace drape::sim
