#pragma once
// Pins carried from one cloth to another made from the same scene with other
// settings (side by side with another resolution): each pin goes to the
// vertex of the other cloth nearest to where the pinned vertex starts, and
// its anchor keeps the same offset from that vertex.

#include <vector>

#include "scene/scene_file.hpp"
#include "sim/sim.hpp"

namespace drape::scene {

// `pins` hold vertices of `from`; the result, vertices of `to` (one pin per
// vertex: pins that land on the same vertex keep the first). Both worlds at
// their start. Linear in the vertices and pins (a grid of cells, not a search
// of every pair).
std::vector<PinSpec> transferPins(const sim::World& from, const std::vector<PinSpec>& pins,
                                  const sim::World& to);

}  // namespace drape::scene
