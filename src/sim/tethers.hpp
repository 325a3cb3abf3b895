#pragma once
// Long-range attachments (Kim, Chentanez, Müller 2012; survey notes §5.6):
// every free vertex is tied to its nearest pin, measured along the cloth, by a
// unilateral constraint |p − p_pin| ≤ geodesic rest distance. Gauss-Seidel
// carries a load only a few edges per iteration; the tethers stop the far
// parts of a hanging cloth from sagging past their rest distance in one
// projection each.

#include <cstdint>
#include <vector>

#include "sim/world.hpp"

namespace drape::sim {

// Tethers of every vertex not pinned to the nearest pinned vertex of its
// piece (multi-source Dijkstra over the edges); none without pins.
Tethers buildTethers(const Cloth& cloth, const std::vector<Pin>& pins);

// Project tethers [begin, end) on the predicted positions (stiffness 1; only
// the free vertex moves). `slack` ≥ 1 scales every rest distance: a soft
// cloth (k_stretch < 1) may stretch, so its tethers give way (slack =
// 2 − k_stretch). The anchors are pinned and each vertex has one tether, so
// any split of the range among threads gives the same result (the batched
// solver projects them with batch::tetherRange, the same arithmetic).
void solveTethers(const Points& pts, const Tethers& tethers, std::size_t begin, std::size_t end,
                  float slack);

}  // namespace drape::sim
