#include "sim/self/untangle.hpp"
#include "sim/tuning.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>

#include "sim/cloth.hpp"
#include "sim/self/neighbour_lists.hpp"
#include "sim/self/self_collision.hpp"
#include "sim/self/vertex_triangle.hpp"
#include "sim/state.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

constexpr std::uint32_t kNone = UINT32_MAX;

// Edges per chunk of the parallel search.
constexpr std::size_t kEdgesPerChunk = 2048;

// Each vertex's edges, and the third corners of the triangles beside each edge.
void buildTopology(const Cloth& cloth, Tangles& t) {
  const std::size_t n = cloth.vertexCount();
  t.edgeStart.assign(n + 1, 0);
  for (const StretchConstraint& e : cloth.stretch) {
    ++t.edgeStart[e.a + 1];
    ++t.edgeStart[e.b + 1];
  }
  for (std::size_t i = 0; i < n; ++i) t.edgeStart[i + 1] += t.edgeStart[i];
  t.edges.resize(t.edgeStart[n]);
  std::vector<std::uint32_t> fill(t.edgeStart.begin(), t.edgeStart.end() - 1);
  for (std::uint32_t k = 0; k < cloth.stretch.size(); ++k) {
    t.edges[fill[cloth.stretch[k].a]++] = k;
    t.edges[fill[cloth.stretch[k].b]++] = k;
  }
  t.opposite.assign(cloth.stretch.size(), glm::uvec2(kNone));
  t.edgeTriangle.assign(cloth.stretch.size(), kNone);
  for (std::uint32_t f = 0; f < cloth.triangles.size(); ++f) {
    const glm::uvec3& tri = cloth.triangles[f];
    for (int k = 0; k < 3; ++k) {
      std::uint32_t u = tri[k], v = tri[(k + 1) % 3];
      const std::uint32_t w = tri[(k + 2) % 3];
      // The edge u–v among the edges of whichever end has fewer: linear in
      // the mesh even where one vertex has thousands (a fan's hub).
      if (t.edgeStart[v + 1] - t.edgeStart[v] < t.edgeStart[u + 1] - t.edgeStart[u])
        std::swap(u, v);
      for (std::uint32_t j = t.edgeStart[u]; j < t.edgeStart[u + 1]; ++j) {
        const StretchConstraint& e = cloth.stretch[t.edges[j]];
        if (e.a + e.b - u != v) continue;
        glm::uvec2& o = t.opposite[t.edges[j]];
        (o[0] == kNone ? o[0] : o[1]) = w;
        if (t.edgeTriangle[t.edges[j]] == kNone) t.edgeTriangle[t.edges[j]] = f;
        break;
      }
    }
  }
  t.cell = meanRestEdge(cloth);
  t.topology = cloth.topologyVersion;
}

// Edge k against triangle f, whose plane is `plane`: into `out` where the
// edge passes through the triangle's interior.
void testEdgeTriangle(const Cloth& cloth, const std::vector<glm::vec3>& x, const Tangles& t,
                      std::uint32_t k, std::uint32_t f, const glm::vec4& plane,
                      std::vector<Crossing>& out) {
  const StretchConstraint& e = cloth.stretch[k];
  const glm::vec3 &p = x[e.a], &q = x[e.b];
  // The ends on one side of the plane (in float) rule most out.
  const float dp = glm::dot(glm::vec3(plane), p) - plane.w;
  const float dq = glm::dot(glm::vec3(plane), q) - plane.w;
  if ((dp > 0.0f && dq > 0.0f) || (dp < 0.0f && dq < 0.0f)) return;
  const glm::uvec3& tri = cloth.triangles[f];
  if (shares(tri, e.a) || shares(tri, e.b)) return;
  if (!segmentCrossesTriangleStrictly(glm::dvec3(p), glm::dvec3(q), glm::dvec3(x[tri[0]]),
                                      glm::dvec3(x[tri[1]]), glm::dvec3(x[tri[2]])))
    return;
  out.push_back({k, f, e.a, e.b, {t.opposite[k][0], t.opposite[k][1]}, {tri[0], tri[1], tri[2]}});
}

// By edge, then triangle: both searches give the same list.
bool crossingBefore(const Crossing& a, const Crossing& b) {
  return a.edge < b.edge || (a.edge == b.edge && a.triangle < b.triangle);
}

void sortCrossings(std::vector<Crossing>& crossings) {
  std::sort(crossings.begin(), crossings.end(), crossingBefore);
}

// Leaf pairs per chunk of the culled search.
constexpr std::size_t kPairsPerChunk = 32;

// The culled search (cone_tree.hpp): the pairs of leaves the walk leaves,
// each leaf's edges against the other's triangles.
bool findCulled(const Cloth& cloth, const std::vector<glm::vec3>& x, ThreadTeam* team, Tangles& t) {
  const ConeTree& tree = t.cones;
  ConeSearch& search = t.coneSearch;
  const std::size_t budget = tuning::kVisitsPerEdge * cloth.stretch.size() + (std::size_t(1) << 20);
  boundLeaves(tree, t.boxes, t.planes, search);
  if (!walkConeTree(tree, kCrossingWalk, budget, search, x.data(), team)) return false;
  const std::size_t chunks = (search.pairs.size() + kPairsPerChunk - 1) / kPairsPerChunk;
  t.chunks.resize(std::max(t.chunks.size(), chunks));
  // Node e's edges against node f's triangles.
  auto edgesAgainst = [&](std::uint32_t e, std::uint32_t f, std::vector<Crossing>& out) {
    const ConeTree::Node &edges = tree.nodes[e], &triangles = tree.nodes[f];
    // f's triangles within e's box first: where two leaves overlap, most
    // of either lies outside the other.
    std::uint32_t near[kConeLeaf];
    std::uint32_t count = 0;
    for (std::uint32_t j = triangles.triBegin; j < triangles.triEnd; ++j)
      if (t.boxes[tree.triangles[j]].overlaps(search.box[e])) near[count++] = tree.triangles[j];
    if (count == 0) return;
    for (std::uint32_t i = edges.edgeBegin; i < edges.edgeEnd; ++i) {
      const std::uint32_t k = tree.edges[i];
      const StretchConstraint& edge = cloth.stretch[k];
      const Aabb box{glm::min(x[edge.a], x[edge.b]), glm::max(x[edge.a], x[edge.b])};
      if (!box.overlaps(search.box[f])) continue;
      for (std::uint32_t j = 0; j < count; ++j)
        if (box.overlaps(t.boxes[near[j]]))
          testEdgeTriangle(cloth, x, t, k, near[j], t.planes[near[j]], out);
    }
  };
  auto body = [&](std::size_t c, int) {
    std::vector<Crossing>& out = t.chunks[c];
    out.clear();
    const std::size_t end = std::min(search.pairs.size(), (c + 1) * kPairsPerChunk);
    for (std::size_t i = c * kPairsPerChunk; i < end; ++i) {
      const glm::uvec2 pair = search.pairs[i];
      edgesAgainst(pair.x, pair.y, out);
      if (pair.x != pair.y) edgesAgainst(pair.y, pair.x, out);
    }
  };
  if (team)
    forEachChunk(*team, chunks, body);
  else
    for (std::size_t c = 0; c < chunks; ++c) body(c, 0);
  for (std::size_t c = 0; c < chunks; ++c)
    t.crossings.insert(t.crossings.end(), t.chunks[c].begin(), t.chunks[c].end());
  return true;
}

}  // namespace

void prepareConeTree(const Cloth& cloth, Tangles& t) {
  if (t.topology != cloth.topologyVersion || t.opposite.size() != cloth.stretch.size() ||
      t.edgeStart.size() != cloth.vertexCount() + 1)
    buildTopology(cloth, t);
  if (t.conesTopology == t.topology) return;
  buildConeTree(cloth, t.edgeTriangle, t.cones);
  t.conesTopology = t.topology;
}

bool findCrossings(const Cloth& cloth, const std::vector<glm::vec3>& x, ThreadTeam* team,
                   Tangles& t, CrossingSearch search) {
  if (t.topology != cloth.topologyVersion || t.opposite.size() != cloth.stretch.size() ||
      t.edgeStart.size() != cloth.vertexCount() + 1)
    buildTopology(cloth, t);
  t.crossings.clear();
  const float cell = t.cell;
  if (!(cell > 0.0f) || cloth.triangles.empty()) return true;
  t.boxes.resize(cloth.triangles.size());
  t.planes.resize(cloth.triangles.size());
  for (std::size_t k = 0; k < t.boxes.size(); ++k) {
    const glm::uvec3& tri = cloth.triangles[k];
    t.boxes[k].min = glm::min(x[tri[0]], glm::min(x[tri[1]], x[tri[2]]));
    t.boxes[k].max = glm::max(x[tri[0]], glm::max(x[tri[1]], x[tri[2]]));
    const glm::vec3 N = glm::cross(x[tri[1]] - x[tri[0]], x[tri[2]] - x[tri[0]]);
    t.planes[k] = glm::vec4(N, glm::dot(N, x[tri[0]]));
  }
  if (search == CrossingSearch::Culled) {
    prepareConeTree(cloth, t);
    if (t.cones.usable) {
      if (!findCulled(cloth, x, team, t)) return false;
      sortCrossings(t.crossings);
      return true;
    }
  }
  t.hash.build(t.boxes, cell);
  const std::size_t edges = cloth.stretch.size();
  const std::size_t chunks = (edges + kEdgesPerChunk - 1) / kEdgesPerChunk;
  const std::size_t threads = team ? std::size_t(team->size()) : 1;
  t.chunks.resize(std::max(t.chunks.size(), chunks));
  t.seen.resize(threads);
  t.found.resize(threads);
  for (std::vector<std::uint32_t>& seen : t.seen) seen.assign(cloth.triangles.size(), kNone);
  std::atomic<bool> gaveUp{false};  // once a chunk has, the others stop too
  auto body = [&](std::size_t c, int thread) {
    if (gaveUp.load(std::memory_order_relaxed)) return;
    std::vector<Crossing>& out = t.chunks[c];
    out.clear();
    std::vector<std::uint32_t>& seen = t.seen[std::size_t(thread)];
    std::vector<std::uint32_t>& found = t.found[std::size_t(thread)];
    const std::size_t end = std::min(edges, (c + 1) * kEdgesPerChunk);
    // Where far more boxes overlap than a cloth piles up (all the triangles
    // of a fan meet at its hub), the search would take time quadratic in
    // the mesh, and the chunk gives up.
    const std::size_t budget = tuning::kVisitsPerEdge * kEdgesPerChunk + (std::size_t(1) << 20);
    std::size_t visited = 0;
    for (std::uint32_t k = std::uint32_t(c * kEdgesPerChunk); k < end; ++k) {
      const StretchConstraint& e = cloth.stretch[k];
      const glm::vec3 &p = x[e.a], &q = x[e.b];
      const std::size_t count = t.hash.collect({glm::min(p, q), glm::max(p, q)}, found);
      visited += count;
      if (visited > budget || gaveUp.load(std::memory_order_relaxed)) {
        gaveUp.store(true, std::memory_order_relaxed);
        out.clear();
        return;
      }
      for (std::size_t j = 0; j < count; ++j) {
        const std::uint32_t f = found[j];
        if (seen[f] == k) continue;
        seen[f] = k;
        testEdgeTriangle(cloth, x, t, k, f, t.planes[f], out);
      }
    }
  };
  if (team)
    forEachChunk(*team, chunks, body);
  else
    for (std::size_t c = 0; c < chunks; ++c) body(c, 0);
  if (gaveUp.load()) return false;
  for (std::size_t c = 0; c < chunks; ++c)
    t.crossings.insert(t.crossings.end(), t.chunks[c].begin(), t.chunks[c].end());
  sortCrossings(t.crossings);
  return true;
}

std::size_t countFresh(const std::vector<Crossing>& known, const std::vector<Crossing>& found) {
  std::size_t fresh = 0, k = 0;
  for (const Crossing& c : found) {
    while (k < known.size() && crossingBefore(known[k], c)) ++k;
    if (k == known.size() || crossingBefore(c, known[k])) ++fresh;
  }
  return fresh;
}

void markCrossingVertices(const std::vector<Crossing>& crossings, std::size_t vertexCount,
                          std::vector<std::uint8_t>& marked) {
  marked.assign(crossings.empty() ? 0 : vertexCount, 0);
  for (const Crossing& c : crossings) {
    marked[c.a] = marked[c.b] = 1;
    for (int k = 0; k < 3; ++k) marked[c.tri[k]] = 1;
  }
}

void keepStillCrossing(const std::vector<glm::vec3>& x, std::vector<Crossing>& crossings) {
  const auto gone = [&](const Crossing& c) {
    return !segmentCrossesTriangleStrictly(glm::dvec3(x[c.a]), glm::dvec3(x[c.b]),
                                           glm::dvec3(x[c.tri[0]]), glm::dvec3(x[c.tri[1]]),
                                           glm::dvec3(x[c.tri[2]]));
  };
  crossings.erase(std::remove_if(crossings.begin(), crossings.end(), gone), crossings.end());
}

void findRegions(const Cloth& cloth, const std::vector<Crossing>& crossings, Tangles& t) {
  t.region.clear();
  if (crossings.empty()) return;
  const std::uint32_t n = std::uint32_t(cloth.vertexCount());
  t.parent.resize(n);
  std::iota(t.parent.begin(), t.parent.end(), 0u);
  auto root = [&](std::uint32_t v) {
    while (t.parent[v] != v) v = t.parent[v] = t.parent[t.parent[v]];
    return v;
  };
  t.cut.assign(cloth.stretch.size(), 0);
  for (const Crossing& c : crossings) t.cut[c.edge] = 1;
  for (std::size_t k = 0; k < cloth.stretch.size(); ++k) {
    if (t.cut[k]) continue;
    const std::uint32_t a = root(cloth.stretch[k].a), b = root(cloth.stretch[k].b);
    // The smaller index is the root: the same parts whatever the order.
    if (a != b) t.parent[std::max(a, b)] = std::min(a, b);
  }
  t.size.assign(n, 0);
  for (std::uint32_t v = 0; v < n; ++v) ++t.size[root(v)];
  // Each piece's largest part is outside every contour (the first, on a tie).
  t.largest.assign(cloth.pieceCount, kNone);
  for (std::uint32_t v = 0; v < n; ++v) {
    if (t.parent[v] != v) continue;
    std::uint32_t& best = t.largest[cloth.piece[v]];
    if (best == kNone || t.size[v] > t.size[best]) best = v;
  }
  bool any = false;
  t.region.assign(n, 0);
  for (std::uint32_t v = 0; v < n; ++v) {
    const std::uint32_t r = root(v);
    if (r == t.largest[cloth.piece[v]]) continue;
    t.region[v] = 1 + r;
    any = true;
  }
  if (!any) t.region.clear();
}

glm::vec3 contourGradient(const Points& pts, const Crossing& c) {
  const glm::vec3 &p0 = pts.p(c.tri[0]), &p1 = pts.p(c.tri[1]), &p2 = pts.p(c.tri[2]);
  const glm::vec3 normal = glm::cross(p1 - p0, p2 - p0);
  const float normalLength = glm::length(normal);
  if (!(normalLength > 0.0f)) return glm::vec3(0.0f);
  const glm::vec3 N = normal / normalLength;
  const glm::vec3 a = pts.p(c.a), E = pts.p(c.b) - a;
  const float en = glm::dot(E, N);
  if (!(std::abs(en) > 1e-6f * glm::length(E))) return glm::vec3(0.0f);
  glm::vec3 G(0.0f);
  for (const std::uint32_t o : c.opposite) {
    if (o == kNone) continue;
    const glm::vec3 side = pts.p(o) - a;
    glm::vec3 R = glm::cross(N, glm::cross(E, side));
    const float length = glm::length(R);
    if (!(length > 0.0f)) continue;
    R /= length;
    // Into the triangle beside the edge: along the part of `side` across E.
    const glm::vec3 across = side - (glm::dot(side, E) / glm::dot(E, E)) * E;
    if (glm::dot(R, across) < 0.0f) R = -R;
    G += R - (2.0f * glm::dot(E, R) / en) * N;
  }
  return G;
}

void shareCrossings(std::size_t vertexCount, std::vector<Crossing>& crossings,
                    std::vector<std::uint32_t>& at) {
  if (crossings.empty()) return;
  at.resize(vertexCount, 0);
  auto each = [](const Crossing& c, auto&& f) {
    for (const std::uint32_t v : {c.a, c.b, c.tri[0], c.tri[1], c.tri[2]}) f(v);
  };
  for (const Crossing& c : crossings) each(c, [&](std::uint32_t v) { ++at[v]; });
  for (Crossing& c : crossings) {
    std::uint32_t most = 0;
    each(c, [&](std::uint32_t v) { most = std::max(most, at[v]); });
    c.share = most > tuning::kUntangleCrowd ? float(tuning::kUntangleCrowd) / float(most) : 1.0f;
  }
  for (const Crossing& c : crossings) each(c, [&](std::uint32_t v) { at[v] = 0; });
}

void solveCrossings(const Points& pts, const std::vector<Crossing>& crossings, float thickness) {
  for (const Crossing& c : crossings) {
    const glm::vec3 &p0 = pts.p(c.tri[0]), &p1 = pts.p(c.tri[1]), &p2 = pts.p(c.tri[2]);
    const glm::vec3 &a = pts.p(c.a), &b = pts.p(c.b);
    // Where the edge meets the triangle's plane, if it still passes through.
    const glm::vec3 N = glm::cross(p1 - p0, p2 - p0);
    const float n2 = glm::dot(N, N);
    const float da = glm::dot(a - p0, N), db = glm::dot(b - p0, N);
    if (!(n2 > 0.0f) || (da > 0.0f) == (db > 0.0f) || da == db) continue;
    const float s = da / (da - db);
    const glm::vec3 hit = a + s * (b - a);
    float bary[3] = {glm::dot(glm::cross(p2 - p1, hit - p1), N) / n2,
                     glm::dot(glm::cross(p0 - p2, hit - p2), N) / n2, 0.0f};
    bary[2] = 1.0f - bary[0] - bary[1];
    if (bary[0] < 0.0f || bary[1] < 0.0f || bary[2] < 0.0f) continue;
    const glm::vec3 G = contourGradient(pts, c);
    const float g = glm::length(G);
    if (!(g > 0.0f)) continue;
    // A step of at most its share, smaller where the contour barely changes
    // (regularised as |G| / √(|G|² + 1)).
    const float step = tuning::kUntangleStep * thickness * c.share;
    const glm::vec3 move = (step / std::sqrt(g * g + 1.0f)) * G;
    const float wa = pts.invMass(c.a) * (1.0f - s), wb = pts.invMass(c.b) * s;
    float wt[3], denom = wa * (1.0f - s) + wb * s;
    for (int k = 0; k < 3; ++k) {
      wt[k] = pts.invMass(c.tri[k]) * bary[k];
      denom += wt[k] * bary[k];
    }
    if (!(denom > 0.0f)) continue;
    pts.p(c.a) += (wa / denom) * move;
    pts.p(c.b) += (wb / denom) * move;
    for (int k = 0; k < 3; ++k) pts.p(c.tri[k]) -= (wt[k] / denom) * move;
  }
}

}  // namespace drape::sim
