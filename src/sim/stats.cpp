#include "sim/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "sim/solve/seams.hpp"

namespace drape::sim {

StrainStats strainStats(const World& world) {
  StrainStats out;
  const auto& c = world.cloth.stretch;
  if (c.empty()) return out;
  double sum = 0.0;
  std::vector<float> strains;
  strains.reserve(c.size());
  for (const StretchConstraint& e : c) {
    if (!(e.rest > 0.0f)) continue;
    const float strain =
        std::abs(glm::length(world.state.x[e.a] - world.state.x[e.b]) - e.rest) / e.rest;
    out.max = std::max(out.max, strain);
    sum += strain;
    strains.push_back(strain);
  }
  out.mean = float(sum / double(c.size()));
  if (!strains.empty()) {
    const std::size_t k = std::min(strains.size() - 1, strains.size() * 99 / 100);
    std::nth_element(strains.begin(), strains.begin() + std::ptrdiff_t(k), strains.end());
    out.p99 = strains[k];
  }
  return out;
}

Bounds bounds(const World& world) {
  Bounds b;
  if (world.state.x.empty()) return b;
  b.min = b.max = world.state.x[0];
  for (const glm::vec3& x : world.state.x) {
    b.min = glm::min(b.min, x);
    b.max = glm::max(b.max, x);
  }
  return b;
}

namespace {

void hashBytes(std::uint64_t& h, const void* data, std::size_t size) {
  const unsigned char* b = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    h ^= b[i];
    h *= 1099511628211ull;
  }
}

}  // namespace

std::uint64_t stateHash(const World& world) {
  std::uint64_t h = 14695981039346656037ull;
  hashBytes(h, world.state.x.data(), world.state.x.size() * sizeof(glm::vec3));
  hashBytes(h, world.state.v.data(), world.state.v.size() * sizeof(glm::vec3));
  for (const RigidBody& b : world.bodies) {
    hashBytes(h, &b.x, sizeof b.x);
    hashBytes(h, &b.q, sizeof b.q);
    hashBytes(h, &b.v, sizeof b.v);
    hashBytes(h, &b.omega, sizeof b.omega);
  }
  hashBytes(h, &world.time, sizeof world.time);
  return h;
}

std::optional<std::size_t> countSelfIntersections(const World& world,
                                                  std::vector<std::uint32_t>* crossed) {
  return countSelfIntersections(world.cloth, world.state.x, crossed);
}

bool allFinite(const World& world) {
  auto finite = [](const glm::vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
  };
  return std::all_of(world.state.x.begin(), world.state.x.end(), finite) &&
         std::all_of(world.state.v.begin(), world.state.v.end(), finite);
}

float currentVolume(const World& world) {
  return sixVolume(world.state.x, world.cloth.triangles) / 6.0f;
}

float restVolume(const World& world) {
  return world.cloth.restSixVolume / 6.0f;
}

float minColliderDistance(const World& world) {
  float best = std::numeric_limits<float>::infinity();
  MeshShape now;
  for (const Collider& c : world.colliders) {
    if (c.sequence) {
      c.sequence->shapeAt(world.time, now);
      for (const glm::vec3& x : world.state.x) {
        glm::vec3 n;
        best = std::min(best, now.distance(x, n));
      }
      continue;
    }
    const Pose pose = poseAt(c, world.time);
    for (const glm::vec3& x : world.state.x) {
      glm::vec3 n;
      best = std::min(best, signedDistance(c, pose.toLocal(x), n));
    }
  }
  return best;
}

float seamGapMax(const World& world) {
  return seamGapMax(world.cloth.seams, world.state.x);
}

}  // namespace drape::sim
