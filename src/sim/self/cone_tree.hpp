#pragma once
// Normal-cone culling for the search of a cloth's crossings with itself
// (Volino & Magnenat-Thalmann 1994, "Efficient self-collision detection on
// smoothly discretized surface animations using geometrical shape
// regularity"; Provot 1997). A connected patch of surface whose normals all
// lie within less than 90° of one direction is a graph over the plane
// across that direction and cannot pass through itself, provided its
// outline, seen along the direction, is one simple loop (outline.hpp): a
// flat strip wound round in its own plane passes through itself with every
// normal parallel.
//
// The triangles are clustered once per topology into a binary tree
// (leaves of at most kConeLeaf triangles). Each search computes every
// node's box and normal cone bottom-up, then walks the tree: a node that is
// connected (through edges), narrow and (in the crossing search) simple in
// outline needs no test within it; two nodes need testing against each
// other only where their boxes overlap, and not where both are connected,
// joined by an edge, narrow together and (crossings) simple in outline
// together. What is left are pairs of leaves, whose edges are tested
// against the other's triangles one by one, and the leaves reached (each
// tested within).
//
// The tree is built bottom-up, each level pairing every cluster with a
// neighbour across an edge, so that every node of a connected piece is
// connected (median splits cut quads in two, and leave many leaves in parts
// that touch only at corners).

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/self/outline.hpp"
#include "sim/self/spatial_hash.hpp"

namespace drape::sim {

struct Cloth;
class ThreadTeam;

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
  // Per node, its outline (CSR): the sides of its triangles (as the
  // triangle runs round them) that no triangle of the node runs back along,
  // each with the leaf of the triangle across it (kNoChild where none, or
  // where the side is not shared by exactly two triangles running
  // opposite ways).
  struct Side {
    std::uint32_t from, to, across;
  };
  std::vector<std::uint32_t> outlineStart;
  std::vector<Side> outline;
  // False where some edge borders no triangle: the tree cannot place it.
  bool usable = false;

  // Nodes a and b share an edge: a leaf of the smaller one is beside a leaf
  // of the other.
  bool joined(const Node& a, const Node& b) const;
};

// What a walk rules out. A connected node whose cone is narrower than
// `narrowBelow` (half-angle, radians) is a patch that cannot pass through
// itself (below 90°) or come near itself (well below: contacts); with
// `everyLeaf`, each leaf the walk reaches is left to test within, narrow or
// not; with `outline`, a patch is ruled out only where its outline is one
// simple loop too.
struct ConeWalk {
  float narrowBelow;
  bool everyLeaf;
  bool outline;
};

// The crossing search's walk: patches within 90° (less a margin for the
// rounding of the merges) whose outlines are simple, every leaf reached
// tested within.
inline constexpr ConeWalk kCrossingWalk{1.5607963f, true, true};

// One walk's results: each node's box and cone (unit axis, half-angle in
// radians), and the pairs of leaves (node indices) left to test; (a, a):
// within leaf a.
struct ConeSearch {
  std::vector<Aabb> box;
  std::vector<glm::vec4> cone;
  std::vector<glm::uvec2> pairs;
  // Scratch. Per thread: the outlines' tests and the jobs to do. The walk's
  // top, walked on one thread, leaves jobs (pairs of nodes) for the threads
  // to walk on; per such job, the pairs it leaves and their tests.
  struct Walker {
    std::vector<OutlineSide> sides;
    OutlineScratch outline;
    std::vector<glm::uvec2> todo;
  };
  std::vector<Walker> walkers;
  std::vector<glm::uvec2> jobs;
  std::vector<std::vector<glm::uvec2>> jobPairs;
  std::vector<std::size_t> jobWork;
};

// The tree over `cloth`'s triangles. `edgeTriangle[k]` is a triangle that
// edge k borders, or UINT32_MAX.
void buildConeTree(const Cloth& cloth, const std::vector<std::uint32_t>& edgeTriangle,
                   ConeTree& tree);

// The cone around `count` normals (not unit): its axis their sum's
// direction, its half-angle the widest of them from it; kCrossingWalk's
// angle (every direction) where one is degenerate.
glm::vec4 coneAround(const glm::vec3* normals, std::size_t count);

// Each leaf's box and cone from its triangles' boxes and normals (not
// unit; by triangle index), into `search` sized for the tree. The
// contacts' search bounds the leaves itself (with the cone its triangles'
// normals sweep over a step).
void boundLeaves(const ConeTree& tree, const std::vector<Aabb>& triangleBoxes,
                 const std::vector<glm::vec4>& normals, ConeSearch& search);

// The other nodes' boxes and cones from the leaves' (search.box and
// search.cone at tree.leafNode[l], sized for the tree), then the walk:
// search.pairs. False where the pairs' tests would exceed `budget`
// edge–triangle tests (a mesh too dense to search: the hub of a fan).
// `x`: the positions the outlines are tested at (only with walk.outline).
// On `team`'s threads where given; the pairs are the same on any number.
bool walkConeTree(const ConeTree& tree, const ConeWalk& walk, std::size_t budget,
                  ConeSearch& search, const glm::vec3* x = nullptr, ThreadTeam* team = nullptr);

}  // namespace drape::sim
