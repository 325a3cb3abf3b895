#include "sim/feature_contacts.hpp"

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
    case ColliderKind::Plane:
    case ColliderKind::Mesh:
      break;
  }
  return false;
}

bool nearFeatures(const Collider& c, const Pose& to, const glm::vec3& middle, float reach,
                  int faces) {
  if (c.kind != ColliderKind::Box) return true;
  const glm::vec3 m = to.toLocal(middle);
  int near = 0;
  for (int k = 0; k < 3; ++k) near += std::abs(m[k]) > c.size[k] - reach ? 1 : 0;
  return near >= faces;
}

namespace {

// The contact's plane through the local point qLocal with the local normal,
// placed at the step's end pose (as a vertex's contact).
void place(const Pose& from, const Pose& to, const glm::vec3& qLocal, const glm::vec3& nLocal,
           float reach, FeatureContact& out) {
  out.reach = reach;
  out.n = glm::normalize(to.rotation * nLocal);
  out.q = to.toWorld(qLocal);
  out.surfaceShift = out.q - from.toWorld(qLocal);
}

}  // namespace

bool generateEdgeContact(const Collider& c, const Pose& from, const Pose& to, const glm::vec3& pa,
                         const glm::vec3& pb, float thickness, float margin, FeatureContact& out) {
  const float tolerance = featureTolerance(thickness);
  const glm::vec3 a = to.toLocal(pa), b = to.toLocal(pb);
  const glm::vec3 d = b - a;
  switch (c.kind) {
    case ColliderKind::Plane:
    case ColliderKind::Mesh:
      return false;
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

bool generateFaceContact(const Collider& c, const Pose& from, const Pose& to, const glm::vec3& p0,
                         const glm::vec3& p1, const glm::vec3& p2, float thickness, float margin,
                         FeatureContact& out) {
  if (c.kind == ColliderKind::Plane || c.kind == ColliderKind::Mesh) return false;
  const glm::vec3 a[3] = {to.toLocal(p0), to.toLocal(p1), to.toLocal(p2)};
  const glm::vec3 across = glm::cross(a[1] - a[0], a[2] - a[0]);
  const float area2 = glm::length(across);
  if (!(area2 > 1e-12f)) return false;
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
  // C at the triangle's point over the support point: its height above it,
  // less the thickness.
  const float height = glm::dot(a[0] - support, n) - thickness;
  // Near, but not through: a shape already through the triangle by more
  // than a step's travel (a cloth wrapped round it, tangled) is not pushed
  // back across it in one go.
  if (height >= margin || height < -(thickness + margin)) return false;
  // Over the interior only: over an edge or a vertex, their own contacts act.
  constexpr float kInterior = 1e-3f;
  const glm::vec3 x = support + n * (height + thickness);
  float w[3];
  for (int k = 0; k < 3; ++k)
    w[k] = glm::dot(glm::cross(a[(k + 1) % 3] - x, a[(k + 2) % 3] - x), across) / (area2 * area2);
  if (!(w[0] > kInterior && w[1] > kInterior && w[2] > kInterior)) return false;
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
