#pragma once
// The vertices a self-collision lookup skips: each vertex's edge partners,
// each triangle's corners with their neighbours and seam partners, and the
// same joined for the two triangles of a quad (SelfCollision's lists).

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth.hpp"

namespace drape::sim {

inline bool shares(const glm::uvec3& t, std::uint32_t v) {
  return t[0] == v || t[1] == v || t[2] == v;
}

inline bool shareEdge(const glm::uvec3& a, const glm::uvec3& b) {
  return int(shares(b, a[0])) + int(shares(b, a[1])) + int(shares(b, a[2])) == 2;
}

// The vertices joined to each vertex by an edge (CSR).
void buildAdjacency(const Cloth& cloth, std::vector<std::uint32_t>& start,
                    std::vector<std::uint32_t>& adjacent);

// Each triangle's corners, the vertices joined to a corner by an edge, and
// the corners' seam partners with theirs, each once (CSR). `hub[t]` is set
// where a corner has too many edges to list (the lookup checks it instead).
void buildTriangleNeighbours(const Cloth& cloth, const std::vector<std::uint32_t>& adjStart,
                             const std::vector<std::uint32_t>& adj,
                             std::vector<std::uint32_t>& start,
                             std::vector<std::uint32_t>& neighbours,
                             std::vector<std::uint8_t>& hub);

// The lists joined for each triangle t that shares an edge with t + 1.
void buildPairNeighbours(const Cloth& cloth, const std::vector<std::uint32_t>& nearStart,
                         const std::vector<std::uint32_t>& near, std::vector<std::uint32_t>& start,
                         std::vector<std::uint32_t>& pairNear);

}  // namespace drape::sim
