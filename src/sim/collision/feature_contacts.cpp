#include "sim/collision/feature_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace drape::sim {

bool featuresMayReach(const Collider& c, float length2) {
  switch (c.kind) {
    case ColliderKind::Box:
      return true;
    case ColliderKind::Sphere:
    case ColliderKind::Capsule:
      // A rod or a ball thinner than the span: a chord of length L of a
      // curve of radius r sags only L²/(8r) below its ends, r/8 at most for
      // a span shorter than the radius, and the vertices' contacts hold it.
      return length2 > c.size.x * c.size.x;
    case ColliderKind::Mesh:
      return c.mesh && !c.sequence && !c.mesh->sharpEdges.empty();
    case ColliderKind::Plane:
      break;
  }
  return false;
}

namespace {

// The contact's plane through the local point qLocal with the local normal,
// placed at the step's end pose (as a vertex's contact).
void place(const Pose& from, const Pose& to, const glm::vec3& qLocal, const glm::vec3& nLocal,
           float reach, FeatureContact& out) {
  out.reach = reach;
  out.n = glm::normalize(to.rotate(nLocal));
  out.q = to.toWorld(qLocal);
  out.surfaceShift = out.q - from.toWorld(qLocal);
}

// The closest points of the segments p + s·d and q + t·e, s, t in [0, 1]
// (Ericson 2005, Real-Time Collision Detection §5.1.9).
void closestOnSegments(const glm::vec3& p, const glm::vec3& d, const glm::vec3& q,
                       const glm::vec3& e, float& s, float& t) {
  const glm::vec3 r = p - q;
  const float a = glm::dot(d, d), b = glm::dot(d, e), c = glm::dot(d, r), f = glm::dot(e, e),
              g = glm::dot(e, r);
  const float denom = a * f - b * b;
  s = denom > 1e-12f * a * f ? std::clamp((b * g - c * f) / denom, 0.0f, 1.0f) : 0.0f;
  t = f > 0.0f ? (b * s + g) / f : 0.0f;
  if (t < 0.0f) {
    t = 0.0f;
    s = a > 0.0f ? std::clamp(-c / a, 0.0f, 1.0f) : 0.0f;
  } else if (t > 1.0f) {
    t = 1.0f;
    s = a > 0.0f ? std::clamp((b - c) / a, 0.0f, 1.0f) : 0.0f;
  }
}

// The signed distance of x to a sharp edge's wedge (negative behind both
// faces, inside the mesh) and the direction away from it; y is the edge's
// point nearest x.
float wedgeDistance(const MeshShape::SharpEdge& edge, const glm::vec3& x, const glm::vec3& y,
                    glm::vec3& normal) {
  const glm::vec3 u = x - y;
  const float d = glm::length(u);
  const bool inside = glm::dot(u, edge.normalA) <= 0.0f && glm::dot(u, edge.normalB) <= 0.0f;
  if (inside || !(d > 1e-9f)) {
    normal = glm::normalize(edge.normalA + edge.normalB);
    return inside ? -d : d;
  }
  normal = u / d;
  return d;
}

// The nearest point of a sharp edge's segment to x.
glm::vec3 nearestOnEdge(const MeshShape& m, const MeshShape::SharpEdge& edge, const glm::vec3& x) {
  const glm::vec3 a = m.vertices[edge.a], ab = m.vertices[edge.b] - a;
  const float t = std::clamp(glm::dot(x - a, ab) / std::max(glm::dot(ab, ab), 1e-30f), 0.0f, 1.0f);
  return a + t * ab;
}

// A cloth edge a → b (local frame) against a mesh's sharp edges: the
// deepest of its points inside (0 < s < 1) nearer a sharp edge than both its
// ends are, by more than the tolerance.
bool meshEdgeContact(const MeshShape& m, const glm::vec3& a, const glm::vec3& b, float thickness,
                     float margin, float& sBest, glm::vec3& qLocal, glm::vec3& nLocal) {
  const float reach = thickness + margin;
  const float tolerance = featureTolerance(thickness);
  float best = margin;
  m.sharpTree.overlapping(glm::min(a, b) - reach, glm::max(a, b) + reach, [&](std::uint32_t k) {
    const MeshShape::SharpEdge& edge = m.sharpEdges[k];
    const glm::vec3 p = m.vertices[edge.a], e = m.vertices[edge.b] - p;
    float s, t;
    closestOnSegments(a, b - a, p, e, s, t);
    if (!(s > 0.0f && s < 1.0f)) return;
    const glm::vec3 x = a + s * (b - a), y = p + t * e;
    if (glm::dot(x - y, x - y) >= reach * reach) return;  // too far, in or out
    glm::vec3 n, unused;
    const float f = wedgeDistance(edge, x, y, n) - thickness;
    const float ends = std::min(wedgeDistance(edge, a, nearestOnEdge(m, edge, a), unused),
                                wedgeDistance(edge, b, nearestOnEdge(m, edge, b), unused)) -
                       thickness;
    if (f >= best || f >= ends - tolerance || f < -reach || ends < -thickness) return;
    best = f;
    sBest = s;
    nLocal = n;
    qLocal = y + n * thickness;
  });
  return best < margin;
}

}  // namespace

bool nearFeatures(const Collider& c, const Pose& to, const glm::vec3& middle, float reach,
                  int faces) {
  if (c.kind == ColliderKind::Mesh && c.mesh && !c.mesh->sharpTree.nodes.empty()) {
    // Within reach of the box holding the mesh's sharp edges.
    const TriangleBvh::Node& all = c.mesh->sharpTree.nodes[0];
    const glm::vec3 m = to.toLocal(middle);
    const glm::vec3 out = glm::max(glm::max(all.lo - m, m - all.hi), glm::vec3(0.0f));
    return glm::dot(out, out) <= reach * reach;
  }
  if (c.kind != ColliderKind::Box) return true;
  const glm::vec3 m = to.toLocal(middle);
  int near = 0;
  for (int k = 0; k < 3; ++k) near += std::abs(m[k]) > c.size[k] - reach ? 1 : 0;
  return near >= faces;
}

bool generateEdgeContact(const Collider& c, const Pose& from, const Pose& to, const glm::vec3& pa,
                         const glm::vec3& pb, float thickness, float margin, FeatureContact& out) {
  const float tolerance = featureTolerance(thickness);
  const glm::vec3 a = to.toLocal(pa), b = to.toLocal(pb);
  const glm::vec3 d = b - a;
  switch (c.kind) {
    case ColliderKind::Plane:
      return false;
    case ColliderKind::Mesh: {
      float s = 0.0f;
      glm::vec3 qLocal, nLocal;
      if (!c.mesh || !meshEdgeContact(*c.mesh, a, b, thickness, margin, s, qLocal, nLocal))
        return false;
      out.weight[0] = 1.0f - s;
      out.weight[1] = s;
      out.weight[2] = 0.0f;
      place(from, to, qLocal, nLocal, thickness + margin, out);
      return true;
    }
    case ColliderKind::Sphere:
    case ColliderKind::Capsule:
      break;  // featuresMayReach has judged the edge's length
    case ColliderKind::Box: {
      // Both ends beyond the same face and within its other two slabs: the
      // distance along the edge is the distance to that face's plane,
      // linear, deepest at an end.
      int same = 0, beyond = 0;
      for (int k = 0; k < 3; ++k) {
        const int ra = a[k] > c.size[k] ? 1 : a[k] < -c.size[k] ? -1 : 0;
        const int rb = b[k] > c.size[k] ? 1 : b[k] < -c.size[k] ? -1 : 0;
        same += ra == rb ? 1 : 0;
        beyond += ra != 0 ? 1 : 0;
      }
      if (same == 3 && beyond == 1) return false;
      break;
    }
  }
  // f(s), the signed distance above the inflated surface along the edge, is
  // convex, and the shape's normal gives its slope f'(s) = n·d. Rising from
  // the first end or falling to the second, it is deepest at an end; the
  // ends' tangents bound it from below where they meet.
  glm::vec3 n0, n1, normal;
  auto f = [&](float s, glm::vec3& n) { return signedDistance(c, a + s * d, n) - thickness; };
  const float f0 = f(0.0f, n0), f1 = f(1.0f, n1);
  const float g0 = glm::dot(n0, d), g1 = glm::dot(n1, d);
  if (!(g0 < 0.0f && g1 > 0.0f)) return false;
  const float ends = std::min(f0, f1);
  // Both ends outside the shape: an end inside is its own contact's to
  // push out first.
  if (ends < -thickness) return false;
  const float meet = std::clamp((f1 - g1 - f0) / (g0 - g1), 0.0f, 1.0f);
  if (f0 + g0 * meet >= ends - tolerance) return false;
  // The minimum, by bisection on the slope's sign.
  float lo = 0.0f, hi = 1.0f;
  for (int i = 0; i < 18; ++i) {
    const float mid = 0.5f * (lo + hi);
    f(mid, normal);
    (glm::dot(normal, d) < 0.0f ? lo : hi) = mid;
  }
  const float s = 0.5f * (lo + hi);
  const float deepest = f(s, normal);
  // Near, but not through: an edge already deep in the shape (through a
  // thin wall, tangled) is left to its vertices' contacts rather than pushed
  // across in one go.
  if (deepest >= margin || deepest >= ends - tolerance || deepest < -(thickness + margin))
    return false;
  out.weight[0] = 1.0f - s;
  out.weight[1] = s;
  out.weight[2] = 0.0f;
  place(from, to, a + s * d - normal * deepest, normal, thickness + margin, out);
  return true;
}

namespace {

// The triangle a (local frame; `across` = (a1 − a0) × (a2 − a0), of length
// area2) over a point of the shape, with the triangle's normal n facing away
// from the shape: C at the triangle's point over it, its height above it
// less the thickness, and that point's barycentric weights. False unless the
// point is near and under the triangle's interior (over an edge or a vertex,
// their own contacts act), or when it is through the triangle by more than a
// step's travel (a cloth wrapped round it, tangled: not pushed back across
// it in one go).
bool overTriangle(const glm::vec3 (&a)[3], const glm::vec3& across, float area2,
                  const glm::vec3& point, const glm::vec3& n, float thickness, float margin,
                  float& height, float (&w)[3]) {
  height = glm::dot(a[0] - point, n) - thickness;
  if (height >= margin || height < -(thickness + margin)) return false;
  constexpr float kInterior = 1e-3f;
  const glm::vec3 x = point + n * (height + thickness);
  for (int k = 0; k < 3; ++k)
    w[k] = glm::dot(glm::cross(a[(k + 1) % 3] - x, a[(k + 2) % 3] - x), across) / (area2 * area2);
  return w[0] > kInterior && w[1] > kInterior && w[2] > kInterior;
}

// A triangle (local frame) against a mesh's sharp corners (the ends of its
// sharp edges): the one deepest under the triangle's interior, nearer the
// triangle's plane than the triangle's vertices are to it.
bool meshCornerContact(const MeshShape& m, const glm::vec3 (&a)[3], const glm::vec3& across,
                       float area2, float thickness, float margin, float (&weight)[3],
                       glm::vec3& qLocal, glm::vec3& nLocal) {
  const float reach = thickness + margin;
  float best = margin;
  const glm::vec3 lo = glm::min(glm::min(a[0], a[1]), a[2]) - reach;
  const glm::vec3 hi = glm::max(glm::max(a[0], a[1]), a[2]) + reach;
  m.cornerTree.overlapping(lo, hi, [&](std::uint32_t k) {
    const std::uint32_t corner = m.sharpCorners[k];
    const glm::vec3& p = m.vertices[corner];
    const glm::vec3 n =
        (glm::dot(across, m.vertexNormals[corner]) < 0.0f ? -1.0f : 1.0f) * across / area2;
    float height, w[3];
    if (!overTriangle(a, across, area2, p, n, thickness, margin, height, w) || height >= best)
      return;
    float vertices = std::numeric_limits<float>::infinity();
    for (const glm::vec3& v : a) vertices = std::min(vertices, glm::length(v - p) - thickness);
    if (height >= vertices - featureTolerance(thickness)) return;
    best = height;
    for (int i = 0; i < 3; ++i) weight[i] = w[i];
    nLocal = n;
    qLocal = p + n * thickness;
  });
  return best < margin;
}

}  // namespace

bool generateFaceContact(const Collider& c, const Pose& from, const Pose& to, const glm::vec3& p0,
                         const glm::vec3& p1, const glm::vec3& p2, float thickness, float margin,
                         FeatureContact& out) {
  if (c.kind == ColliderKind::Plane) return false;
  const glm::vec3 a[3] = {to.toLocal(p0), to.toLocal(p1), to.toLocal(p2)};
  const glm::vec3 across = glm::cross(a[1] - a[0], a[2] - a[0]);
  const float area2 = glm::length(across);
  if (!(area2 > 1e-12f)) return false;
  if (c.kind == ColliderKind::Mesh) {
    glm::vec3 qLocal, nLocal;
    if (!c.mesh || !meshCornerContact(*c.mesh, a, across, area2, thickness, margin, out.weight,
                                      qLocal, nLocal))
      return false;
    place(from, to, qLocal, nLocal, thickness + margin, out);
    return true;
  }
  // The triangle's normal facing away from the shape (along the shape's own
  // normal at the triangle's middle), and the shape's point furthest along
  // it: its support point.
  glm::vec3 outward;
  signedDistance(c, (a[0] + a[1] + a[2]) * (1.0f / 3.0f), outward);
  const glm::vec3 n = (glm::dot(across, outward) < 0.0f ? -1.0f : 1.0f) * across / area2;
  glm::vec3 support(0.0f);
  switch (c.kind) {
    case ColliderKind::Box:
      for (int k = 0; k < 3; ++k) support[k] = n[k] < 0.0f ? -c.size[k] : c.size[k];
      break;
    case ColliderKind::Sphere:
      support = n * c.size.x;
      break;
    case ColliderKind::Capsule:
      support = glm::vec3(0.0f, n.y < 0.0f ? -c.size.y : c.size.y, 0.0f) + n * c.size.x;
      break;
    case ColliderKind::Plane:
    case ColliderKind::Mesh:
      return false;
  }
  float height, w[3];
  if (!overTriangle(a, across, area2, support, n, thickness, margin, height, w)) return false;
  float vertices = std::numeric_limits<float>::infinity();
  glm::vec3 unused;
  for (const glm::vec3& v : a)
    vertices = std::min(vertices, signedDistance(c, v, unused) - thickness);
  if (height >= vertices - featureTolerance(thickness) || vertices < -thickness) return false;
  for (int k = 0; k < 3; ++k) out.weight[k] = w[k];
  place(from, to, support + n * thickness, n, thickness + margin, out);
  return true;
}

}  // namespace drape::sim
