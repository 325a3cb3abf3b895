#pragma once
// Measurements of a world's state: what --stats reports and tests assert.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "sim/world.hpp"

namespace drape::sim {

// Edge strain |l − l0| / l0 over the stretch constraints. The 99th
// percentile beside the maximum: on real meshes one tiny edge can dominate
// the maximum.
struct StrainStats {
  float max = 0.0f;
  float mean = 0.0f;
  float p99 = 0.0f;
};
StrainStats strainStats(const World& world);

struct Bounds {
  glm::vec3 min{0.0f}, max{0.0f};
};
Bounds bounds(const World& world);

// True when every position and velocity is finite.
bool allFinite(const World& world);

// A 64-bit FNV-1a hash of the bits of every position and velocity (cloth,
// then rigid bodies) and the time: equal for runs that are bit for bit the
// same, and almost surely different otherwise.
std::uint64_t stateHash(const World& world);

// Enclosed volume (m³) of the current positions; meaningful for closed meshes.
float currentVolume(const World& world);
float restVolume(const World& world);

// Edge–triangle crossings of the cloth with itself at its positions
// (self_collision.hpp); none where the mesh is too dense to count in time
// linear in its size. With `crossed`: the triangles of each crossing.
std::optional<std::size_t> countSelfIntersections(const World& world,
                                                  std::vector<std::uint32_t>* crossed = nullptr);

// The largest distance between the two ends of any seam (m); 0 without seams.
float seamGapMax(const World& world);

// Smallest signed distance of any vertex to any collider surface (m); +inf
// without colliders.
float minColliderDistance(const World& world);

}  // namespace drape::sim
