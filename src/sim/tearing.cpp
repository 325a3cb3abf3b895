#include "sim/tearing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

namespace drape::sim {
namespace {

// One triangle around the split vertex: the triangle, its two other
// vertices, where its centroid lies along the plane normal, and the side.
struct FanTriangle {
  std::uint32_t triangle;
  std::uint32_t a, b;
  float side;      // signed distance of the centroid from the plane
  bool duplicate;  // goes to the duplicate vertex
};

bool contains(const std::vector<std::uint32_t>& list, std::uint32_t v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

void erase(std::vector<std::uint32_t>& list, std::uint32_t v) {
  list.erase(std::find(list.begin(), list.end(), v));
}

// Which triangles, stretch constraints and hinges touch each vertex: built
// once for a frame's tears and kept current by every split, so that a split
// costs its neighbourhood, not the mesh. Triangle lists stay in ascending
// order. Hinges a split drops are marked dead and removed by finishTears,
// which keeps the others' order.
struct TearIndex {
  std::vector<std::vector<std::uint32_t>> triangles, edges, hinges, isoHinges;
  std::vector<char> deadHinge, deadIso;

  explicit TearIndex(const Cloth& cloth) {
    const std::size_t n = cloth.vertexCount();
    triangles.resize(n);
    edges.resize(n);
    hinges.resize(n);
    isoHinges.resize(n);
    for (std::uint32_t t = 0; t < cloth.triangles.size(); ++t)
      for (int k = 0; k < 3; ++k) triangles[cloth.triangles[t][k]].push_back(t);
    for (std::uint32_t j = 0; j < cloth.stretch.size(); ++j) {
      edges[cloth.stretch[j].a].push_back(j);
      edges[cloth.stretch[j].b].push_back(j);
    }
    addHinges(cloth.bend, hinges);
    addHinges(cloth.isoBend, isoHinges);
    deadHinge.assign(cloth.bend.size(), 0);
    deadIso.assign(cloth.isoBend.size(), 0);
  }
  template <typename Hinge>
  static void addHinges(const std::vector<Hinge>& all,
                        std::vector<std::vector<std::uint32_t>>& of) {
    for (std::uint32_t j = 0; j < all.size(); ++j)
      for (int k = 0; k < 4; ++k) of[all[j].v[k]].push_back(j);
  }
  void addVertex() {
    triangles.emplace_back();
    edges.emplace_back();
    hinges.emplace_back();
    isoHinges.emplace_back();
  }
};

// The fans around a vertex: its triangles in edge-connected components, each
// ordered so that neighbours in the list share an edge through the vertex (a
// chain for a boundary vertex, a cycle for an interior one). Returns false
// when an edge through the vertex has more than two triangles.
bool orderFans(const std::vector<FanTriangle>& fan, std::vector<std::vector<int>>& fans,
               std::vector<bool>& cyclic) {
  const int k = int(fan.size());
  std::vector<std::vector<int>> links(fan.size());
  for (int i = 0; i < k; ++i)
    for (int j = i + 1; j < k; ++j) {
      const bool adjacent = fan[std::size_t(i)].a == fan[std::size_t(j)].a ||
                            fan[std::size_t(i)].a == fan[std::size_t(j)].b ||
                            fan[std::size_t(i)].b == fan[std::size_t(j)].a ||
                            fan[std::size_t(i)].b == fan[std::size_t(j)].b;
      if (!adjacent) continue;
      links[std::size_t(i)].push_back(j);
      links[std::size_t(j)].push_back(i);
    }
  for (const auto& n : links)
    if (n.size() > 2) return false;
  std::vector<bool> seen(std::size_t(k), false);
  auto walk = [&](int start) {
    std::vector<int> order;
    int prev = -1, cur = start;
    while (cur >= 0) {
      order.push_back(cur);
      seen[std::size_t(cur)] = true;
      int to = -1;
      for (int j : links[std::size_t(cur)])
        if (j != prev && !seen[std::size_t(j)]) {
          to = j;
          break;
        }
      prev = cur;
      cur = to;
    }
    return order;
  };
  // Chains from their ends first, then what is left are cycles.
  for (int i = 0; i < k; ++i)
    if (!seen[std::size_t(i)] && links[std::size_t(i)].size() < 2) {
      fans.push_back(walk(i));
      cyclic.push_back(false);
    }
  for (int i = 0; i < k; ++i)
    if (!seen[std::size_t(i)]) {
      fans.push_back(walk(i));
      cyclic.push_back(true);
    }
  return true;
}

// Choose the triangles that go to the duplicate: one contiguous arc of the
// fan, the other arc keeping the vertex, maximising Σ side over the kept
// minus Σ side over the duplicated (the plane's choice, made contiguous). A
// chain (boundary vertex) is cut once: the kept arc is a prefix or a suffix.
// A cycle (interior vertex) is cut twice: any arc.
void chooseArc(std::vector<FanTriangle>& fan, const std::vector<int>& order, bool cycle) {
  const int k = int(order.size());
  auto sideAt = [&](int i) { return fan[std::size_t(order[std::size_t(i % k)])].side; };
  float total = 0.0f;
  for (int i = 0; i < k; ++i) total += sideAt(i);
  float best = std::numeric_limits<float>::lowest();
  int bestStart = 0, bestLength = 1;
  auto consider = [&](int start, int length) {
    float kept = 0.0f;
    for (int j = 0; j < length; ++j) kept += sideAt(start + j);
    const float score = 2.0f * kept - total;
    if (score > best) {
      best = score;
      bestStart = start;
      bestLength = length;
    }
  };
  for (int cut = 1; cut < k; ++cut) {
    if (cycle) {
      for (int start = 0; start < k; ++start) consider(start, cut);
    } else {
      consider(0, cut);
      consider(cut, k - cut);
    }
  }
  for (int i : order) fan[std::size_t(i)].duplicate = true;
  for (int j = 0; j < bestLength; ++j)
    fan[std::size_t(order[std::size_t((bestStart + j) % k)])].duplicate = false;
}

// Update the hinge constraints (dihedral or isometric: v[2]–v[3] the shared
// edge, v[0] and v[1] opposite) that touch `vertex` after it split into
// itself and `dup`. `dupOf(x, y)` says whether the fan triangle (vertex, x, y)
// went to the duplicate (1), stayed (0), or is unknown (−1). A hinge whose
// triangles went different ways is marked dead.
template <typename Hinge, typename DupOf>
void updateHinges(std::vector<Hinge>& hinges, std::vector<std::vector<std::uint32_t>>& of,
                  std::vector<char>& dead, std::uint32_t vertex, std::uint32_t dup, DupOf&& dupOf) {
  const std::vector<std::uint32_t> touching = of[vertex];
  for (const std::uint32_t j : touching) {
    if (dead[j]) continue;
    std::uint32_t* v = hinges[j].v;
    bool keep = true, moved = false;
    if (v[2] == vertex || v[3] == vertex) {
      const int end = v[2] == vertex ? 2 : 3;
      const std::uint32_t other = v[5 - end];
      const int s0 = dupOf(v[0], other), s1 = dupOf(v[1], other);
      if (s0 < 0 || s1 < 0 || s0 != s1) {
        keep = false;  // the hinge tore: its triangles are now on different vertices
      } else if (s0 == 1) {
        v[end] = dup;
        moved = true;
      }
    } else {
      for (int o = 0; o < 2; ++o) {
        if (v[o] != vertex) continue;
        const int s = dupOf(v[2], v[3]);
        if (s < 0) {
          keep = false;
        } else if (s == 1) {
          v[o] = dup;
          moved = true;
        }
      }
    }
    if (!keep) {
      dead[j] = 1;
    } else if (moved) {
      erase(of[vertex], j);
      of[dup].push_back(j);
    }
  }
}

template <typename Hinge>
void removeDead(std::vector<Hinge>& hinges, const std::vector<char>& dead) {
  std::size_t out = 0;
  for (std::size_t j = 0; j < hinges.size(); ++j)
    if (!dead[j]) hinges[out++] = hinges[j];
  hinges.resize(out);
}

float restArea(const Cloth& cloth, std::uint32_t v, std::uint32_t a, std::uint32_t b) {
  const std::vector<glm::vec3>& r = cloth.restPositions;
  return 0.5f * glm::length(glm::cross(r[a] - r[v], r[b] - r[v]));
}

// The triangles around `vertex` in index order, each with where its
// centroid lies along `normal` from the vertex (paper §5.4: the plane
// through the vertex).
std::vector<FanTriangle> gatherFan(const Cloth& cloth, const TearIndex& index, const State& s,
                                   std::uint32_t vertex, const glm::vec3& normal) {
  std::vector<FanTriangle> fan;
  for (const std::uint32_t t : index.triangles[vertex]) {
    const glm::uvec3& tri = cloth.triangles[t];
    for (int k = 0; k < 3; ++k)
      if (tri[k] == vertex) {
        const std::uint32_t a = tri[(k + 1) % 3], b = tri[(k + 2) % 3];
        const glm::vec3 centroid = (s.x[vertex] + s.x[a] + s.x[b]) / 3.0f;
        fan.push_back({t, a, b, glm::dot(centroid - s.x[vertex], normal), false});
        break;
      }
  }
  return fan;
}

// Give the fan triangles marked `duplicate` a new vertex and update
// everything that refers to the vertex. Returns the new vertex; `tornEnds`
// gets the far ends of the edges that had a triangle on each side (now torn
// in two). Pieces and the topology version are the caller's.
std::uint32_t applySplit(World& world, TearIndex& index, std::uint32_t vertex,
                         const std::vector<FanTriangle>& fan,
                         std::vector<std::uint32_t>& tornEnds) {
  Cloth& cloth = world.cloth;
  State& s = world.state;
  // The other vertices on each side; one on both is an edge torn in two.
  std::vector<std::uint32_t> keptNeighbours, dupNeighbours;
  double keptArea = 0.0, dupArea = 0.0;
  for (const FanTriangle& f : fan) {
    std::vector<std::uint32_t>& list = f.duplicate ? dupNeighbours : keptNeighbours;
    for (std::uint32_t u : {f.a, f.b})
      if (!contains(list, u)) list.push_back(u);
    (f.duplicate ? dupArea : keptArea) += double(restArea(cloth, vertex, f.a, f.b));
  }
  tornEnds.clear();
  for (std::uint32_t u : dupNeighbours)
    if (contains(keptNeighbours, u)) tornEnds.push_back(u);

  // The duplicate: same rest and current position, same velocity, the mass
  // of its side (split by the rest areas).
  const std::uint32_t dup = std::uint32_t(cloth.vertexCount());
  cloth.restPositions.push_back(cloth.restPositions[vertex]);
  const float m = cloth.mass[vertex];
  const double area = keptArea + dupArea;
  const float dupMass = area > 0.0 ? float(double(m) * dupArea / area) : 0.5f * m;
  cloth.mass[vertex] = m - dupMass;
  cloth.mass.push_back(dupMass);
  s.x.push_back(s.x[vertex]);
  s.p.push_back(s.p[vertex]);
  s.v.push_back(s.v[vertex]);
  // A pinned or grabbed vertex (w = 0) stays held; the duplicate is free.
  if (s.w[vertex] != 0.0f)
    s.w[vertex] = cloth.mass[vertex] > 0.0f ? 1.0f / cloth.mass[vertex] : 0.0f;
  s.w.push_back(dupMass > 0.0f ? 1.0f / dupMass : 0.0f);

  index.addVertex();
  for (const FanTriangle& f : fan)
    if (f.duplicate) {
      for (int k = 0; k < 3; ++k)
        if (cloth.triangles[f.triangle][k] == vertex) cloth.triangles[f.triangle][k] = dup;
      erase(index.triangles[vertex], f.triangle);
      index.triangles[dup].push_back(f.triangle);  // the fan is in index order
    }

  // Stretch: an edge only on the duplicate's side moves to it; one on both
  // sides (torn) gets a second constraint with the same rest length. In
  // index order, so torn edges are appended as a pass over all would.
  std::vector<std::uint32_t> edges = index.edges[vertex];
  std::sort(edges.begin(), edges.end());
  for (const std::uint32_t j : edges) {
    StretchConstraint c = cloth.stretch[j];
    const std::uint32_t u = c.a == vertex ? c.b : c.a;
    const bool kept = contains(keptNeighbours, u), moved = contains(dupNeighbours, u);
    if (!moved) continue;
    (c.a == vertex ? c.a : c.b) = dup;
    if (kept) {
      // Torn: each side's edge stands for its own triangle's area.
      double keptSide = 0.0, dupSide = 0.0;
      for (const FanTriangle& f : fan)
        if (f.a == u || f.b == u)
          (f.duplicate ? dupSide : keptSide) += double(restArea(cloth, vertex, f.a, f.b));
      c.area = float(dupSide / 3.0);
      cloth.stretch[j].area = float(keptSide / 3.0);
      const std::uint32_t added = std::uint32_t(cloth.stretch.size());
      cloth.stretch.push_back(c);
      index.edges[dup].push_back(added);
      index.edges[u].push_back(added);
    } else {
      cloth.stretch[j] = c;
      erase(index.edges[vertex], j);
      index.edges[dup].push_back(j);
    }
  }

  // Bending: hinges whose two triangles went different ways are gone.
  auto dupOf = [&](std::uint32_t x, std::uint32_t y) {
    for (const FanTriangle& f : fan)
      if ((f.a == x && f.b == y) || (f.a == y && f.b == x)) return f.duplicate ? 1 : 0;
    return -1;
  };
  updateHinges(cloth.bend, index.hinges, index.deadHinge, vertex, dup, dupOf);
  updateHinges(cloth.isoBend, index.isoHinges, index.deadIso, vertex, dup, dupOf);

  // A seam holds the fabric at its end: it goes with the larger side, not
  // with a sliver torn off beside it.
  if (dupArea > keptArea)
    for (Seam& seam : cloth.seams) {
      if (seam.a == vertex) seam.a = dup;
      if (seam.b == vertex) seam.b = dup;
    }

  if (!tornEnds.empty()) {
    // An open surface encloses nothing: a torn balloon bursts.
    cloth.closed = false;
    cloth.pressureActive = false;
  }
  world.tornEdges += tornEnds.size();
  return dup;
}

// A vertex whose triangles fall into fans that share no edge (a tear that
// ran out at the boundary through it) becomes one vertex per fan: the fan
// with the lowest-numbered triangle keeps it. Returns the vertices made.
std::uint32_t separateFans(World& world, TearIndex& index, std::uint32_t vertex) {
  std::uint32_t made = 0;
  std::vector<std::uint32_t> torn;
  for (;;) {
    std::vector<FanTriangle> fan =
        gatherFan(world.cloth, index, world.state, vertex, glm::vec3(0.0f));
    std::vector<std::vector<int>> fans;
    std::vector<bool> cyclic;
    if (!orderFans(fan, fans, cyclic) || fans.size() < 2) return made;
    // One other fan at a time moves to a new vertex. gatherFan lists the
    // triangles in index order, so member 0 is the lowest-numbered.
    const auto holdsFirst = [](const std::vector<int>& f) {
      return std::find(f.begin(), f.end(), 0) != f.end();
    };
    const std::vector<int>& moving = holdsFirst(fans[0]) ? fans[1] : fans[0];
    for (int i : moving) fan[std::size_t(i)].duplicate = true;
    applySplit(world, index, vertex, fan, torn);
    ++made;
  }
}

// splitVertex on the index; the caller finishes (finishTears).
TearResult split(World& world, TearIndex& index, std::uint32_t vertex,
                 const glm::vec3& planeNormal) {
  Cloth& cloth = world.cloth;
  TearResult result;
  const float normalLength = glm::length(planeNormal);
  if (vertex >= cloth.vertexCount() || !(normalLength > 0.0f)) return result;
  std::vector<FanTriangle> fan =
      gatherFan(cloth, index, world.state, vertex, planeNormal / normalLength);
  if (fan.size() < 2) return result;
  const auto front =
      std::count_if(fan.begin(), fan.end(), [](const FanTriangle& f) { return f.side > 0.0f; });
  if (front == 0 || std::size_t(front) == fan.size()) return result;

  std::vector<std::vector<int>> fans;
  std::vector<bool> cyclic;
  if (!orderFans(fan, fans, cyclic)) return result;
  if (fans.size() == 1) {
    chooseArc(fan, fans[0], cyclic[0]);
  } else {
    // The vertex already joins separate fans: each goes whole by its side.
    std::size_t duplicated = 0;
    for (const std::vector<int>& f : fans) {
      float sum = 0.0f;
      for (int i : f) sum += fan[std::size_t(i)].side;
      for (int i : f) fan[std::size_t(i)].duplicate = sum <= 0.0f;
      duplicated += sum <= 0.0f ? f.size() : 0;
    }
    if (duplicated == 0 || duplicated == fan.size()) return result;
  }

  std::vector<std::uint32_t> tornEnds;
  result.duplicate = applySplit(world, index, vertex, fan, tornEnds);
  result.split = true;
  result.vertex = vertex;
  result.tornEdges = std::uint32_t(tornEnds.size());
  // Where the tear reaches the boundary, the far end of a torn edge is left
  // joining two fans by a vertex alone: part them.
  for (std::uint32_t u : tornEnds) result.boundarySplits += separateFans(world, index, u);
  return result;
}

TearResult tearAt(World& world, TearIndex& index, std::uint32_t edge) {
  const Cloth& cloth = world.cloth;
  if (edge >= cloth.stretch.size()) return {};
  const std::uint32_t a = cloth.stretch[edge].a, b = cloth.stretch[edge].b;
  const glm::vec3 along = world.state.x[b] - world.state.x[a];
  const std::size_t triangles[2] = {index.triangles[a].size(), index.triangles[b].size()};
  // Free first, then more triangles, then the smaller index.
  auto rank = [&](std::uint32_t v, std::size_t tris) {
    return std::make_tuple(world.state.w[v] == 0.0f ? 1 : 0, -std::int64_t(tris), v);
  };
  const bool aFirst = rank(a, triangles[0]) < rank(b, triangles[1]);
  const std::uint32_t order[2] = {aFirst ? a : b, aFirst ? b : a};
  for (std::uint32_t v : order) {
    // The normal points along the edge, away from the vertex split: the
    // triangles on the edge's side keep the vertex.
    const TearResult r = split(world, index, v, v == a ? along : -along);
    if (r.split) return r;
  }
  return {};
}

// After one or more splits: the dropped hinges removed, the pieces found
// and a new topology version, once.
void finishTears(Cloth& cloth, const TearIndex& index) {
  removeDead(cloth.bend, index.deadHinge);
  removeDead(cloth.isoBend, index.deadIso);
  computePieces(cloth);
  cloth.topologyVersion = nextVersion();
}

}  // namespace

TearResult splitVertex(World& world, std::uint32_t vertex, const glm::vec3& planeNormal) {
  TearIndex index(world.cloth);
  const TearResult r = split(world, index, vertex, planeNormal);
  if (r.split) finishTears(world.cloth, index);
  return r;
}

TearResult tearEdge(World& world, std::uint32_t edge) {
  TearIndex index(world.cloth);
  const TearResult r = tearAt(world, index, edge);
  if (r.split) finishTears(world.cloth, index);
  return r;
}

std::size_t tearOverstretched(World& world) {
  // A tearing grab tears even when tearing is off.
  const float threshold = world.params.tear > 0.0f ? world.params.tear
                          : world.grab.active      ? world.grab.tear
                                                   : 0.0f;
  if (!(threshold > 0.0f)) return 0;
  const std::vector<glm::vec3>& x = world.state.x;
  // A rope parts at its most stretched segment, one a call.
  std::size_t ropeCuts = 0;
  float worst = threshold;
  std::uint32_t at = UINT32_MAX;
  for (std::uint32_t j = 0; j < world.cloth.ropeSegments.size(); ++j) {
    const RopeSegment& s = world.cloth.ropeSegments[j];
    const float ratio = s.rest > 0.0f ? glm::length(x[s.a] - x[s.b]) / s.rest : 0.0f;
    if (ratio > worst) worst = ratio, at = j;
  }
  if (at != UINT32_MAX && cutRopeSegment(world.cloth, at)) {
    ++world.tornEdges;
    ropeCuts = 1;
  }
  std::vector<std::pair<float, std::uint32_t>> over;
  for (std::uint32_t j = 0; j < world.cloth.stretch.size(); ++j) {
    const StretchConstraint& c = world.cloth.stretch[j];
    if (!(c.rest > 0.0f)) continue;
    const float ratio = glm::length(x[c.a] - x[c.b]) / c.rest;
    if (ratio > threshold) over.push_back({ratio, j});
  }
  if (over.empty()) return ropeCuts;
  std::sort(over.begin(), over.end(), [](const auto& l, const auto& r) {
    return l.first != r.first ? l.first > r.first : l.second < r.second;
  });
  const std::size_t cap = std::max<std::size_t>(1, world.vertexCount() / 200);
  std::size_t splits = 0;
  TearIndex index(world.cloth);
  for (const auto& [ratio, j] : over) {
    if (splits >= cap) break;
    if (tearAt(world, index, j).split) ++splits;
  }
  if (splits > 0) finishTears(world.cloth, index);
  return splits + ropeCuts;
}

}  // namespace drape::sim
