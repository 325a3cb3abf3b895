#pragma once
// Normal-cone culling for the search of a cloth's crossings with itself
// (Volino & Magnenat-Thalmann 1994, "Efficient self-collision detection on
// smoothly discretized surface animations using geometrical shape
// regularity"; Provot 1997). A connected patch of surface whose normals all
// lie within less than 90° of one direction is a graph over the plane
// across that direction, and cannot pass through itself (the paper also
// asks that the patch's outline, seen along the direction, not cross
// itself; the patches here are compact clusters of a few triangles and
// their unions, which would have to wind around in their own plane).
//
// The triangles are clustered once per topology into a binary tree
// (leaves of at most kConeLeaf triangles). Each
// search computes every node's box and normal cone bottom-up, then walks
// the tree: a node that is connected (through edges) and narrow needs no
// test within it; two nodes need testing against each other only where
// their boxes overlap, and not where both are connected, joined by an edge
// and narrow together. What is left are pairs of leaves, whose edges are
// tested against the other's triangles one by one, and the leaves reached
// (each tested within).
//
// The tree is built bottom-up, each level pairing every cluster with a
// neighbour across an edge, so that every node of a connected piece is
// connected (median splits cut quads in two, and left a fifth of the 128²
// cloth's leaves in parts that touch only at corners).

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/collision/spatial_hash.hpp"

namespace drape::sim {

struct Cloth;

inline constexpr std::uint32_t kConeLeaf = 16;  // triangles in a leaf, at most

struct ConeTree {
  struct Node {
    std::uint32_t child[2];            // kNoChild for a leaf
    std::uint32_t triBegin, triEnd;    // into `triangles`
    std::uint32_t edgeBegin, edgeEnd;  // into `edges`
    std::uint32_t leafBegin, leafEnd;  // leaf numbers (leaves are numbered in tree order)
    bool connected;                    // its triangles are joined through edges
  };
  static constexpr std::uint32_t kNoChild = UINT32_MAX;

  // Per topology. Nodes in pre-order (a child after its parent), nodes[0]
  // the root; triangles and edges (indices into cloth.triangles and
  // cloth.stretch) by leaf, each edge with the leaf of a triangle it
  // borders; per leaf its node, and the leaves it shares an edge with (CSR).
  std::vector<Node> nodes;
  std::vector<std::uint32_t> triangles, edges;
  std::vector<std::uint32_t> leafNode, adjacentStart, adjacent;
  // False where some edge borders no triangle: the tree cannot place it.
  bool usable = false;

  // Per search: each node's box and cone (unit axis, half-angle in
  // radians).
  std::vector<Aabb> box;
  std::vector<glm::vec4> cone;
  // The pairs of leaves (node indices) left to test by the last walk.
  std::vector<glm::uvec2> pairs;
};

// The tree over `cloth`'s triangles. `edgeTriangle[k]` is a triangle that
// edge k borders, or UINT32_MAX.
void buildConeTree(const Cloth& cloth, const std::vector<std::uint32_t>& edgeTriangle,
                   ConeTree& tree);

// The nodes' boxes and cones from the triangles' boxes and planes (normal,
// not unit, and its dot with a corner; by triangle index), then the walk:
// tree.pairs. False where the pairs' tests would exceed `budget`
// edge–triangle tests (a mesh too dense to search: the hub of a fan).
bool walkConeTree(const std::vector<Aabb>& triangleBoxes, const std::vector<glm::vec4>& planes,
                  std::size_t budget, ConeTree& tree);

}  // namespace drape::sim
