#include "sim/collision/mesh_sequence.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace drape::sim {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// The surface of frame k, a fraction s of the way to frame k + 1: vertices,
// normals, the refitted tree and the bounding radius; no grid.
void fillShape(const MeshSequence& seq, std::size_t k, float s, MeshShape& out) {
  const std::vector<glm::vec3>& a = seq.frames[k];
  if (s > 0.0f && k + 1 < seq.frames.size()) {
    const std::vector<glm::vec3>& b = seq.frames[k + 1];
    out.vertices.resize(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) out.vertices[i] = a[i] + (b[i] - a[i]) * s;
  } else {
    out.vertices = a;
  }
  const std::vector<glm::vec3>& v = out.vertices;
  const std::vector<glm::uvec3>& tris = seq.triangles;
  if (out.triangles.size() != tris.size()) out.triangles = tris;
  out.closed = seq.closed;
  out.faceNormals.resize(tris.size());
  for (std::size_t t = 0; t < tris.size(); ++t) {
    const glm::vec3 n = glm::cross(v[tris[t].y] - v[tris[t].x], v[tris[t].z] - v[tris[t].x]);
    const float len = glm::length(n);
    // A triangle squashed to a line has no normal: it is met at its edges.
    out.faceNormals[t] = len > 0.0f && std::isfinite(len) ? n / len : glm::vec3(0.0f);
  }
  out.edgeNormals.resize(3 * tris.size());
  for (std::size_t e = 0; e + 1 < seq.edgeStart.size(); ++e) {
    glm::vec3 sum(0.0f);
    for (std::uint32_t j = seq.edgeStart[e]; j < seq.edgeStart[e + 1]; ++j)
      sum += out.faceNormals[seq.edgeSlots[j] / 3];
    const float len = glm::length(sum);
    for (std::uint32_t j = seq.edgeStart[e]; j < seq.edgeStart[e + 1]; ++j)
      out.edgeNormals[seq.edgeSlots[j]] =
          len > 1e-6f ? sum / len : out.faceNormals[seq.edgeSlots[j] / 3];
  }
  // Angle-weighted vertex normals, as makeMeshShape's.
  out.vertexNormals.assign(v.size(), glm::vec3(0.0f));
  for (std::size_t t = 0; t < tris.size(); ++t)
    for (int c = 0; c < 3; ++c) {
      const glm::vec3& p = v[tris[t][c]];
      const glm::vec3 e1 = v[tris[t][(c + 1) % 3]] - p, e2 = v[tris[t][(c + 2) % 3]] - p;
      const float l1 = glm::length(e1), l2 = glm::length(e2);
      if (!(l1 > 0.0f && l2 > 0.0f)) continue;
      const float angle = std::acos(std::clamp(glm::dot(e1, e2) / (l1 * l2), -1.0f, 1.0f));
      out.vertexNormals[tris[t][c]] += angle * out.faceNormals[t];
    }
  for (glm::vec3& n : out.vertexNormals) {
    const float len = glm::length(n);
    n = len > 1e-12f ? n / len : glm::vec3(0, 1, 0);
  }
  // The first frame's tree refitted: children follow their parent, so a
  // walk backwards meets every child before its parent.
  out.bvh.order = seq.tree.order;
  out.bvh.nodes = seq.tree.nodes;
  for (std::size_t i = out.bvh.nodes.size(); i-- > 0;) {
    TriangleBvh::Node& node = out.bvh.nodes[i];
    if (node.count > 0) {
      node.lo = glm::vec3(kInf);
      node.hi = glm::vec3(-kInf);
      for (std::uint32_t j = node.first; j < node.first + node.count; ++j)
        for (int c = 0; c < 3; ++c) {
          node.lo = glm::min(node.lo, v[tris[out.bvh.order[j]][c]]);
          node.hi = glm::max(node.hi, v[tris[out.bvh.order[j]][c]]);
        }
    } else {
      const TriangleBvh::Node &l = out.bvh.nodes[node.first], &r = out.bvh.nodes[node.second];
      node.lo = glm::min(l.lo, r.lo);
      node.hi = glm::max(l.hi, r.hi);
    }
  }
  out.radius = 0.0f;
  for (const glm::vec3& p : v) out.radius = std::max(out.radius, glm::length(p));
  // A deforming surface has no sharp features for the cloth's edges to meet
  // (feature_contacts.hpp): its vertices' contacts hold the cloth.
  out.sharpEdges.clear();
  out.sharpCorners.clear();
  out.sharpTree = {};
  out.cornerTree = {};
  out.cellDistance.clear();
  out.gridSlack = 0.0f;
  out.source = seq.source;
  out.scale = 1.0f;
}

}  // namespace

void MeshSequence::frameAt(double t, std::size_t& frame, float& fraction) const {
  frame = 0;
  fraction = 0.0f;
  const double f = t * double(fps);
  if (!(f > 0.0)) return;
  const double k = std::floor(f);
  if (k >= double(frames.size() - 1)) {
    frame = frames.size() - 1;
    return;
  }
  frame = std::size_t(k);
  fraction = float(f - k);
}

std::shared_ptr<const MeshSequence::Grid> MeshSequence::gridOf(std::size_t frame) const {
  {
    const std::lock_guard<std::mutex> lock(gridMutex_);
    if (grids_.size() == frames.size() && grids_[frame]) return grids_[frame];
  }
  // Made outside the lock: two callers may both make it, with the same values.
  MeshShape shape;
  fillShape(*this, frame, 0.0f, shape);
  auto grid = std::make_shared<Grid>();
  glm::vec3 lo(kInf), hi(-kInf);
  for (const glm::vec3& p : shape.vertices) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  const glm::vec3 pad(1e-3f * glm::length(hi - lo) + 1e-6f);
  const int n = MeshShape::kGrid;
  grid->lo = lo - pad;
  grid->cell = (hi - lo + 2.0f * pad) / float(n);
  grid->cells.resize(std::size_t(n * n * n));
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        glm::vec3 normal;
        grid->cells[std::size_t((k * n + j) * n + i)] = shape.distance(
            grid->lo + (glm::vec3(float(i), float(j), float(k)) + 0.5f) * grid->cell, normal);
      }
  const std::lock_guard<std::mutex> lock(gridMutex_);
  grids_.resize(frames.size());
  if (!grids_[frame]) grids_[frame] = std::move(grid);
  return grids_[frame];
}

void MeshSequence::shapeAt(double t, MeshShape& out) const {
  std::size_t k;
  float s;
  frameAt(t, k, s);
  fillShape(*this, k, s, out);
  if (!closed) return;
  // The first frame's grid serves every frame: a grid a frame cost more
  // than the frame's simulation. Every point of the surface is the same
  // blend of its triangle's corners, each of which has moved at most this
  // far from the first frame (and a little for rounding).
  const std::shared_ptr<const Grid> grid = gridOf(0);
  out.cellDistance = grid->cells;
  out.gridLo = grid->lo;
  out.gridCell = grid->cell;
  const float moved =
      k + 1 < frames.size() ? (1.0f - s) * fromFirst[k] + s * fromFirst[k + 1] : fromFirst[k];
  out.gridSlack = moved > 0.0f ? 1.01f * moved + 1e-6f : 0.0f;
}

glm::vec3 MeshSequence::pointAt(double t, std::uint32_t triangle, const glm::vec3& bary) const {
  std::size_t k;
  float s;
  frameAt(t, k, s);
  glm::vec3 out(0.0f);
  for (int c = 0; c < 3; ++c) {
    const std::uint32_t i = triangles[triangle][c];
    const glm::vec3 a = frames[k][i];
    const glm::vec3 p = s > 0.0f ? a + (frames[k + 1][i] - a) * s : a;
    out += bary[c] * p;
  }
  return out;
}

Result<std::shared_ptr<const MeshSequence>> makeMeshSequence(std::vector<TriMesh> frames, float fps,
                                                             std::string source) {
  if (frames.empty()) return fail("a mesh sequence needs at least one frame");
  if (!(fps > 0.0f) || !std::isfinite(fps))
    return fail("a mesh sequence's frame rate must be positive, not " + std::to_string(fps));
  const TriMesh& first = frames.front();
  if (first.triangles.empty()) return fail("frame 0 of the mesh sequence has no triangles");
  for (const glm::uvec3& t : first.triangles)
    if (t.x >= first.positions.size() || t.y >= first.positions.size() ||
        t.z >= first.positions.size())
      return fail("frame 0 of the mesh sequence has a triangle with a vertex out of range");
  auto seq = std::make_shared<MeshSequence>();
  seq->fps = fps;
  seq->source = std::move(source);
  seq->triangles = first.triangles;
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const TriMesh& m = frames[f];
    if (m.positions.size() != first.positions.size() || m.triangles != first.triangles)
      return fail("frame " + std::to_string(f) + " of the mesh sequence has " +
                  std::to_string(m.positions.size()) + " vertices and " +
                  std::to_string(m.triangles.size()) + " triangles, frame 0 " +
                  std::to_string(first.positions.size()) + " and " +
                  std::to_string(first.triangles.size()) + " (the topology must not change)");
    for (const glm::vec3& p : m.positions)
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z) ||
          std::abs(p.x) > 1e15f || std::abs(p.y) > 1e15f || std::abs(p.z) > 1e15f)
        return fail("frame " + std::to_string(f) + " of the mesh sequence has a coordinate that " +
                    "is not finite or too large");
  }
  for (TriMesh& m : frames) seq->frames.push_back(std::move(m.positions));
  for (const std::vector<glm::vec3>& frame : seq->frames) {
    float moved = 0.0f;
    for (std::size_t i = 0; i < frame.size(); ++i)
      moved = std::max(moved, glm::length(frame[i] - seq->frames[0][i]));
    seq->fromFirst.push_back(moved);
  }
  for (std::size_t f = 0; f + 1 < seq->frames.size(); ++f) {
    float travel = 0.0f;
    for (std::size_t i = 0; i < seq->frames[f].size(); ++i)
      travel = std::max(travel, glm::length(seq->frames[f + 1][i] - seq->frames[f][i]));
    seq->frameTravel.push_back(travel);
  }
  // Edges grouped by their ends; closed when each has two triangles that run
  // it in opposite directions and the first frame encloses a positive volume.
  struct Half {
    std::uint32_t lo, hi, slot;
    bool forward;
  };
  std::vector<Half> halves;
  const std::vector<glm::uvec3>& tris = seq->triangles;
  for (std::uint32_t t = 0; t < tris.size(); ++t)
    for (std::uint32_t k = 0; k < 3; ++k) {
      const std::uint32_t a = tris[t][int(k)], b = tris[t][int((k + 1) % 3)];
      halves.push_back({std::min(a, b), std::max(a, b), 3 * t + k, a < b});
    }
  std::sort(halves.begin(), halves.end(), [](const Half& x, const Half& y) {
    return x.lo != y.lo ? x.lo < y.lo : x.hi != y.hi ? x.hi < y.hi : x.slot < y.slot;
  });
  bool closed = true;
  for (std::size_t i = 0; i < halves.size();) {
    std::size_t j = i;
    seq->edgeStart.push_back(std::uint32_t(seq->edgeSlots.size()));
    while (j < halves.size() && halves[j].lo == halves[i].lo && halves[j].hi == halves[i].hi)
      seq->edgeSlots.push_back(halves[j++].slot);
    if (j - i != 2 || halves[i].forward == halves[i + 1].forward) closed = false;
    i = j;
  }
  seq->edgeStart.push_back(std::uint32_t(seq->edgeSlots.size()));
  seq->closed = closed && sixVolume(seq->frames[0], tris) > 0.0f;
  seq->tree.build(seq->frames[0], tris);
  return std::shared_ptr<const MeshSequence>(std::move(seq));
}

namespace {

// The barycentrics of a closest point in its triangle, exact at a corner or
// on an edge.
glm::vec3 barycentricOf(const MeshShape& m, const ClosestPoint& c) {
  const glm::uvec3& t = m.triangles[c.triangle];
  const glm::vec3 &a = m.vertices[t.x], &b = m.vertices[t.y], &d = m.vertices[t.z];
  auto along = [&](const glm::vec3& p, const glm::vec3& q) {
    const float len2 = glm::dot(q - p, q - p);
    return len2 > 0.0f ? std::clamp(glm::dot(c.point - p, q - p) / len2, 0.0f, 1.0f) : 0.0f;
  };
  switch (c.feature) {
    case TriangleFeature::Vertex0:
      return {1, 0, 0};
    case TriangleFeature::Vertex1:
      return {0, 1, 0};
    case TriangleFeature::Vertex2:
      return {0, 0, 1};
    case TriangleFeature::Edge01: {
      const float u = along(a, b);
      return {1.0f - u, u, 0.0f};
    }
    case TriangleFeature::Edge12: {
      const float u = along(b, d);
      return {0.0f, 1.0f - u, u};
    }
    case TriangleFeature::Edge20: {
      const float u = along(d, a);
      return {u, 0.0f, 1.0f - u};
    }
    case TriangleFeature::Face:
      break;
  }
  // Ericson 2005, Real-Time Collision Detection §3.4.
  const glm::vec3 e0 = b - a, e1 = d - a, e2 = c.point - a;
  const float d00 = glm::dot(e0, e0), d01 = glm::dot(e0, e1), d11 = glm::dot(e1, e1);
  const float d20 = glm::dot(e2, e0), d21 = glm::dot(e2, e1);
  const float denom = d00 * d11 - d01 * d01;
  if (!(denom > 0.0f)) return {1, 0, 0};
  const float v = (d11 * d20 - d01 * d21) / denom, w = (d00 * d21 - d01 * d20) / denom;
  return {1.0f - v - w, v, w};
}

glm::vec3 pointOn(const MeshShape& m, std::uint32_t triangle, const glm::vec3& bary) {
  const glm::uvec3& t = m.triangles[triangle];
  return bary.x * m.vertices[t.x] + bary.y * m.vertices[t.y] + bary.z * m.vertices[t.z];
}

}  // namespace

bool generateSequenceContact(const MeshShape& from, const MeshShape& to, float surfaceTravel,
                             const glm::vec3& x, const glm::vec3& p, float thickness, float margin,
                             glm::vec3& q, glm::vec3& n, glm::vec3& surfaceShift) {
  const float travel = glm::length(p - x);
  // Neither the vertex nor the surface can cover more than this in the step.
  const float reach = thickness + margin + travel + surfaceTravel;
  if (glm::length(x) - from.radius > reach) return false;
  ClosestPoint ca;
  const bool near = from.closest(x, reach, ca);
  if (!near) {
    // Far from the start surface, but maybe deep inside it: not outside its
    // box (the tree's root), and not where the grid says outside.
    if (!from.closed || from.bvh.nodes.empty()) return false;
    const TriangleBvh::Node& root = from.bvh.nodes[0];
    if (glm::any(glm::lessThan(x, root.lo)) || glm::any(glm::greaterThan(x, root.hi))) return false;
    float bound;
    if (from.side(x, bound) > 0) return false;
    if (!from.closest(x, bound, ca) && !from.closest(x, kInf, ca)) return false;
  }
  const float side = glm::dot(x - ca.point, from.pseudoNormal(ca)) < 0.0f ? -1.0f : 1.0f;
  if (from.closed && side < 0.0f) {
    // Inside at the start: out to the end surface's nearest point.
    ClosestPoint cb;
    if (!to.closest(p, kInf, cb) || !solidContact(to, p, cb, thickness, margin, q, n)) return false;
    surfaceShift = cb.point - pointOn(from, cb.triangle, barycentricOf(to, cb));
    return true;
  }
  if (!near) return false;
  // The start's closest point followed to the end of the step: its tangent
  // plane there, on the side the vertex started on.
  const glm::vec3 qTo = pointOn(to, ca.triangle, barycentricOf(from, ca));
  glm::vec3 nTo = to.pseudoNormal(ca);
  if (!(glm::dot(nTo, nTo) > 0.5f)) nTo = from.pseudoNormal(ca);
  if (!(glm::dot(nTo, nTo) > 0.5f)) return false;
  nTo *= side;
  if (glm::dot(p - qTo, nTo) - thickness >= margin) return false;
  n = nTo;
  q = qTo + nTo * thickness;
  surfaceShift = qTo - ca.point;
  return true;
}

}  // namespace drape::sim
