#include "sim/collision/mesh_shape.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace drape::sim {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// Squared distance from p to a box (0 inside).
inline float boxDistance2(const glm::vec3& p, const glm::vec3& lo, const glm::vec3& hi) {
  const float x = std::max(std::max(lo.x - p.x, p.x - hi.x), 0.0f);
  const float y = std::max(std::max(lo.y - p.y, p.y - hi.y), 0.0f);
  const float z = std::max(std::max(lo.z - p.z, p.z - hi.z), 0.0f);
  return x * x + y * y + z * z;
}

// The closest point of triangle abc to p and the feature it lies on
// (Ericson 2005, Real-Time Collision Detection §5.1.5: Voronoi regions).
glm::vec3 closestOnTriangle(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b,
                            const glm::vec3& c, TriangleFeature& feature) {
  const glm::vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) {
    feature = TriangleFeature::Vertex0;
    return a;
  }
  const glm::vec3 bp = p - b;
  const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0.0f && d4 <= d3) {
    feature = TriangleFeature::Vertex1;
    return b;
  }
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
    feature = TriangleFeature::Edge01;
    return a + ab * (d1 / (d1 - d3));
  }
  const glm::vec3 cp = p - c;
  const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0.0f && d5 <= d6) {
    feature = TriangleFeature::Vertex2;
    return c;
  }
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
    feature = TriangleFeature::Edge20;
    return a + ac * (d2 / (d2 - d6));
  }
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
    feature = TriangleFeature::Edge12;
    return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  }
  const float sum = va + vb + vc;
  feature = TriangleFeature::Face;
  if (!(sum > 0.0f)) return a;  // a sliver: any point of it is as close
  return a + ab * (vb / sum) + ac * (vc / sum);
}

// Where the segment a + t·d, t in [0, tMax], enters the box, or false.
bool segmentHitsBox(const glm::vec3& a, const glm::vec3& invD, float tMax, const glm::vec3& lo,
                    const glm::vec3& hi) {
  float t0 = 0.0f, t1 = tMax;
  for (int k = 0; k < 3; ++k) {
    float ta = (lo[k] - a[k]) * invD[k], tb = (hi[k] - a[k]) * invD[k];
    if (std::isnan(ta) || std::isnan(tb)) {  // parallel to the slab, on its plane
      if (a[k] < lo[k] || a[k] > hi[k]) return false;
      continue;
    }
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}

// The segment a + t·d, t in [0, 1], against triangle (p0, p1, p2), either
// side (Möller & Trumbore 1997). Barycentric bounds are a little inclusive so
// that a segment through a shared edge hits at least one of its triangles.
bool segmentTriangle(const glm::vec3& a, const glm::vec3& d, const glm::vec3& p0,
                     const glm::vec3& p1, const glm::vec3& p2, float& t) {
  constexpr float kEdgeSlack = 1e-6f;
  const glm::vec3 e1 = p1 - p0, e2 = p2 - p0;
  const glm::vec3 h = glm::cross(d, e2);
  const float det = glm::dot(e1, h);
  if (det == 0.0f || !std::isfinite(det)) return false;
  const float inv = 1.0f / det;
  const glm::vec3 s = a - p0;
  const float u = glm::dot(s, h) * inv;
  if (u < -kEdgeSlack || u > 1.0f + kEdgeSlack) return false;
  const glm::vec3 q = glm::cross(s, e1);
  const float v = glm::dot(d, q) * inv;
  if (v < -kEdgeSlack || u + v > 1.0f + kEdgeSlack) return false;
  t = glm::dot(e2, q) * inv;
  return t >= 0.0f && t <= 1.0f;
}

struct BuildItem {
  std::uint32_t node, begin, end;
};

}  // namespace

void TriangleBvh::build(const std::vector<glm::vec3>& v, const std::vector<glm::uvec3>& tris) {
  nodes.clear();
  order.resize(tris.size());
  for (std::uint32_t i = 0; i < tris.size(); ++i) order[i] = i;
  if (tris.empty()) return;
  std::vector<glm::vec3> centroid(tris.size());
  for (std::size_t i = 0; i < tris.size(); ++i)
    centroid[i] = (v[tris[i].x] + v[tris[i].y] + v[tris[i].z]) * (1.0f / 3.0f);
  nodes.reserve(2 * (tris.size() / kLeafSize + 1));
  // Depth first with an explicit stack: a node's left child follows it, so
  // the right child's index is known only once the left subtree is built.
  struct Pending {
    std::uint32_t parent, begin, end;  // parent = UINT32_MAX for the root
  };
  std::vector<Pending> stack{
      {std::numeric_limits<std::uint32_t>::max(), 0, std::uint32_t(tris.size())}};
  while (!stack.empty()) {
    const Pending job = stack.back();
    stack.pop_back();
    const std::uint32_t index = std::uint32_t(nodes.size());
    if (job.parent != std::numeric_limits<std::uint32_t>::max()) {
      Node& parent = nodes[job.parent];
      // The left child is built first, right after its parent.
      if (index != job.parent + 1) parent.second = index;
    }
    Node node;
    node.lo = glm::vec3(kInf);
    node.hi = glm::vec3(-kInf);
    glm::vec3 clo(kInf), chi(-kInf);
    for (std::uint32_t i = job.begin; i < job.end; ++i) {
      const glm::uvec3& t = tris[order[i]];
      for (int k = 0; k < 3; ++k) {
        node.lo = glm::min(node.lo, v[t[k]]);
        node.hi = glm::max(node.hi, v[t[k]]);
      }
      clo = glm::min(clo, centroid[order[i]]);
      chi = glm::max(chi, centroid[order[i]]);
    }
    const std::uint32_t count = job.end - job.begin;
    if (count <= kLeafSize) {
      node.first = job.begin;
      node.count = count;
      nodes.push_back(node);
      continue;
    }
    const glm::vec3 extent = chi - clo;
    int axis = 0;
    if (extent.y > extent[axis]) axis = 1;
    if (extent.z > extent[axis]) axis = 2;
    const std::uint32_t mid = job.begin + count / 2;
    // Ties broken by the triangle index: the split does not depend on how
    // the sort happens to order equal keys.
    std::nth_element(order.begin() + job.begin, order.begin() + mid, order.begin() + job.end,
                     [&](std::uint32_t x, std::uint32_t y) {
                       const float cx = centroid[x][axis], cy = centroid[y][axis];
                       return cx < cy || (cx == cy && x < y);
                     });
    node.first = index + 1;
    nodes.push_back(node);
    // Right pushed first so the left is built next (and lands at index + 1).
    stack.push_back({index, mid, job.end});
    stack.push_back({index, job.begin, mid});
  }
}

bool MeshShape::closest(const glm::vec3& p, float maxDistance, ClosestPoint& out) const {
  if (bvh.nodes.empty()) return false;
  float best = maxDistance < kInf ? maxDistance * maxDistance : kInf;
  bool found = false;
  // Each node waits with its box's squared distance, measured once, when its
  // parent was opened.
  struct Pending {
    std::uint32_t node;
    float distance2;
  };
  std::array<Pending, 64> stack;
  int top = 0;
  stack[top++] = {0, boxDistance2(p, bvh.nodes[0].lo, bvh.nodes[0].hi)};
  while (top > 0) {
    const Pending pending = stack[--top];
    if (pending.distance2 > best) continue;
    const TriangleBvh::Node& node = bvh.nodes[pending.node];
    if (node.count > 0) {
      for (std::uint32_t i = node.first; i < node.first + node.count; ++i) {
        const std::uint32_t t = bvh.order[i];
        const glm::uvec3& tri = triangles[t];
        // The triangle is no nearer than its plane: most are rejected there
        // (with a little slack for rounding, so that no tie is lost).
        const float plane = glm::dot(p - vertices[tri.x], faceNormals[t]);
        if (plane * plane > best * 1.0001f + 1e-12f) continue;
        TriangleFeature feature;
        const glm::vec3 q =
            closestOnTriangle(p, vertices[tri.x], vertices[tri.y], vertices[tri.z], feature);
        const glm::vec3 d = p - q;
        const float d2 = glm::dot(d, d);
        // Ties go to the lower triangle index: the answer does not depend
        // on the order the tree visits its leaves in.
        if (d2 < best || (d2 == best && (!found || t < out.triangle))) {
          best = d2;
          found = true;
          out = {q, d2, t, feature};
        }
      }
      continue;
    }
    // Nearer child on top of the stack, visited first.
    const std::uint32_t left = node.first, right = node.second;
    const float dl = boxDistance2(p, bvh.nodes[left].lo, bvh.nodes[left].hi);
    const float dr = boxDistance2(p, bvh.nodes[right].lo, bvh.nodes[right].hi);
    if (top + 2 > int(stack.size())) continue;  // deeper than any tree of 2^60 triangles
    if (dl <= dr) {
      if (dr <= best) stack[top++] = {right, dr};
      if (dl <= best) stack[top++] = {left, dl};
    } else {
      if (dl <= best) stack[top++] = {left, dl};
      if (dr <= best) stack[top++] = {right, dr};
    }
  }
  return found;
}

glm::vec3 MeshShape::pseudoNormal(const ClosestPoint& c) const {
  const glm::uvec3& t = triangles[c.triangle];
  switch (c.feature) {
    case TriangleFeature::Face:
      return faceNormals[c.triangle];
    case TriangleFeature::Edge01:
      return edgeNormals[3 * c.triangle + 0];
    case TriangleFeature::Edge12:
      return edgeNormals[3 * c.triangle + 1];
    case TriangleFeature::Edge20:
      return edgeNormals[3 * c.triangle + 2];
    case TriangleFeature::Vertex0:
      return vertexNormals[t.x];
    case TriangleFeature::Vertex1:
      return vertexNormals[t.y];
    case TriangleFeature::Vertex2:
      return vertexNormals[t.z];
  }
  return faceNormals[c.triangle];
}

bool MeshShape::firstHit(const glm::vec3& a, const glm::vec3& b, float& tHit,
                         std::uint32_t& triangle) const {
  if (bvh.nodes.empty()) return false;
  const glm::vec3 d = b - a;
  const glm::vec3 invD(1.0f / d.x, 1.0f / d.y, 1.0f / d.z);
  float best = 1.0f;
  bool found = false;
  std::array<std::uint32_t, 64> stack;
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const TriangleBvh::Node& node = bvh.nodes[stack[--top]];
    if (!segmentHitsBox(a, invD, best, node.lo, node.hi)) continue;
    if (node.count > 0) {
      for (std::uint32_t i = node.first; i < node.first + node.count; ++i) {
        const std::uint32_t t = bvh.order[i];
        const glm::uvec3& tri = triangles[t];
        float s;
        if (!segmentTriangle(a, d, vertices[tri.x], vertices[tri.y], vertices[tri.z], s)) continue;
        if (s < best || (s == best && (!found || t < triangle))) {
          best = s;
          triangle = t;
          found = true;
        }
      }
      continue;
    }
    if (top + 2 > int(stack.size())) continue;
    stack[top++] = node.second;
    stack[top++] = node.first;
  }
  if (found) tHit = best;
  return found;
}

float MeshShape::distance(const glm::vec3& p, glm::vec3& normal) const {
  ClosestPoint c;
  if (!closest(p, kInf, c)) {
    normal = glm::vec3(0, 1, 0);
    return 1e30f;
  }
  const float d = std::sqrt(c.distance2);
  const glm::vec3 pn = pseudoNormal(c);
  const float sign = closed && glm::dot(p - c.point, pn) < 0.0f ? -1.0f : 1.0f;
  normal = d > 1e-12f ? sign * (p - c.point) / d : pn;
  return sign * d;
}

int MeshShape::side(const glm::vec3& p, float& bound) const {
  bound = kInf;
  if (cellDistance.empty()) return 0;
  const glm::vec3 f = (p - gridLo) / gridCell;
  if (!(f.x >= 0.0f && f.y >= 0.0f && f.z >= 0.0f && f.x < float(kGrid) && f.y < float(kGrid) &&
        f.z < float(kGrid))) {
    if (!std::isfinite(f.x + f.y + f.z)) return 0;
    if (gridSlack == 0.0f) return 1;  // outside the box: outside the mesh
    // The surface may have moved out of the box by the slack.
    const glm::vec3 hi = gridLo + gridCell * float(kGrid);
    return boxDistance2(p, gridLo, hi) > 1.0001f * gridSlack * gridSlack ? 1 : 0;
  }
  const int i = int(f.x), j = int(f.y), k = int(f.z);
  const float d = cellDistance[std::size_t((k * kGrid + j) * kGrid + i)];
  const glm::vec3 centre = gridLo + (glm::vec3(float(i), float(j), float(k)) + 0.5f) * gridCell;
  // A margin of a few per cent for the rounding of the distances.
  const float offset = 1.02f * glm::length(p - centre) + 1e-6f * glm::length(gridCell);
  bound = (std::abs(d) + gridSlack) * 1.02f + offset;
  return std::abs(d) - gridSlack > offset ? (d > 0.0f ? 1 : -1) : 0;
}

Result<std::shared_ptr<const MeshShape>> makeMeshShape(const TriMesh& input, std::string source,
                                                       float scale) {
  auto prepared = prepareMesh(input);
  if (!prepared) return fail(prepared.error());
  auto shape = std::make_shared<MeshShape>();
  shape->source = std::move(source);
  shape->scale = scale;
  shape->repairs = prepared->report.repairs();
  const TriMesh& m = prepared->mesh;
  shape->vertices = m.positions;
  glm::vec3 lo(kInf), hi(-kInf);
  for (const glm::vec3& v : m.positions) {
    lo = glm::min(lo, v);
    hi = glm::max(hi, v);
    shape->radius = std::max(shape->radius, glm::length(v));
  }
  const float diagonal = glm::length(hi - lo);
  if (!std::isfinite(diagonal) || !std::isfinite(shape->radius))
    return fail("the mesh's coordinates are too large");
  // Triangles too thin for a normal (twice the area below 1e-12 of the
  // squared size) are dropped: they would only add noise to the normals.
  std::size_t thin = 0;
  for (const glm::uvec3& t : m.triangles) {
    const glm::vec3 n =
        glm::cross(m.positions[t.y] - m.positions[t.x], m.positions[t.z] - m.positions[t.x]);
    const float len = glm::length(n);
    if (!(len > 1e-12f * diagonal * diagonal) || !std::isfinite(len)) {
      ++thin;
      continue;
    }
    shape->triangles.push_back(t);
    shape->faceNormals.push_back(n / len);
  }
  if (thin > 0)
    shape->repairs.push_back(std::to_string(thin) + " triangle" + (thin == 1 ? "" : "s") +
                             " too thin for a normal dropped");
  if (shape->triangles.empty()) return fail("no triangle with an area is left");

  // Edges: each directed edge (a, b) of each triangle, sorted by its
  // undirected key, so the two triangles of an edge sit side by side.
  struct HalfEdge {
    std::uint32_t lo, hi, triangle, slot;
    bool forward;  // a < b
  };
  const std::vector<glm::uvec3>& tris = shape->triangles;
  std::vector<HalfEdge> edges;
  edges.reserve(3 * tris.size());
  for (std::uint32_t t = 0; t < tris.size(); ++t)
    for (std::uint32_t k = 0; k < 3; ++k) {
      const std::uint32_t a = tris[t][int(k)], b = tris[t][int((k + 1) % 3)];
      edges.push_back({std::min(a, b), std::max(a, b), t, k, a < b});
    }
  std::sort(edges.begin(), edges.end(), [](const HalfEdge& x, const HalfEdge& y) {
    return x.lo != y.lo ? x.lo < y.lo : x.hi != y.hi ? x.hi < y.hi : x.triangle < y.triangle;
  });
  shape->edgeNormals.assign(3 * tris.size(), glm::vec3(0.0f));
  bool closed = true;
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    glm::vec3 sum(0.0f);
    while (j < edges.size() && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi)
      sum += shape->faceNormals[edges[j++].triangle];
    if (j - i != 2 || edges[i].forward == edges[i + 1].forward) closed = false;
    if (j - i == 2) {
      const std::uint32_t ta = edges[i].triangle, tb = edges[i + 1].triangle;
      const glm::vec3 &na = shape->faceNormals[ta], &nb = shape->faceNormals[tb];
      // The corner of the second triangle off the edge, below the first's
      // plane: the edge bulges out.
      const std::uint32_t off = tris[tb][int((edges[i + 1].slot + 2) % 3)];
      const bool convex = glm::dot(shape->vertices[off] - shape->vertices[edges[i].lo], na) < 0.0f;
      if (convex && glm::dot(na, nb) < std::cos(glm::radians(MeshShape::kSharpDegrees)))
        shape->sharpEdges.push_back({edges[i].lo, edges[i].hi, na, nb});
    }
    const float len = glm::length(sum);
    for (std::size_t k = i; k < j; ++k)
      shape->edgeNormals[3 * edges[k].triangle + edges[k].slot] =
          len > 1e-6f ? sum / len : shape->faceNormals[edges[k].triangle];
    i = j;
  }
  shape->closed = closed && sixVolume(shape->vertices, tris) > 0.0f;

  // Vertex normals weighted by the angle of each corner.
  std::vector<glm::vec3> sums(shape->vertices.size(), glm::vec3(0.0f));
  for (std::uint32_t t = 0; t < tris.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const glm::vec3& p = shape->vertices[tris[t][k]];
      const glm::vec3 e1 = shape->vertices[tris[t][(k + 1) % 3]] - p;
      const glm::vec3 e2 = shape->vertices[tris[t][(k + 2) % 3]] - p;
      const float l1 = glm::length(e1), l2 = glm::length(e2);
      if (!(l1 > 0.0f && l2 > 0.0f)) continue;
      const float angle = std::acos(std::clamp(glm::dot(e1, e2) / (l1 * l2), -1.0f, 1.0f));
      sums[tris[t][k]] += angle * shape->faceNormals[t];
    }
  shape->vertexNormals.resize(sums.size());
  for (std::size_t i = 0; i < sums.size(); ++i) {
    const float len = glm::length(sums[i]);
    shape->vertexNormals[i] = len > 1e-12f ? sums[i] / len : glm::vec3(0, 1, 0);
  }
  shape->bvh.build(shape->vertices, tris);
  std::vector<glm::uvec3> segments;
  for (const MeshShape::SharpEdge& e : shape->sharpEdges) segments.push_back({e.a, e.b, e.b});
  shape->sharpTree.build(shape->vertices, segments);
  for (const MeshShape::SharpEdge& e : shape->sharpEdges) {
    shape->sharpCorners.push_back(e.a);
    shape->sharpCorners.push_back(e.b);
  }
  std::sort(shape->sharpCorners.begin(), shape->sharpCorners.end());
  shape->sharpCorners.erase(std::unique(shape->sharpCorners.begin(), shape->sharpCorners.end()),
                            shape->sharpCorners.end());
  std::vector<glm::uvec3> points;
  for (const std::uint32_t c : shape->sharpCorners) points.push_back({c, c, c});
  shape->cornerTree.build(shape->vertices, points);
  if (shape->closed) {
    // The box grown by a little, so that no cell is flat.
    const glm::vec3 pad(1e-3f * diagonal + 1e-6f);
    shape->gridLo = lo - pad;
    shape->gridCell = (hi - lo + 2.0f * pad) / float(MeshShape::kGrid);
    const int n = MeshShape::kGrid;
    shape->cellDistance.assign(std::size_t(n * n * n), 0.0f);
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const glm::vec3 centre =
              shape->gridLo + (glm::vec3(float(i), float(j), float(k)) + 0.5f) * shape->gridCell;
          glm::vec3 normal;
          shape->cellDistance[std::size_t((k * n + j) * n + i)] = shape->distance(centre, normal);
        }
  }
  return std::shared_ptr<const MeshShape>(std::move(shape));
}

// A solid's contact at b, from b's closest surface point: the plane at
// `thickness` outside the surface, when b is inside or within the margin.
bool solidContact(const MeshShape& m, const glm::vec3& b, const ClosestPoint& cb, float thickness,
                  float margin, glm::vec3& qLocal, glm::vec3& nLocal) {
  const glm::vec3 pn = m.pseudoNormal(cb);
  const float d = std::sqrt(cb.distance2);
  const glm::vec3 away = b - cb.point;
  const float sign = glm::dot(away, pn) < 0.0f ? -1.0f : 1.0f;
  if (sign * d - thickness >= margin) return false;
  nLocal = d > 1e-12f ? sign * away / d : pn;
  qLocal = cb.point + nLocal * thickness;
  return true;
}

}  // namespace drape::sim
