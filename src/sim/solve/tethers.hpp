#pragma once
// Long-range attachments (Kim, Chentanez & Müller 2012):
// every free vertex is tied to its nearest pin, measured along the cloth, by a
// unilateral constraint |p − p_pin| ≤ geodesic rest distance. Gauss-Seidel
// carries a load only a few edges per iteration; the tethers stop the far
// parts of a hanging cloth from sagging past their rest distance in one
// projection each.

#include <cstdint>
#include <vector>

#include "sim/cloth.hpp"

namespace drape::sim {

// A long-range attachment (tethers.hpp): |p_vertex − p_anchor| ≤ rest.
struct Tether {
  std::uint32_t vertex;
  std::uint32_t anchor;  // a pinned vertex
  float rest;            // m, shortest path along the rest mesh's edges
};

// Tethers as arrays (the batched kernels load eight of each at once), in
// vertex order, one per free vertex at most.
struct Tethers {
  std::vector<std::uint32_t> vertex, anchor;
  std::vector<float> rest;
  std::size_t size() const { return vertex.size(); }
  bool empty() const { return vertex.empty(); }
  void clear() {
    vertex.clear();
    anchor.clear();
    rest.clear();
  }
  void push_back(const Tether& t) {
    vertex.push_back(t.vertex);
    anchor.push_back(t.anchor);
    rest.push_back(t.rest);
  }
  Tether operator[](std::size_t j) const { return {vertex[j], anchor[j], rest[j]}; }
};

// Tethers of every vertex not pinned to the nearest of the pinned vertices
// `pins` of its piece (multi-source Dijkstra over the edges); none without
// pins.
Tethers buildTethers(const Cloth& cloth, const std::vector<std::uint32_t>& pins);

// The solver projects them with batch::tetherRange (ranges.hpp): stiffness
// 1, only the free vertex moves, and the rest distance is scaled by the
// stretch limits' slack (coefficients.hpp). The anchors are pinned and each
// vertex has one tether, so any split among threads gives the same result.

}  // namespace drape::sim
