#pragma once
// Ropes drawn as tubes: a ring of vertices around each rope vertex, joined
// ring to ring, made on the CPU each frame from the current positions; open
// seams as thin straight tubes the same way.

#include <cstdint>
#include <vector>

#include "render/primitives.hpp"
#include "sim/sim.hpp"

namespace drape::render {

inline constexpr int kTubeSides = 8;

// The tubes of every rope of `world`, `radius` metres thick, into
// `vertices` (kTubeSides a rope vertex, normals outward) and `indices`
// (triangles; rebuilt only when `indices` is empty or the ropes changed,
// which the caller tells by clearing it).
void makeRopeTubes(const sim::World& world, float radius, std::vector<LitVertex>& vertices,
                   std::vector<std::uint32_t>& indices);

// The seams still open (ends further apart than `openGap` metres) as
// straight tubes `radius` thick from end to end, into `vertices` and
// `indices`, both made anew (which seams are open changes as they close).
void makeSeamTubes(const sim::World& world, float radius, float openGap,
                   std::vector<LitVertex>& vertices, std::vector<std::uint32_t>& indices);

}  // namespace drape::render
