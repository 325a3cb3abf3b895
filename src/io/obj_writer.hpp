#pragma once
// Wavefront OBJ out: positions and triangles of the cloth as it is now.

#include <string>

#include "sim/result.hpp"
#include "sim/world.hpp"

namespace drape::io {

// Writes `v x y z` for every vertex (simulation order) and `f a b c`
// (1-based) for every triangle. Refuses non-finite positions.
Result<void> writeObj(const std::string& path, const sim::World& world);

}  // namespace drape::io
