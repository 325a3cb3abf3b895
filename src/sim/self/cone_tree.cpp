#include "sim/self/cone_tree.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "sim/cloth.hpp"
#include "sim/self/outline.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

using Node = ConeTree::Node;

// Jobs the walk's top leaves for the threads (walkConeTree).
constexpr std::size_t kWalkJobs = 64;

// A cone at least this wide is taken as covering every direction (a
// margin under 90° for the rounding of the merges).
constexpr float kWide = kCrossingWalk.narrowBelow;  // π/2 − 0.01

bool narrow(const glm::vec4& cone, float below = kWide) {
  return cone.w < below;
}

// The smallest cone (in this construction) holding cones a and b.
glm::vec4 mergeCones(const glm::vec4& a, const glm::vec4& b) {
  if (!narrow(a) || !narrow(b)) return glm::vec4(0.0f, 0.0f, 0.0f, kWide);
  const glm::vec3 u(a), v(b);
  const float phi = std::acos(std::clamp(glm::dot(u, v), -1.0f, 1.0f));
  if (phi + b.w <= a.w) return a;
  if (phi + a.w <= b.w) return b;
  const float angle = 0.5f * (phi + a.w + b.w) + 1e-5f;
  if (angle >= kWide) return glm::vec4(0.0f, 0.0f, 0.0f, kWide);
  if (phi < 1e-6f) return glm::vec4(u, angle);
  // The axis turned from u towards v by angle − a.w (slerp).
  const float t = angle - a.w;
  const glm::vec3 axis = (std::sin(phi - t) * u + std::sin(t) * v) / std::sin(phi);
  return glm::vec4(glm::normalize(axis), angle);
}

Aabb unite(const Aabb& a, const Aabb& b) {
  return {glm::min(a.min, b.min), glm::max(a.max, b.max)};
}

// Nodes a and b of `tree` share an edge: a leaf of the smaller one is
// beside a leaf of the other.
bool joined(const ConeTree& tree, const Node& a, const Node& b) {
  const bool aSmaller = a.leafEnd - a.leafBegin <= b.leafEnd - b.leafBegin;
  const Node& s = aSmaller ? a : b;
  const Node& o = aSmaller ? b : a;
  for (std::uint32_t l = s.leafBegin; l < s.leafEnd; ++l)
    for (std::uint32_t j = tree.adjacentStart[l]; j < tree.adjacentStart[l + 1]; ++j)
      if (tree.adjacent[j] >= o.leafBegin && tree.adjacent[j] < o.leafEnd) return true;
  return false;
}

// Whether the outline of node a (with b ≠ a: of a and b together, the
// sides between them dropped), seen along `axis` at positions x, is one
// simple closed curve (outline.hpp). Projected in double about a corner of
// the outline, so that the test does not depend on where the cloth is.
bool nodesOutlineSimple(const ConeTree& tree, std::uint32_t a, std::uint32_t b,
                        const glm::vec3& axis, const glm::vec3* x, ConeSearch::Walker& walker) {
  const Node &na = tree.nodes[a], &nb = tree.nodes[b];
  if (tree.outlineStart[a] == tree.outlineStart[a + 1]) return false;  // closed: no outline
  // A frame (e1, e2, axis), right-handed: the triangles, facing along the
  // axis, run counter-clockwise in it.
  const glm::dvec3 n(axis);
  const glm::dvec3 helper = std::abs(n.x) < 0.6 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
  const glm::dvec3 e1 = glm::normalize(glm::cross(n, helper)), e2 = glm::cross(n, e1);
  const glm::dvec3 origin(x[tree.outline[tree.outlineStart[a]].from]);
  auto project = [&](std::uint32_t v) {
    const glm::dvec3 d = glm::dvec3(x[v]) - origin;
    return glm::dvec2(glm::dot(d, e1), glm::dot(d, e2));
  };
  walker.sides.clear();
  auto gather = [&](std::uint32_t node, const Node& other) {
    for (std::uint32_t k = tree.outlineStart[node]; k < tree.outlineStart[node + 1]; ++k) {
      const ConeTree::Side& side = tree.outline[k];
      if (a != b && side.across >= other.leafBegin && side.across < other.leafEnd) continue;
      walker.sides.push_back({project(side.from), project(side.to), side.from, side.to});
    }
  };
  gather(a, nb);
  if (a != b) gather(b, na);
  return simpleOutline(walker.sides, walker.outline);
}

std::uint32_t find(std::vector<std::uint32_t>& parent, std::uint32_t v) {
  while (parent[v] != v) v = parent[v] = parent[parent[v]];
  return v;
}

// Triangles' sides, each as (its edge: lower corner << 32 | upper, 3 k + c).
using EdgeSides = std::vector<std::pair<std::uint64_t, std::uint32_t>>;

// All triangles' sides sorted by edge, so that the sides along one edge lie together.
EdgeSides sortedSides(const Cloth& cloth) {
  const std::size_t triangleCount = cloth.triangles.size();
  // Each triangle's sides (3 k + c: from corner c to the next), by edge.
  EdgeSides sides;
  sides.reserve(3 * triangleCount);
  for (std::uint32_t k = 0; k < triangleCount; ++k)
    for (std::uint32_t c = 0; c < 3; ++c) {
      std::uint32_t u = cloth.triangles[k][c], v = cloth.triangles[k][(c + 1) % 3];
      if (u > v) std::swap(u, v);
      sides.push_back({(std::uint64_t(u) << 32) | v, 3 * k + c});
    }
  std::sort(sides.begin(), sides.end());
  return sides;
}

// The triangle of sorted side i.
std::uint32_t triangleOf(const EdgeSides& sides, std::size_t i) {
  return sides[i].second / 3;
}

// Each triangle's neighbours, so that clusters only ever grow across edges.
std::vector<glm::uvec3> neighbours(const EdgeSides& sides, std::size_t triangleCount) {
  // Each triangle's neighbours across its edges (kNoChild where none).
  std::vector<glm::uvec3> neighbour(triangleCount, glm::uvec3(ConeTree::kNoChild));
  auto link = [&](std::uint32_t s, std::uint32_t t) {
    glm::uvec3& n = neighbour[s];
    for (int c = 0; c < 3; ++c)
      if (n[c] == ConeTree::kNoChild) {
        n[c] = t;
        return;
      }
  };
  for (std::size_t i = 0; i + 1 < sides.size(); ++i)
    if (sides[i].first == sides[i + 1].first && triangleOf(sides, i) != triangleOf(sides, i + 1)) {
      link(triangleOf(sides, i), triangleOf(sides, i + 1));
      link(triangleOf(sides, i + 1), triangleOf(sides, i));
    }
  return neighbour;
}

// Two clusters merged, or (child[0] kNoChild) triangle child[1] alone.
struct Cluster {
  std::uint32_t child[2];
  std::uint32_t size;
  glm::vec3 centre;  // sum of the triangles' rest centroids
};

// Connected clusters, level by level, into `built` (empty); returns those left, one per piece.
std::vector<std::uint32_t> matchNeighbours(const Cloth& cloth,
                                           const std::vector<glm::uvec3>& neighbour,
                                           std::vector<Cluster>& built) {
  const std::size_t triangleCount = cloth.triangles.size();
  // Bottom-up: clusters of triangles, each level matching every cluster
  // with a neighbour across an edge (the smallest, then the nearest by
  // rest centroid), so that every merged node is connected; clusters left
  // without a neighbour (separate pieces) are joined last, in order.
  built.reserve(2 * triangleCount);
  std::vector<std::uint32_t> clusterOf(triangleCount);
  for (std::uint32_t k = 0; k < triangleCount; ++k) {
    const glm::uvec3& t = cloth.triangles[k];
    built.push_back(
        {{ConeTree::kNoChild, k},
         1,
         (cloth.restPositions[t[0]] + cloth.restPositions[t[1]] + cloth.restPositions[t[2]]) /
             3.0f});
    clusterOf[k] = k;
  }
  std::vector<std::uint32_t> live(triangleCount);
  std::iota(live.begin(), live.end(), 0u);
  // Per cluster: the one it is matched with this level, and the node the
  // two make.
  std::vector<std::uint32_t> partner(built.capacity(), ConeTree::kNoChild);
  std::vector<std::uint32_t> up(built.capacity(), ConeTree::kNoChild);
  for (;;) {
    // Neighbouring clusters of each live cluster, through the triangles.
    bool merged = false;
    std::vector<std::uint32_t> next;
    std::fill(partner.begin(), partner.end(), ConeTree::kNoChild);
    std::vector<std::vector<std::uint32_t>> around(live.size());
    std::vector<std::uint32_t> slot(built.size(), ConeTree::kNoChild);
    for (std::uint32_t i = 0; i < live.size(); ++i) slot[live[i]] = i;
    for (std::uint32_t k = 0; k < triangleCount; ++k)
      for (int c = 0; c < 3; ++c) {
        const std::uint32_t t = neighbour[k][c];
        if (t == ConeTree::kNoChild || clusterOf[t] == clusterOf[k]) continue;
        around[slot[clusterOf[k]]].push_back(clusterOf[t]);
      }
    for (std::uint32_t i = 0; i < live.size(); ++i) {
      const std::uint32_t c = live[i];
      if (partner[c] != ConeTree::kNoChild) continue;
      std::uint32_t best = ConeTree::kNoChild;
      float bestDistance = 0.0f;
      const glm::vec3 mine = built[c].centre / float(built[c].size);
      for (const std::uint32_t d : around[i]) {
        if (partner[d] != ConeTree::kNoChild) continue;
        const glm::vec3 theirs = built[d].centre / float(built[d].size);
        const float distance = glm::length(theirs - mine);
        const bool better = best == ConeTree::kNoChild || built[d].size < built[best].size ||
                            (built[d].size == built[best].size &&
                             (distance < bestDistance || (distance == bestDistance && d < best)));
        if (better) {
          best = d;
          bestDistance = distance;
        }
      }
      if (best == ConeTree::kNoChild) continue;
      partner[c] = best;
      partner[best] = c;
      const std::uint32_t node = std::uint32_t(built.size());
      up[c] = up[best] = node;
      built.push_back(
          {{c, best}, built[c].size + built[best].size, built[c].centre + built[best].centre});
      next.push_back(node);
      merged = true;
    }
    for (const std::uint32_t c : live)
      if (partner[c] == ConeTree::kNoChild) next.push_back(c);
    if (!merged) {
      live = next;
      break;
    }
    // Each triangle's cluster one level up.
    for (std::uint32_t& c : clusterOf)
      if (up[c] != ConeTree::kNoChild) c = up[c];
    std::sort(next.begin(), next.end());
    live = next;
  }
  return live;
}

// The pieces' clusters under one root (returned), so that one tree holds the whole cloth.
std::uint32_t joinPieces(std::vector<std::uint32_t> live, std::vector<Cluster>& built) {
  // Separate pieces: joined in order, not connected.
  while (live.size() > 1) {
    std::vector<std::uint32_t> next;
    for (std::size_t i = 0; i + 1 < live.size(); i += 2) {
      const std::uint32_t a = live[i], b = live[i + 1];
      next.push_back(std::uint32_t(built.size()));
      built.push_back({{a, b}, built[a].size + built[b].size, built[a].centre + built[b].centre});
    }
    if (live.size() % 2) next.push_back(live.back());
    live = next;
  }
  return live[0];
}

// The nodes in pre-order from `root`, so that each node's triangles are one contiguous range.
void layOutNodes(const std::vector<Cluster>& built, std::uint32_t root, std::size_t triangleCount,
                 ConeTree& tree) {
  // The tree in pre-order from the root; a cluster of at most kConeLeaf
  // triangles is a leaf, its triangles in a contiguous range.
  tree.triangles.clear();
  tree.triangles.reserve(triangleCount);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> todo{{root, ConeTree::kNoChild}};
  std::vector<std::uint32_t> gather;
  while (!todo.empty()) {
    const auto [c, parent] = todo.back();
    todo.pop_back();
    const std::uint32_t n = std::uint32_t(tree.nodes.size());
    tree.nodes.push_back({{ConeTree::kNoChild, ConeTree::kNoChild}, 0, 0, 0, 0, 0, 0, false});
    if (parent != ConeTree::kNoChild)
      tree.nodes[parent].child[tree.nodes[parent].child[0] == ConeTree::kNoChild ? 0 : 1] = n;
    const Cluster& cluster = built[c];
    if (cluster.size <= kConeLeaf || cluster.child[0] == ConeTree::kNoChild) {
      tree.nodes[n].triBegin = std::uint32_t(tree.triangles.size());
      gather.assign(1, c);
      while (!gather.empty()) {
        const std::uint32_t g = gather.back();
        gather.pop_back();
        if (built[g].child[0] == ConeTree::kNoChild) {
          tree.triangles.push_back(built[g].child[1]);
        } else {
          gather.push_back(built[g].child[1]);
          gather.push_back(built[g].child[0]);
        }
      }
      tree.nodes[n].triEnd = std::uint32_t(tree.triangles.size());
      continue;
    }
    todo.push_back({cluster.child[1], n});
    todo.push_back({cluster.child[0], n});
  }
  // Internal nodes' triangle ranges from their leaves (children come
  // after their parent).
  for (std::size_t n = tree.nodes.size(); n-- > 0;) {
    ConeTree::Node& node = tree.nodes[n];
    if (node.child[0] == ConeTree::kNoChild) continue;
    node.triBegin = tree.nodes[node.child[0]].triBegin;
    node.triEnd = tree.nodes[node.child[1]].triEnd;
  }
}

// The leaves in tree order (tree.leafNode); returns each triangle's leaf, which the rest keys on.
std::vector<std::uint32_t> numberLeaves(std::size_t triangleCount, ConeTree& tree) {
  // Leaves numbered in tree order (by their triangle ranges).
  std::vector<std::uint32_t> leaves;
  for (std::uint32_t n = 0; n < tree.nodes.size(); ++n)
    if (tree.nodes[n].child[0] == ConeTree::kNoChild) leaves.push_back(n);
  std::sort(leaves.begin(), leaves.end(), [&](std::uint32_t a, std::uint32_t b) {
    return tree.nodes[a].triBegin < tree.nodes[b].triBegin;
  });
  tree.leafNode = leaves;
  std::vector<std::uint32_t> leafOfTriangle(triangleCount);
  for (std::uint32_t l = 0; l < leaves.size(); ++l) {
    const Node& node = tree.nodes[leaves[l]];
    for (std::uint32_t k = node.triBegin; k < node.triEnd; ++k)
      leafOfTriangle[tree.triangles[k]] = l;
  }
  return leafOfTriangle;
}

// Edges by leaf and each node's leaf and edge ranges, so that a pair of nodes knows its tests.
void rangeEdges(const std::vector<std::uint32_t>& edgeTriangle,
                const std::vector<std::uint32_t>& leafOfTriangle, ConeTree& tree) {
  const std::vector<std::uint32_t>& leaves = tree.leafNode;
  // Edges by leaf (counting sort, in edge order within a leaf).
  const std::size_t leafCount = leaves.size();
  std::vector<std::uint32_t> edgeStart(leafCount + 1, 0);
  for (const std::uint32_t t : edgeTriangle) ++edgeStart[leafOfTriangle[t] + 1];
  for (std::size_t l = 0; l < leafCount; ++l) edgeStart[l + 1] += edgeStart[l];
  tree.edges.resize(edgeTriangle.size());
  {
    std::vector<std::uint32_t> fill(edgeStart.begin(), edgeStart.end() - 1);
    for (std::uint32_t k = 0; k < edgeTriangle.size(); ++k)
      tree.edges[fill[leafOfTriangle[edgeTriangle[k]]]++] = k;
  }
  // Ranges: a leaf's own, then each parent's from its children (children
  // have larger indices than their parent).
  for (std::uint32_t l = 0; l < leafCount; ++l) {
    Node& node = tree.nodes[leaves[l]];
    node.leafBegin = l;
    node.leafEnd = l + 1;
    node.edgeBegin = edgeStart[l];
    node.edgeEnd = edgeStart[l + 1];
  }
  for (std::size_t n = tree.nodes.size(); n-- > 0;) {
    Node& node = tree.nodes[n];
    if (node.child[0] == ConeTree::kNoChild) continue;
    const Node &a = tree.nodes[node.child[0]], &b = tree.nodes[node.child[1]];
    node.leafBegin = a.leafBegin;
    node.leafEnd = b.leafEnd;
    node.edgeBegin = a.edgeBegin;
    node.edgeEnd = b.edgeEnd;
  }
}

// Leaf adjacency and each node's connectedness: only a connected patch is ruled out whole.
void linkLeaves(const EdgeSides& sides, const std::vector<std::uint32_t>& leafOfTriangle,
                ConeTree& tree) {
  const std::size_t triangleCount = leafOfTriangle.size();
  const std::vector<std::uint32_t>& leaves = tree.leafNode;
  const std::size_t leafCount = leaves.size();
  // Leaves sharing an edge: each mesh edge's two triangles, through the
  // triangles' edges (the third corner of an edge's two triangles differs).
  std::vector<std::uint32_t> parent(triangleCount);
  std::iota(parent.begin(), parent.end(), 0u);
  std::vector<glm::uvec2> links;  // pairs of leaves (the triangles within one are united)
  {
    for (std::size_t i = 0; i + 1 < sides.size(); ++i) {
      if (sides[i].first != sides[i + 1].first) continue;
      const std::uint32_t s = triangleOf(sides, i), t = triangleOf(sides, i + 1);
      const std::uint32_t ls = leafOfTriangle[s], lt = leafOfTriangle[t];
      if (ls == lt)
        parent[find(parent, std::max(s, t))] = find(parent, std::min(s, t));
      else
        links.push_back({std::min(ls, lt), std::max(ls, lt)});
    }
  }
  std::sort(links.begin(), links.end(), [](const glm::uvec2& a, const glm::uvec2& b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
  });
  links.erase(std::unique(links.begin(), links.end()), links.end());
  tree.adjacentStart.assign(leafCount + 1, 0);
  for (const glm::uvec2& l : links) {
    ++tree.adjacentStart[l.x + 1];
    ++tree.adjacentStart[l.y + 1];
  }
  for (std::size_t l = 0; l < leafCount; ++l) tree.adjacentStart[l + 1] += tree.adjacentStart[l];
  tree.adjacent.resize(tree.adjacentStart[leafCount]);
  {
    std::vector<std::uint32_t> fill(tree.adjacentStart.begin(), tree.adjacentStart.end() - 1);
    for (const glm::uvec2& l : links) {
      tree.adjacent[fill[l.x]++] = l.y;
      tree.adjacent[fill[l.y]++] = l.x;
    }
  }
  // Connected: a leaf whose triangles form one part; a parent whose
  // children are both connected and share an edge.
  for (std::uint32_t l = 0; l < leafCount; ++l) {
    Node& node = tree.nodes[leaves[l]];
    const std::uint32_t root = find(parent, tree.triangles[node.triBegin]);
    node.connected = true;
    for (std::uint32_t k = node.triBegin; k < node.triEnd; ++k)
      node.connected = node.connected && find(parent, tree.triangles[k]) == root;
  }
  for (std::size_t n = tree.nodes.size(); n-- > 0;) {
    Node& node = tree.nodes[n];
    if (node.child[0] == ConeTree::kNoChild) continue;
    const Node &a = tree.nodes[node.child[0]], &b = tree.nodes[node.child[1]];
    node.connected = a.connected && b.connected && joined(tree, a, b);
  }
}

// Each node's outline, for the walk's test that a patch seen along its cone is one simple loop.
void traceOutlines(const Cloth& cloth, const EdgeSides& sides,
                   const std::vector<std::uint32_t>& leafOfTriangle, ConeTree& tree) {
  const std::size_t triangleCount = cloth.triangles.size();
  // Each side's triangle across: the other of exactly two sides along one
  // edge, where the two run opposite ways.
  std::vector<std::uint32_t> across(3 * triangleCount, ConeTree::kNoChild);
  for (std::size_t i = 0; i < sides.size();) {
    std::size_t j = i + 1;
    while (j < sides.size() && sides[j].first == sides[i].first) ++j;
    if (j == i + 2) {
      const std::uint32_t s = sides[i].second, t = sides[i + 1].second;
      const glm::uvec3 &ts = cloth.triangles[s / 3], &tt = cloth.triangles[t / 3];
      if (s / 3 != t / 3 && ts[s % 3] == tt[(t % 3 + 1) % 3]) {
        across[s] = t / 3;
        across[t] = s / 3;
      }
    }
    i = j;
  }
  // Outlines: a node's sides whose triangle across lies outside it.
  tree.outlineStart.assign(tree.nodes.size() + 1, 0);
  tree.outline.clear();
  for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
    const Node& node = tree.nodes[n];
    for (std::uint32_t k = node.triBegin; k < node.triEnd; ++k) {
      const std::uint32_t t = tree.triangles[k];
      for (std::uint32_t c = 0; c < 3; ++c) {
        const std::uint32_t other = across[3 * t + c];
        const std::uint32_t leaf = other == ConeTree::kNoChild ? other : leafOfTriangle[other];
        if (leaf != ConeTree::kNoChild && leaf >= node.leafBegin && leaf < node.leafEnd) continue;
        tree.outline.push_back({cloth.triangles[t][c], cloth.triangles[t][(c + 1) % 3], leaf});
      }
    }
    tree.outlineStart[n + 1] = std::uint32_t(tree.outline.size());
  }
}

}  // namespace

void buildConeTree(const Cloth& cloth, const std::vector<std::uint32_t>& edgeTriangle,
                   ConeTree& tree) {
  tree.nodes.clear();
  const std::size_t triangleCount = cloth.triangles.size();
  tree.usable = triangleCount > 0 && std::none_of(edgeTriangle.begin(), edgeTriangle.end(),
                                                  [](std::uint32_t t) { return t == UINT32_MAX; });
  if (!tree.usable) return;
  const EdgeSides sides = sortedSides(cloth);
  std::vector<Cluster> built;
  std::vector<std::uint32_t> live = matchNeighbours(cloth, neighbours(sides, triangleCount), built);
  const std::uint32_t root = joinPieces(std::move(live), built);
  layOutNodes(built, root, triangleCount, tree);
  const std::vector<std::uint32_t> leafOfTriangle = numberLeaves(triangleCount, tree);
  rangeEdges(edgeTriangle, leafOfTriangle, tree);
  linkLeaves(sides, leafOfTriangle, tree);
  traceOutlines(cloth, sides, leafOfTriangle, tree);
}

glm::vec4 coneAround(const glm::vec3* normals, std::size_t count) {
  // The axis is their sum (weighted by their lengths, which any axis
  // allows); the widest angle from the signed squares of the cosines
  // (without a square root each).
  glm::vec3 sum(0.0f);
  for (std::size_t k = 0; k < count; ++k) sum += normals[k];
  const float sumLength = glm::length(sum);
  if (!(sumLength > 0.0f) || !std::isfinite(sumLength)) return glm::vec4(0.0f, 0.0f, 0.0f, kWide);
  const glm::vec3 axis = sum / sumLength;
  float least = 1.0f;  // the signed square of the cosine of the widest angle to the axis
  for (std::size_t k = 0; k < count; ++k) {
    const float length2 = glm::dot(normals[k], normals[k]);
    if (!(length2 > 0.0f) || !std::isfinite(length2)) return glm::vec4(0.0f, 0.0f, 0.0f, kWide);
    const float cosine = glm::dot(axis, normals[k]);
    least = std::min(least, cosine * std::abs(cosine) / length2);
  }
  // Widened by more than the rounding of a square near 1 (2.4e-4 at 0°).
  const float cosine = std::copysign(std::sqrt(std::abs(least)), least);
  const float angle = std::acos(std::clamp(cosine, -1.0f, 1.0f));
  return glm::vec4(axis, std::min(angle + 5e-4f, kWide));
}

void boundLeaves(const ConeTree& tree, const std::vector<Aabb>& triangleBoxes,
                 const std::vector<glm::vec4>& normals, ConeSearch& search) {
  search.box.resize(tree.nodes.size());
  search.cone.resize(tree.nodes.size());
  glm::vec3 leafNormals[kConeLeaf];
  for (const std::uint32_t n : tree.leafNode) {
    const Node& node = tree.nodes[n];
    Aabb box = triangleBoxes[tree.triangles[node.triBegin]];
    for (std::uint32_t k = node.triBegin; k < node.triEnd; ++k) {
      const std::uint32_t t = tree.triangles[k];
      box = unite(box, triangleBoxes[t]);
      leafNormals[k - node.triBegin] = glm::vec3(normals[t]);
    }
    search.box[n] = box;
    search.cone[n] = coneAround(leafNormals, node.triEnd - node.triBegin);
  }
}

bool walkConeTree(const ConeTree& tree, const ConeWalk& walk, std::size_t budget,
                  ConeSearch& search, const glm::vec3* x, ThreadTeam* team) {
  search.pairs.clear();
  for (std::size_t n = tree.nodes.size(); n-- > 0;) {
    const Node& node = tree.nodes[n];
    if (node.child[0] == ConeTree::kNoChild) continue;
    search.box[n] = unite(search.box[node.child[0]], search.box[node.child[1]]);
    search.cone[n] = mergeCones(search.cone[node.child[0]], search.cone[node.child[1]]);
  }
  // The tests a pair of leaves leaves.
  auto tests = [&](std::uint32_t a, std::uint32_t b) {
    const Node &na = tree.nodes[a], &nb = tree.nodes[b];
    std::size_t work = std::size_t(na.edgeEnd - na.edgeBegin) * (nb.triEnd - nb.triBegin);
    if (a != b) work += std::size_t(nb.edgeEnd - nb.edgeBegin) * (na.triEnd - na.triBegin);
    return work;
  };
  // One job: (a, a) within node a, (a, b) between them. Ruled out, or a
  // pair of leaves emitted, or the jobs it splits into pushed.
  auto step = [&](const glm::uvec2 job, ConeSearch::Walker& walker, auto&& push, auto&& emit) {
    const Node &a = tree.nodes[job.x], &b = tree.nodes[job.y];
    const bool leafA = a.child[0] == ConeTree::kNoChild, leafB = b.child[0] == ConeTree::kNoChild;
    if (job.x == job.y) {
      // With everyLeaf (crossings), a leaf the walk reaches is tested
      // within, narrow or not: crushed in a tangle, a few triangles can pass
      // through each other with their normals within 82° of one direction
      // (their outline, seen along it, crosses itself), and testing one
      // costs little.
      bool smooth = a.connected && narrow(search.cone[job.x], walk.narrowBelow);
      if (leafA && (walk.everyLeaf || !smooth)) {
        emit(job);
        return;
      }
      if (smooth && walk.outline && !leafA)
        smooth = nodesOutlineSimple(tree, job.x, job.x, glm::vec3(search.cone[job.x]), x, walker);
      if (smooth || leafA) return;
      push({a.child[0], a.child[1]});
      push({a.child[1], a.child[1]});
      push({a.child[0], a.child[0]});
      return;
    }
    if (!search.box[job.x].overlaps(search.box[job.y])) return;
    if (a.connected && b.connected) {
      const glm::vec4 cone = mergeCones(search.cone[job.x], search.cone[job.y]);
      if (narrow(cone, walk.narrowBelow) && joined(tree, a, b) &&
          (!walk.outline || nodesOutlineSimple(tree, job.x, job.y, glm::vec3(cone), x, walker)))
        return;
    }
    if (leafA && leafB) {
      emit(job);
      return;
    }
    // Split the larger (or the one that is not a leaf).
    const bool splitA = leafB || (!leafA && a.triEnd - a.triBegin >= b.triEnd - b.triBegin);
    if (splitA) {
      push({a.child[1], job.y});
      push({a.child[0], job.y});
    } else {
      push({job.x, b.child[1]});
      push({job.x, b.child[0]});
    }
  };
  const int threads = team ? team->size() : 1;
  search.walkers.resize(std::max<std::size_t>(search.walkers.size(), std::size_t(threads)));
  // The top, breadth first on this thread, until there are kWalkJobs jobs
  // (the same on any number of threads).
  std::size_t work = 0;
  search.jobs.assign(1, glm::uvec2(0u));
  std::size_t head = 0;
  while (head < search.jobs.size() && search.jobs.size() - head < kWalkJobs && work <= budget) {
    const glm::uvec2 job = search.jobs[head++];
    step(
        job, search.walkers[0], [&](const glm::uvec2& next) { search.jobs.push_back(next); },
        [&](const glm::uvec2& pair) {
          work += tests(pair.x, pair.y);
          search.pairs.push_back(pair);
        });
  }
  // The rest, depth first, each job on whichever thread is free; a job
  // stops once it alone exceeds the budget.
  const std::size_t jobs = work <= budget ? search.jobs.size() - head : 0;
  if (search.jobPairs.size() < jobs) search.jobPairs.resize(jobs);
  search.jobWork.assign(jobs, 0);
  auto walkJob = [&](std::size_t j, int thread) {
    ConeSearch::Walker& walker = search.walkers[std::size_t(thread)];
    std::vector<glm::uvec2>& pairs = search.jobPairs[j];
    std::size_t& jobWork = search.jobWork[j];
    pairs.clear();
    walker.todo.assign(1, search.jobs[head + j]);
    while (!walker.todo.empty() && jobWork <= budget) {
      const glm::uvec2 job = walker.todo.back();
      walker.todo.pop_back();
      step(
          job, walker, [&](const glm::uvec2& next) { walker.todo.push_back(next); },
          [&](const glm::uvec2& pair) {
            jobWork += tests(pair.x, pair.y);
            pairs.push_back(pair);
          });
    }
  };
  if (team && threads > 1 && jobs > 1)
    forEachChunk(*team, jobs, walkJob);
  else
    for (std::size_t j = 0; j < jobs; ++j) walkJob(j, 0);
  for (std::size_t j = 0; j < jobs; ++j) {
    work += search.jobWork[j];
    search.pairs.insert(search.pairs.end(), search.jobPairs[j].begin(), search.jobPairs[j].end());
  }
  if (work > budget) {
    search.pairs.clear();
    return false;
  }
  return true;
}

}  // namespace drape::sim
