// Building the cone tree of a cloth's topology (cone_tree.hpp): its
// triangles clustered into connected nodes, the leaves' neighbours and each
// node's outline. The walk over it is in cone_tree.cpp.

#include <algorithm>
#include <numeric>
#include <utility>

#include "sim/cloth.hpp"
#include "sim/self/cone_tree.hpp"

namespace drape::sim {
namespace {

using Node = ConeTree::Node;

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
    node.connected = a.connected && b.connected && tree.joined(a, b);
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

bool ConeTree::joined(const Node& a, const Node& b) const {
  const bool aSmaller = a.leafEnd - a.leafBegin <= b.leafEnd - b.leafBegin;
  const Node& s = aSmaller ? a : b;
  const Node& o = aSmaller ? b : a;
  for (std::uint32_t l = s.leafBegin; l < s.leafEnd; ++l)
    for (std::uint32_t j = adjacentStart[l]; j < adjacentStart[l + 1]; ++j)
      if (adjacent[j] >= o.leafBegin && adjacent[j] < o.leafEnd) return true;
  return false;
}

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

}  // namespace drape::sim
