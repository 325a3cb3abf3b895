#include "sim/solve/tethers.hpp"

#include <limits>
#include <queue>

namespace drape::sim {

Tethers buildTethers(const Cloth& cloth, const std::vector<std::uint32_t>& pins) {
  Tethers out;
  if (pins.empty()) return out;
  const std::size_t n = cloth.vertexCount();
  // Adjacency from the stretch constraints (the edges), CSR.
  std::vector<std::uint32_t> start(n + 1, 0), adj;
  for (const StretchConstraint& e : cloth.stretch) {
    ++start[e.a + 1];
    ++start[e.b + 1];
  }
  for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
  adj.resize(start[n]);
  std::vector<float> len(start[n]);
  {
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (const StretchConstraint& e : cloth.stretch) {
      len[fill[e.a]] = e.rest;
      adj[fill[e.a]++] = e.b;
      len[fill[e.b]] = e.rest;
      adj[fill[e.b]++] = e.a;
    }
  }
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> dist(n, inf);
  std::vector<std::uint32_t> source(n, UINT32_MAX);
  using Item = std::pair<float, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  for (const std::uint32_t pin : pins) {
    dist[pin] = 0.0f;
    source[pin] = pin;
    queue.push({0.0f, pin});
  }
  while (!queue.empty()) {
    const auto [d, v] = queue.top();
    queue.pop();
    if (d > dist[v]) continue;
    for (std::uint32_t k = start[v]; k < start[v + 1]; ++k) {
      const std::uint32_t u = adj[k];
      const float nd = d + len[k];
      // Ties go to the smaller pin index, so the result does not depend on
      // the queue's order.
      if (nd < dist[u] || (nd == dist[u] && source[v] < source[u])) {
        dist[u] = nd;
        source[u] = source[v];
        queue.push({nd, u});
      }
    }
  }
  for (std::uint32_t v = 0; v < n; ++v)
    if (source[v] != UINT32_MAX && source[v] != v && dist[v] > 0.0f)
      out.push_back({v, source[v], dist[v]});
  return out;
}

}  // namespace drape::sim
