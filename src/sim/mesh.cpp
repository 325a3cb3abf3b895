#include "sim/mesh.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numeric>
#include <queue>
#include <string>
#include <unordered_map>

#include "sim/limits.hpp"

namespace drape::sim {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

std::uint64_t edgeKey(std::uint32_t a, std::uint32_t b) {
  if (a > b) std::swap(a, b);
  return (std::uint64_t(a) << 32) | b;
}

// Merge vertices closer than `tol`, keeping the first of each cluster (input
// order, so the result is deterministic). A uniform grid of cell size `tol`
// finds the candidates in the 27 cells around each vertex.
std::vector<std::uint32_t> weld(const std::vector<glm::vec3>& p, float tol,
                                std::vector<glm::vec3>& out) {
  std::vector<std::uint32_t> map(p.size(), kNone);
  const float cell = std::max(tol, 1e-30f);
  auto cellOf = [&](const glm::vec3& x) {
    return glm::i64vec3(std::floor(x.x / cell), std::floor(x.y / cell), std::floor(x.z / cell));
  };
  auto hash = [](const glm::i64vec3& c) {
    return std::uint64_t(c.x) * 73856093ull ^ std::uint64_t(c.y) * 19349663ull ^
           std::uint64_t(c.z) * 83492791ull;
  };
  std::unordered_multimap<std::uint64_t, std::uint32_t> grid;
  grid.reserve(p.size() * 2);
  const float tol2 = tol * tol;
  for (std::uint32_t i = 0; i < p.size(); ++i) {
    const glm::i64vec3 c = cellOf(p[i]);
    std::uint32_t found = kNone;
    for (int dx = -1; dx <= 1 && found == kNone; ++dx)
      for (int dy = -1; dy <= 1 && found == kNone; ++dy)
        for (int dz = -1; dz <= 1 && found == kNone; ++dz) {
          auto range = grid.equal_range(hash(c + glm::i64vec3(dx, dy, dz)));
          for (auto it = range.first; it != range.second; ++it) {
            const glm::vec3 d = out[it->second] - p[i];
            if (glm::dot(d, d) <= tol2 && (found == kNone || it->second < found))
              found = it->second;
          }
        }
    if (found == kNone) {
      found = std::uint32_t(out.size());
      out.push_back(p[i]);
      grid.emplace(hash(c), found);
    }
    map[i] = found;
  }
  return map;
}

// Orient every piece consistently by a breadth-first walk over shared edges.
// Closed pieces end up with outward normals (positive volume); open pieces
// keep the orientation most of their input triangles had.
// A flip swaps corners 1 and 2 of a triangle, and of its corner UVs when
// there are any (`uvs` empty or 3 per triangle).
void flipTriangle(std::vector<glm::uvec3>& tris, std::vector<glm::vec2>& uvs, std::uint32_t t) {
  std::swap(tris[t][1], tris[t][2]);
  if (!uvs.empty()) std::swap(uvs[3 * std::size_t(t) + 1], uvs[3 * std::size_t(t) + 2]);
}

void orient(std::vector<glm::uvec3>& tris, std::vector<glm::vec2>& uvs,
            const std::vector<glm::vec3>& pos, MeshReport& report) {
  const std::size_t n = tris.size();
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> edgeTris;
  edgeTris.reserve(n * 2);
  for (std::uint32_t t = 0; t < n; ++t)
    for (int k = 0; k < 3; ++k) edgeTris[edgeKey(tris[t][k], tris[t][(k + 1) % 3])].push_back(t);

  auto hasDirected = [](const glm::uvec3& t, std::uint32_t a, std::uint32_t b) {
    for (int k = 0; k < 3; ++k)
      if (t[k] == a && t[(k + 1) % 3] == b) return true;
    return false;
  };
  std::vector<int> piece(n, -1);
  std::vector<bool> flip(n, false);
  int pieces = 0;
  for (std::uint32_t seed = 0; seed < n; ++seed) {
    if (piece[seed] >= 0) continue;
    std::vector<std::uint32_t> members;
    std::queue<std::uint32_t> queue;
    piece[seed] = pieces;
    queue.push(seed);
    bool closed = true;
    while (!queue.empty()) {
      const std::uint32_t t = queue.front();
      queue.pop();
      members.push_back(t);
      for (int k = 0; k < 3; ++k) {
        // Directed edge a→b as triangle t is currently oriented.
        std::uint32_t a = tris[t][k], b = tris[t][(k + 1) % 3];
        const auto& around = edgeTris[edgeKey(a, b)];
        if (around.size() < 2) closed = false;
        for (std::uint32_t u : around) {
          if (u == t) continue;
          // A consistent neighbour runs the shared edge the other way (b→a).
          const bool consistent = !hasDirected(tris[u], a, b);
          if (piece[u] < 0) {
            piece[u] = pieces;
            if (!consistent) {
              flipTriangle(tris, uvs, u);
              flip[u] = !flip[u];
            }
            queue.push(u);
          } else if (!consistent) {
            report.orientable = false;  // Möbius-like: no consistent orientation exists
          }
        }
      }
    }
    std::size_t flipped = 0;
    for (std::uint32_t t : members) flipped += flip[t] ? 1 : 0;
    bool flipAll;
    if (closed) {
      std::vector<glm::uvec3> sub;
      for (std::uint32_t t : members) sub.push_back(tris[t]);
      flipAll = sixVolume(pos, sub) < 0.0f;
    } else {
      flipAll = flipped * 2 > members.size();
    }
    if (flipAll)
      for (std::uint32_t t : members) {
        flipTriangle(tris, uvs, t);
        flip[t] = !flip[t];
      }
    ++pieces;
  }
  report.pieces = std::size_t(pieces);
  report.flippedTriangles = std::size_t(std::count(flip.begin(), flip.end(), true));
}

}  // namespace

std::vector<std::string> MeshReport::repairs() const {
  std::vector<std::string> out;
  auto add = [&](std::size_t count, const char* what) {
    if (count > 0) out.push_back(std::to_string(count) + " " + what);
  };
  add(weldedVertices, "coincident vertices welded");
  add(unusedVertices, "unused vertices dropped");
  add(degenerateTriangles, "degenerate triangles dropped");
  add(duplicateTriangles, "duplicate triangles dropped");
  add(nonManifoldEdges, "non-manifold edges split apart");
  add(flippedTriangles, "triangles re-oriented to match their neighbours");
  add(weldedSeams, "seams dropped (their two ends welded into one vertex)");
  if (!orientable) out.push_back("the surface is not orientable (normals disagree somewhere)");
  return out;
}

void computeVertexNormals(const std::vector<glm::vec3>& positions,
                          const std::vector<glm::uvec3>& triangles,
                          std::vector<glm::vec3>& normals) {
  normals.assign(positions.size(), glm::vec3(0.0f));
  for (const glm::uvec3& t : triangles) {
    const glm::vec3 n =
        glm::cross(positions[t.y] - positions[t.x], positions[t.z] - positions[t.x]);
    normals[t.x] += n;
    normals[t.y] += n;
    normals[t.z] += n;
  }
  for (glm::vec3& n : normals) n = normalizedVertexNormal(n);
}

glm::vec3 normalizedVertexNormal(glm::vec3 sum) {
  const float len2 = glm::dot(sum, sum);
  return len2 > 1e-30f ? sum / std::sqrt(len2) : glm::vec3(0.0f, 1.0f, 0.0f);
}

float sixVolume(const std::vector<glm::vec3>& p, const std::vector<glm::uvec3>& tris) {
  double sum = 0.0;
  for (const glm::uvec3& t : tris) sum += double(glm::dot(glm::cross(p[t[0]], p[t[1]]), p[t[2]]));
  return float(sum);
}

float meanEdgeLength(const TriMesh& mesh) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  edges.reserve(3 * mesh.triangles.size());
  for (const glm::uvec3& t : mesh.triangles)
    for (int k = 0; k < 3; ++k)
      edges.emplace_back(std::min(t[k], t[(k + 1) % 3]), std::max(t[k], t[(k + 1) % 3]));
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  double sum = 0.0;
  for (const auto& [a, b] : edges)
    sum += double(glm::length(mesh.positions[a] - mesh.positions[b]));
  return edges.empty() ? 0.0f : float(sum / double(edges.size()));
}

namespace {

// A mesh's or its strands' size against the range drape takes, in metres.
Result<void> checkExtent(double diagonal, const char* whatIs, const char* it) {
  if (diagonal >= kLeastMeshExtent && diagonal <= kMostMeshExtent) return {};
  char text[192];
  std::snprintf(text, sizeof text,
                "%s %.3g m across: expected %g to %g m (scale %s to metres with --scale or the "
                "scene file's \"scale\")",
                whatIs, diagonal, kLeastMeshExtent, kMostMeshExtent, it);
  return fail(text);
}

// The input's seams onto the prepared vertices (out.inputToVertex): a seam
// welded shut is counted and dropped; one to a missing vertex, to itself or
// to a vertex on no triangle fails.
Result<void> mapSeams(const TriMesh& input, const std::vector<bool>& inputUsed, PreparedMesh& out) {
  for (std::size_t k = 0; k < input.seams.size(); ++k) {
    const glm::uvec2 s = input.seams[k];
    const std::string which = "seam " + std::to_string(k + 1) + " ";
    for (int e = 0; e < 2; ++e)
      if (s[e] >= input.positions.size())
        return fail(which + "refers to vertex " + std::to_string(std::uint64_t(s[e]) + 1) + " of " +
                    std::to_string(input.positions.size()));
    if (s[0] == s[1])
      return fail(which + "joins vertex " + std::to_string(s[0] + 1) + " to itself");
    const glm::uvec2 r(out.inputToVertex[s[0]], out.inputToVertex[s[1]]);
    for (int e = 0; e < 2; ++e)
      if (!inputUsed[s[e]] || r[e] == kNone)
        return fail(which + "refers to vertex " + std::to_string(s[e] + 1) +
                    ", which is on no triangle");
    if (r[0] == r[1])
      ++out.report.weldedSeams;
    else
      out.mesh.seams.push_back(r);
  }
  return {};
}

Result<PreparedMesh> prepareTriangles(const TriMesh& input, const PrepareOptions& options) {
  PreparedMesh out;
  MeshReport& report = out.report;
  report.inputVertices = input.positions.size();
  report.inputTriangles = input.triangles.size();
  if (input.triangles.empty()) return fail("the mesh has no triangles");
  const bool hasUVs = input.hasUVs();
  if (hasUVs && input.cornerUVs.size() != 3 * input.triangles.size())
    return fail("the mesh has " + std::to_string(input.cornerUVs.size()) +
                " texture coordinates for " + std::to_string(input.triangles.size()) +
                " triangles (expected 3 per triangle)");

  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (std::size_t i = 0; i < input.positions.size(); ++i) {
    const glm::vec3& x = input.positions[i];
    if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z))
      return fail("vertex " + std::to_string(i + 1) + " has a non-finite coordinate");
    lo = glm::min(lo, x);
    hi = glm::max(hi, x);
  }
  for (std::size_t t = 0; t < input.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k)
      if (input.triangles[t][k] >= input.positions.size())
        return fail("triangle " + std::to_string(t + 1) + " refers to vertex " +
                    std::to_string(std::uint64_t(input.triangles[t][k]) + 1) + " of " +
                    std::to_string(input.positions.size()));
  const double diag64 = glm::length(glm::dvec3(hi) - glm::dvec3(lo));
  if (!(diag64 > 0.0)) return fail("the mesh has no extent (all vertices coincide)");
  if (auto extent = checkExtent(diag64, "the mesh is", "it"); !extent) return fail(extent.error());
  const float diag = float(diag64);

  // 1. Weld coincident vertices.
  std::vector<glm::vec3> welded;
  std::vector<std::uint32_t> toWelded = weld(input.positions, options.weldTolerance * diag, welded);

  // 2. Remap triangles; drop degenerate and duplicate ones.
  const float minArea2 = std::pow(diag * 1e-7f, 4.0f);  // |cross|² below this: zero area
  std::vector<glm::uvec3> tris;
  std::vector<glm::vec2> uvs;
  tris.reserve(input.triangles.size());
  std::map<std::array<std::uint32_t, 3>, bool> seen;
  for (std::size_t ti = 0; ti < input.triangles.size(); ++ti) {
    const glm::uvec3& t = input.triangles[ti];
    glm::uvec3 r(toWelded[t[0]], toWelded[t[1]], toWelded[t[2]]);
    const glm::vec3 c = glm::cross(welded[r[1]] - welded[r[0]], welded[r[2]] - welded[r[0]]);
    if (r[0] == r[1] || r[1] == r[2] || r[0] == r[2] || !(glm::dot(c, c) > minArea2)) {
      ++report.degenerateTriangles;
      continue;
    }
    std::array<std::uint32_t, 3> key{r[0], r[1], r[2]};
    std::sort(key.begin(), key.end());
    if (!seen.emplace(key, true).second) {
      ++report.duplicateTriangles;
      continue;
    }
    tris.push_back(r);
    if (hasUVs)
      uvs.insert(uvs.end(), input.cornerUVs.begin() + std::ptrdiff_t(3 * ti),
                 input.cornerUVs.begin() + std::ptrdiff_t(3 * ti + 3));
  }
  if (tris.empty()) return fail("the mesh has only degenerate triangles");

  // 3. Split non-manifold edges: the first two triangles on an edge keep it,
  // every further one gets its own copies of the edge's two vertices.
  {
    std::map<std::uint64_t, std::vector<std::uint32_t>> edgeTris;
    for (std::uint32_t t = 0; t < tris.size(); ++t)
      for (int k = 0; k < 3; ++k) edgeTris[edgeKey(tris[t][k], tris[t][(k + 1) % 3])].push_back(t);
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t>
        copies;  // (tri, vertex) → copy
    for (const auto& [key, around] : edgeTris) {
      if (around.size() <= 2) continue;
      ++report.nonManifoldEdges;
      const std::uint32_t ends[2] = {std::uint32_t(key >> 32), std::uint32_t(key & 0xffffffffu)};
      for (std::size_t j = 2; j < around.size(); ++j) {
        const std::uint32_t t = around[j];
        for (std::uint32_t v : ends) {
          auto [it, fresh] = copies.emplace(std::make_pair(t, v), std::uint32_t(welded.size()));
          if (fresh) welded.push_back(welded[v]);
          for (int k = 0; k < 3; ++k)
            if (tris[t][k] == v) tris[t][k] = it->second;
        }
      }
    }
  }

  // 4. Consistent orientation per piece.
  orient(tris, uvs, welded, report);

  // 5. Drop unused vertices, keeping the order of first appearance in the input.
  std::vector<std::uint32_t> compact(welded.size(), kNone);
  std::vector<bool> used(welded.size(), false);
  for (const glm::uvec3& t : tris)
    for (int k = 0; k < 3; ++k) used[t[k]] = true;
  for (std::uint32_t i = 0; i < welded.size(); ++i)
    if (used[i]) {
      compact[i] = std::uint32_t(out.mesh.positions.size());
      out.mesh.positions.push_back(welded[i]);
    }
  for (glm::uvec3& t : tris)
    for (int k = 0; k < 3; ++k) t[k] = compact[t[k]];
  out.mesh.triangles = std::move(tris);
  out.mesh.cornerUVs = std::move(uvs);
  out.inputToVertex.resize(input.positions.size());
  std::size_t referenced = 0;
  std::vector<bool> inputUsed(input.positions.size(), false);
  for (std::size_t i = 0; i < input.positions.size(); ++i) {
    out.inputToVertex[i] = compact[toWelded[i]];
  }
  for (const glm::uvec3& t : input.triangles)
    for (int k = 0; k < 3; ++k) inputUsed[t[k]] = true;
  for (bool u : inputUsed) referenced += u ? 1 : 0;
  report.unusedVertices = input.positions.size() - referenced;
  // Welded = referenced input vertices that merged into an earlier one.
  std::size_t distinctReferenced = 0;
  {
    std::vector<bool> hit(welded.size(), false);
    for (std::size_t i = 0; i < input.positions.size(); ++i)
      if (inputUsed[i] && !hit[toWelded[i]]) {
        hit[toWelded[i]] = true;
        ++distinctReferenced;
      }
  }
  report.weldedVertices = referenced - distinctReferenced;

  // 6. Seams, onto the prepared vertices.
  if (auto seams = mapSeams(input, inputUsed, out); !seams) return fail(seams.error());

  // 7. Boundary facts.
  std::unordered_map<std::uint64_t, int> count;
  for (const glm::uvec3& t : out.mesh.triangles)
    for (int k = 0; k < 3; ++k) ++count[edgeKey(t[k], t[(k + 1) % 3])];
  for (const auto& kv : count) report.boundaryEdges += kv.second == 1 ? 1 : 0;
  report.closed = report.boundaryEdges == 0;
  return out;
}

}  // namespace

Result<PreparedMesh> prepareMesh(const TriMesh& input, const PrepareOptions& options) {
  if (input.strands.empty()) return prepareTriangles(input, options);
  // Strands: each a polyline of distinct, finite input vertices whose
  // segments have a length (a rope's rest shape).
  glm::dvec3 lo(std::numeric_limits<double>::max()), hi(-std::numeric_limits<double>::max());
  for (const std::vector<std::uint32_t>& line : input.strands) {
    if (line.size() < 2) return fail("a strand needs at least two vertices");
    for (std::size_t k = 0; k < line.size(); ++k) {
      if (line[k] >= input.positions.size())
        return fail("a strand refers to vertex " + std::to_string(std::uint64_t(line[k]) + 1) +
                    " of " + std::to_string(input.positions.size()));
      const glm::vec3& x = input.positions[line[k]];
      if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z))
        return fail("vertex " + std::to_string(line[k] + 1) + " has a non-finite coordinate");
      if (k > 0 && !(glm::length(x - input.positions[line[k - 1]]) > 0.0f))
        return fail("a strand's vertices " + std::to_string(line[k - 1] + 1) + " and " +
                    std::to_string(line[k] + 1) + " are at the same place");
      lo = glm::min(lo, glm::dvec3(x));
      hi = glm::max(hi, glm::dvec3(x));
    }
  }
  PreparedMesh out;
  if (!input.triangles.empty()) {
    auto prepared = prepareTriangles(input, options);
    if (!prepared) return prepared;
    out = std::move(prepared.value());
  } else {
    if (!input.seams.empty()) return fail("the mesh has seams but no triangles to sew");
    if (auto extent = checkExtent(glm::length(hi - lo), "the strands are", "them"); !extent)
      return fail(extent.error());
    out.inputToVertex.assign(input.positions.size(), UINT32_MAX);
    out.report.inputVertices = input.positions.size();
  }
  for (const std::vector<std::uint32_t>& line : input.strands) {
    std::vector<glm::vec3> points;
    for (std::uint32_t v : line) points.push_back(input.positions[v]);
    out.strands.push_back(std::move(points));
    out.strandInputs.push_back(line);
  }
  return out;
}

}  // namespace drape::sim
