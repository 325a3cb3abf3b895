#include "sim/solve/hierarchy.hpp"

#include <algorithm>
#include <cmath>

#include "sim/cloth.hpp"
#include "sim/constraints.hpp"
#include "sim/solve/coefficients.hpp"
#include "sim/solve/coloring.hpp"
#include "sim/solve/ranges.hpp"
#include "sim/state.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

// A level's graph: m vertices, undirected edges with rest lengths, as CSR.
struct Graph {
  std::size_t m = 0;
  std::vector<std::uint32_t> start, adj;
  std::vector<float> len, stiffness;
};

struct Edge {
  std::uint32_t a, b;
  float rest;
  float stiffness;  // the least material multiplier along it
};

Graph makeGraph(std::size_t m, const std::vector<Edge>& edges) {
  Graph g;
  g.m = m;
  g.start.assign(m + 1, 0);
  for (const Edge& e : edges) {
    ++g.start[e.a + 1];
    ++g.start[e.b + 1];
  }
  for (std::size_t i = 0; i < m; ++i) g.start[i + 1] += g.start[i];
  g.adj.resize(g.start[m]);
  g.len.resize(g.start[m]);
  g.stiffness.resize(g.start[m]);
  std::vector<std::uint32_t> fill(g.start.begin(), g.start.end() - 1);
  for (const Edge& e : edges) {
    g.len[fill[e.a]] = e.rest;
    g.stiffness[fill[e.a]] = e.stiffness;
    g.adj[fill[e.a]++] = e.b;
    g.len[fill[e.b]] = e.rest;
    g.stiffness[fill[e.b]] = e.stiffness;
    g.adj[fill[e.b]++] = e.a;
  }
  return g;
}

constexpr float kPathShare = 0.9f;

// Each pair once with its shortest rest, sorted by pair: the order does
// not depend on how the candidates were found.
std::vector<Edge> shortestPerPair(std::vector<Edge> edges) {
  for (Edge& e : edges)
    if (e.a > e.b) std::swap(e.a, e.b);
  std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) {
    return x.a != y.a ? x.a < y.a : x.b != y.b ? x.b < y.b : x.rest < y.rest;
  });
  std::vector<Edge> out;
  for (const Edge& e : edges)
    if (out.empty() || out.back().a != e.a || out.back().b != e.b) out.push_back(e);
  return out;
}

// The level's constraints into `out`: in blocks where it is large and few
// cross them (HierarchyLevel::blockStart), else in their own order.
void packLevel(const std::vector<Edge>& edges, const std::vector<std::uint32_t>& kept,
               const std::vector<std::uint32_t>& global, std::size_t vertices,
               HierarchyLevel& out) {
  std::vector<std::uint32_t> block(edges.size());
  std::vector<std::uint32_t> start(kSolveBlocks + 2, 0);
  for (std::size_t j = 0; j < edges.size(); ++j) {
    const std::size_t ga = std::size_t(global[kept[edges[j].a]]) * kSolveBlocks / vertices;
    const std::size_t gb = std::size_t(global[kept[edges[j].b]]) * kSolveBlocks / vertices;
    block[j] = std::uint32_t(ga == gb ? ga : kSolveBlocks);
    ++start[block[j] + 1];
  }
  const bool blocked = out.fine.size() >= kSplitFine &&
                       double(start[kSolveBlocks + 1]) <= kMaxAcross * double(edges.size());
  for (std::size_t g = 0; g <= kSolveBlocks; ++g) start[g + 1] += start[g];
  std::vector<std::uint32_t> order(edges.size());
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (std::size_t j = 0; j < edges.size(); ++j)
    order[blocked ? fill[block[j]]++ : j] = std::uint32_t(j);
  if (blocked) out.blockStart.assign(start.begin(), start.end() - 1);
  out.a.reserve(edges.size());
  for (std::uint32_t j : order) {
    out.a.push_back(edges[j].a);
    out.b.push_back(edges[j].b);
    out.rest.push_back(edges[j].rest);
    out.stiffness.push_back(edges[j].stiffness);
  }
}

// The level's constraints' cloth indices and inverse masses
// (HierarchyLevel::aVertex), from their indices into its vertices and the
// vertices' inverse masses.
void indexByVertex(const std::vector<float>& invMass, HierarchyLevel& out) {
  const std::size_t count = out.a.size();
  out.aVertex.resize(count);
  out.bVertex.resize(count);
  out.aInvMass.resize(count);
  out.bInvMass.resize(count);
  for (std::size_t j = 0; j < count; ++j) {
    out.aVertex[j] = out.vertex[out.a[j]];
    out.bVertex[j] = out.vertex[out.b[j]];
    out.aInvMass[j] = invMass[out.a[j]];
    out.bInvMass[j] = invMass[out.b[j]];
  }
}

// The vertices the next level keeps (returned; coarse[i]: i's index among them), spread evenly.
std::vector<std::uint32_t> keepVertices(const Cloth& cloth, const Graph& g,
                                        const std::vector<std::uint32_t>& global,
                                        const std::vector<char>& fixed,
                                        std::vector<std::uint32_t>& coarse) {
  const std::size_t m = g.m;
  // Kept: no two within `spacing` at rest among each other's neighbours
  // and theirs (a grid keeps every other vertex each way, a quarter);
  // fixed vertices first, then in index order.
  double edgeSum = 0.0;
  for (float l : g.len) edgeSum += double(l);
  const float spacing = g.len.empty() ? 0.0f : float(1.5 * edgeSum / double(g.len.size()));
  std::vector<std::uint32_t> kept;
  auto tryKeep = [&](std::uint32_t i) {
    if (coarse[i] != UINT32_MAX) return;
    const glm::vec3& xi = cloth.restPositions[global[i]];
    for (std::uint32_t k = g.start[i]; k < g.start[i + 1]; ++k) {
      const std::uint32_t u = g.adj[k];
      if (coarse[u] != UINT32_MAX) return;
      for (std::uint32_t l = g.start[u]; l < g.start[u + 1]; ++l)
        if (coarse[g.adj[l]] != UINT32_MAX &&
            glm::length(cloth.restPositions[global[g.adj[l]]] - xi) < spacing)
          return;
    }
    coarse[i] = std::uint32_t(kept.size());
    kept.push_back(i);
  };
  for (std::uint32_t i = 0; i < m; ++i)
    if (fixed[i]) tryKeep(i);
  for (std::uint32_t i = 0; i < m; ++i) tryKeep(i);
  // Fixed vertices next to each other: keep them all (they never move).
  for (std::uint32_t i = 0; i < m; ++i)
    if (fixed[i] && coarse[i] == UINT32_MAX) {
      coarse[i] = std::uint32_t(kept.size());
      kept.push_back(i);
    }
  return kept;
}

// Each vertex not kept with its parents and weights, into `out`; returns the kept ones' masses.
std::vector<double> assignParents(const Graph& g, const std::vector<std::uint32_t>& coarse,
                                  const std::vector<std::uint32_t>& kept,
                                  const std::vector<std::uint32_t>& global,
                                  const std::vector<double>& mass, HierarchyLevel& out) {
  const std::size_t m = g.m, c = kept.size();
  // Parents of each vertex not kept: its kept neighbours, weighted by
  // inverse rest distance.
  std::vector<double> coarseMass(c);
  for (std::size_t k = 0; k < c; ++k) coarseMass[k] = mass[kept[k]];
  std::vector<std::uint32_t> parent;  // indices into the level's vertices
  out.parentStart.push_back(0);
  for (std::uint32_t i = 0; i < m; ++i) {
    if (coarse[i] != UINT32_MAX) continue;
    double sum = 0.0;
    const std::size_t first = parent.size();
    for (std::uint32_t k = g.start[i]; k < g.start[i + 1]; ++k)
      if (coarse[g.adj[k]] != UINT32_MAX) {
        parent.push_back(coarse[g.adj[k]]);
        out.weight.push_back(1.0f / g.len[k]);
        sum += double(out.weight.back());
      }
    // None next to it: the kept vertices two edges away (a grid's cell
    // centre), each once, by its shortest path.
    if (parent.size() == first)
      for (std::uint32_t k = g.start[i]; k < g.start[i + 1]; ++k)
        for (std::uint32_t l = g.start[g.adj[k]]; l < g.start[g.adj[k] + 1]; ++l) {
          const std::uint32_t u = g.adj[l];
          if (coarse[u] == UINT32_MAX) continue;
          const float inv = 1.0f / (g.len[k] + g.len[l]);
          std::size_t q = first;
          while (q < parent.size() && parent[q] != coarse[u]) ++q;
          if (q == parent.size()) {
            parent.push_back(coarse[u]);
            out.weight.push_back(inv);
            sum += double(inv);
          } else if (inv > out.weight[q]) {
            sum += double(inv - out.weight[q]);
            out.weight[q] = inv;
          }
        }
    if (parent.size() == first) continue;  // isolated: no neighbour at all
    for (std::size_t k = first; k < parent.size(); ++k) {
      out.weight[k] = float(double(out.weight[k]) / sum);
      coarseMass[parent[k]] += double(out.weight[k]) * mass[i];
    }
    out.fine.push_back(global[i]);
    out.parentStart.push_back(std::uint32_t(parent.size()));
  }
  out.parent.resize(parent.size());
  for (std::size_t q = 0; q < parent.size(); ++q) out.parent[q] = out.vertex[parent[q]];
  return coarseMass;
}

// The next level's constraints (by index among the kept), limits that a flat cloth cannot exceed.
std::vector<Edge> coarseConstraints(const Cloth& cloth, const Graph& g,
                                    const std::vector<std::uint32_t>& coarse,
                                    const std::vector<std::uint32_t>& kept,
                                    const std::vector<std::uint32_t>& global) {
  const std::size_t m = g.m;
  // Coarse constraints over two finer edges (through a vertex not kept)
  // and over three (through an edge between two vertices not kept).
  std::vector<Edge> next;
  for (std::uint32_t i = 0; i < m; ++i) {
    if (coarse[i] != UINT32_MAX) continue;
    for (std::uint32_t k = g.start[i]; k < g.start[i + 1]; ++k) {
      const std::uint32_t u = g.adj[k];
      if (coarse[u] != UINT32_MAX) {
        for (std::uint32_t l = k + 1; l < g.start[i + 1]; ++l)
          if (coarse[g.adj[l]] != UINT32_MAX)
            next.push_back({coarse[u], coarse[g.adj[l]], g.len[k] + g.len[l],
                            std::min(g.stiffness[k], g.stiffness[l])});
      } else if (u > i) {
        for (std::uint32_t k1 = g.start[i]; k1 < g.start[i + 1]; ++k1) {
          if (coarse[g.adj[k1]] == UINT32_MAX) continue;
          for (std::uint32_t k2 = g.start[u]; k2 < g.start[u + 1]; ++k2)
            if (coarse[g.adj[k2]] != UINT32_MAX && g.adj[k2] != g.adj[k1])
              next.push_back(
                  {coarse[g.adj[k1]], coarse[g.adj[k2]], g.len[k1] + g.len[k] + g.len[k2],
                   std::min(g.stiffness[k1], std::min(g.stiffness[k], g.stiffness[k2]))});
        }
      }
    }
  }
  next = shortestPerPair(std::move(next));
  // The limit: the distance at rest, as a flat cloth cannot stretch it
  // without stretching its edges (a path along edges zigzags: on a grid
  // with diagonals, a knight's move is 8 % longer along the edges than
  // straight). Where the rest shape curves, a chord is shorter than the
  // surface between its ends; the limit is then at least 90 % of the path,
  // so the coarse levels let a curved cloth bend open, nearly flat.
  for (Edge& e : next) {
    const float chord = glm::length(cloth.restPositions[global[kept[e.a]]] -
                                    cloth.restPositions[global[kept[e.b]]]);
    e.rest = std::max(chord, kPathShare * e.rest);
  }
  return next;
}

}  // namespace

Hierarchy buildHierarchy(const Cloth& cloth, const std::vector<float>& w, int maxLevels) {
  Hierarchy h;
  const std::size_t n = cloth.vertexCount();
  if (maxLevels <= 0 || n < 2 * kMinCoarse) return h;
  // Level 0: the cloth itself.
  std::vector<Edge> edges;
  edges.reserve(cloth.stretch.size());
  for (const StretchConstraint& e : cloth.stretch)
    if (e.a != e.b && e.rest > 0.0f) edges.push_back({e.a, e.b, e.rest, e.stiffness});
  Graph g = makeGraph(n, shortestPerPair(std::move(edges)));
  std::vector<std::uint32_t> global(n);
  std::vector<double> mass(n);
  std::vector<char> fixed(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    global[i] = i;
    mass[i] = double(cloth.mass[i]);
    fixed[i] = w[i] == 0.0f;
  }

  for (int level = 0; level < maxLevels && g.m >= 2 * kMinCoarse; ++level) {
    const std::size_t m = g.m;
    std::vector<std::uint32_t> coarse(m, UINT32_MAX);  // index in the new level
    const std::vector<std::uint32_t> kept = keepVertices(cloth, g, global, fixed, coarse);
    if (kept.size() < kMinCoarse || 4 * kept.size() > 3 * m) break;

    HierarchyLevel out;
    const std::size_t c = kept.size();
    out.vertex.resize(c);
    for (std::size_t k = 0; k < c; ++k) out.vertex[k] = global[kept[k]];
    const std::vector<double> coarseMass = assignParents(g, coarse, kept, global, mass, out);
    const std::vector<Edge> next = coarseConstraints(cloth, g, coarse, kept, global);
    packLevel(next, kept, global, n, out);
    std::vector<std::uint32_t> nextGlobal(c);
    std::vector<double> nextMass(c);
    std::vector<char> nextFixed(c);
    std::vector<float> invMass(c);
    for (std::size_t k = 0; k < c; ++k) {
      nextGlobal[k] = global[kept[k]];
      nextMass[k] = coarseMass[k];
      nextFixed[k] = fixed[kept[k]];
      invMass[k] = coarseMass[k] > 0.0 ? float(1.0 / coarseMass[k]) : 0.0f;
    }
    indexByVertex(invMass, out);
    g = makeGraph(c, next);
    global = std::move(nextGlobal);
    mass = std::move(nextMass);
    fixed = std::move(nextFixed);
    h.levels.push_back(std::move(out));
  }
  if (!h.levels.empty()) h.start.resize(n);
  return h;
}

namespace {

// Remember the coarse vertices' positions [b, e) of levels[0].vertex.
void saveStart(const Points& pts, Hierarchy& hierarchy, std::size_t b, std::size_t e) {
  const std::vector<std::uint32_t>& vertex = hierarchy.levels.front().vertex;
  for (std::size_t k = b; k < e; ++k) hierarchy.start[vertex[k]] = pts.p(vertex[k]);
}

// Project constraints [b, e) of a level, in order.
void projectLevel(const Points& pts, const HierarchyLevel& level, float kStretch, std::size_t b,
                  std::size_t e) {
  const float uniformSlack = stretchLimitSlack(kStretch);
  for (std::size_t j = b; j < e; ++j) {
    const std::uint32_t ga = level.aVertex[j], gb = level.bVertex[j];
    const float wa = pts.invMass(ga) > 0.0f ? level.aInvMass[j] : 0.0f;
    const float wb = pts.invMass(gb) > 0.0f ? level.bInvMass[j] : 0.0f;
    const float wSum = wa + wb;
    if (!(wSum > 0.0f)) continue;
    glm::vec3& pa = pts.p(ga);
    glm::vec3& pb = pts.p(gb);
    const glm::vec3 d = pa - pb;
    const float m = level.stiffness[j];
    const float rest = level.rest[j] *
                       (m == 1.0f ? uniformSlack : stretchLimitSlack(std::min(1.0f, kStretch * m)));
    // Most limits hold: known without a square root.
    const float len2 = glm::dot(d, d);
    if (surelyShorter(len2, rest)) continue;
    const float len = std::sqrt(len2);  // glm::length(d)
    if (!(len > rest)) continue;
    const glm::vec3 corr = ((len - rest) / (len * wSum)) * d;
    pa -= wa * corr;
    pb += wb * corr;
  }
}

// Move a level's fine vertices [b, e) by their parents' corrections.
void interpolateLevel(const Points& pts, const HierarchyLevel& level,
                      const std::vector<glm::vec3>& start, std::size_t b, std::size_t e) {
  for (std::size_t k = b; k < e; ++k) {
    const std::uint32_t f = level.fine[k];
    if (!(pts.invMass(f) > 0.0f)) continue;
    glm::vec3 delta(0.0f);
    for (std::uint32_t q = level.parentStart[k]; q < level.parentStart[k + 1]; ++q) {
      const std::uint32_t g = level.parent[q];
      delta += level.weight[q] * (pts.p(g) - start[g]);
    }
    pts.p(f) += delta;
  }
}

}  // namespace

void solveHierarchy(const Points& pts, Hierarchy& hierarchy, float kStretch, int t, int n,
                    ThreadTeam* team) {
  if (hierarchy.empty()) return;
  auto sync = [&] {
    if (n > 1) team->barrier();
  };
  std::size_t b, e;
  batch::share(0, hierarchy.levels.front().vertex.size(), t, n, b, e);
  saveStart(pts, hierarchy, b, e);
  sync();
  for (std::size_t l = hierarchy.levels.size(); l-- > 0;) {
    const HierarchyLevel& level = hierarchy.levels[l];
    const bool split = level.fine.size() >= kSplitFine;
    if (!level.blockStart.empty()) {
      // Those across blocks on thread 0, then whole blocks side by side.
      const std::vector<std::uint32_t>& start = level.blockStart;
      for (int sweep = 0; sweep < kHierarchySweeps; ++sweep) {
        if (t == 0) projectLevel(pts, level, kStretch, start[kSolveBlocks], level.a.size());
        sync();  // also where thread 0 ended the smaller levels alone
        for (std::size_t g = std::size_t(t); g < kSolveBlocks; g += std::size_t(n))
          projectLevel(pts, level, kStretch, start[g], start[g + 1]);
        if (sweep + 1 < kHierarchySweeps) sync();
      }
    } else if (t == 0) {
      for (int sweep = 0; sweep < kHierarchySweeps; ++sweep)
        projectLevel(pts, level, kStretch, 0, level.a.size());
      if (!split) interpolateLevel(pts, level, hierarchy.start, 0, level.fine.size());
    }
    if (!split) continue;
    sync();
    batch::share(0, level.fine.size(), t, n, b, e);
    interpolateLevel(pts, level, hierarchy.start, b, e);
    sync();
  }
  if (hierarchy.levels.front().fine.size() < kSplitFine) sync();  // thread 0 ended alone
}

}  // namespace drape::sim
