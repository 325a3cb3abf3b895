#include "sim/collision/colliders.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtx/quaternion.hpp>

namespace drape::sim {

bool Motion::isStatic() const {
  return velocity == glm::vec3(0.0f) && angularVelocity == glm::vec3(0.0f) &&
         (amplitude == glm::vec3(0.0f) || frequency == 0.0f);
}

glm::quat Motion::rotationAt(double t) const {
  const float rate = glm::length(angularVelocity);
  if (rate == 0.0f) return glm::quat(1, 0, 0, 0);
  return glm::angleAxis(float(double(rate) * t), angularVelocity / rate);
}

glm::vec3 Motion::apply(const glm::vec3& rest, double t) const {
  const glm::vec3 rotated = pivot + rotationAt(t) * (rest - pivot);
  const float wave = float(std::sin(2.0 * 3.14159265358979323846 * double(frequency) * t));
  return rotated + velocity * float(t) + amplitude * wave;
}

Collider Collider::plane(const glm::vec3& point, const glm::vec3& normal) {
  Collider c;
  c.kind = ColliderKind::Plane;
  c.center = point;
  // Normalised in double: the float length of [1e20, 1e20, 1e20] overflows.
  const glm::dvec3 n(normal);
  const double length = glm::length(n);
  const glm::vec3 unit =
      length > 0.0 && std::isfinite(length) ? glm::vec3(n / length) : glm::vec3(0, 1, 0);
  c.orientation = glm::normalize(glm::rotation(glm::vec3(0, 1, 0), unit));
  return c;
}
Collider Collider::sphere(const glm::vec3& center, float radius) {
  Collider c;
  c.kind = ColliderKind::Sphere;
  c.center = center;
  c.size = glm::vec3(radius);
  return c;
}
Collider Collider::box(const glm::vec3& center, const glm::vec3& halfExtents,
                       const glm::quat& orientation) {
  Collider c;
  c.kind = ColliderKind::Box;
  c.center = center;
  c.size = halfExtents;
  c.orientation = orientation;
  return c;
}
Collider Collider::capsule(const glm::vec3& center, float radius, float halfLength,
                           const glm::quat& orientation) {
  Collider c;
  c.kind = ColliderKind::Capsule;
  c.center = center;
  c.size = glm::vec3(radius, halfLength, radius);
  c.orientation = orientation;
  return c;
}

Collider Collider::meshShape(std::shared_ptr<const MeshShape> shape, const glm::vec3& center,
                             const glm::quat& orientation) {
  Collider c;
  c.kind = ColliderKind::Mesh;
  c.center = center;
  c.orientation = orientation;
  c.mesh = std::move(shape);
  return c;
}

Collider Collider::meshSequence(std::shared_ptr<const MeshSequence> seq) {
  Collider c;
  c.kind = ColliderKind::Mesh;
  if (seq) {
    auto first = std::make_shared<MeshShape>();
    seq->shapeAt(0.0, *first);
    c.mesh = std::move(first);
  }
  c.sequence = std::move(seq);
  return c;
}

const char* colliderKindName(ColliderKind kind) {
  switch (kind) {
    case ColliderKind::Sphere:
      return "sphere";
    case ColliderKind::Box:
      return "box";
    case ColliderKind::Capsule:
      return "capsule";
    case ColliderKind::Mesh:
      return "mesh";
    case ColliderKind::Plane:
      break;
  }
  return "plane";
}

Pose poseAt(const Collider& c, double t) {
  Pose pose;
  pose.position = c.motion.apply(c.center, t);
  pose.rotation = c.motion.rotationAt(t) * c.orientation;
  return pose;
}

float signedDistance(const Collider& c, const glm::vec3& x, glm::vec3& normal) {
  switch (c.kind) {
    case ColliderKind::Plane:
      normal = glm::vec3(0, 1, 0);
      return x.y;
    case ColliderKind::Sphere: {
      const float len = glm::length(x);
      normal = len > 1e-12f ? x / len : glm::vec3(0, 1, 0);
      return len - c.size.x;
    }
    case ColliderKind::Capsule: {
      const glm::vec3 axisPoint(0.0f, glm::clamp(x.y, -c.size.y, c.size.y), 0.0f);
      const glm::vec3 d = x - axisPoint;
      const float len = glm::length(d);
      normal = len > 1e-12f ? d / len : glm::vec3(1, 0, 0);
      return len - c.size.x;
    }
    case ColliderKind::Box: {
      const glm::vec3 q = glm::abs(x) - c.size;
      const glm::vec3 s(x.x < 0 ? -1.0f : 1.0f, x.y < 0 ? -1.0f : 1.0f, x.z < 0 ? -1.0f : 1.0f);
      if (q.x > 0 || q.y > 0 || q.z > 0) {
        const glm::vec3 out = glm::max(q, glm::vec3(0.0f));
        const float len = glm::length(out);
        normal = s * out / len;
        return len;
      }
      // Inside: the nearest face.
      int axis = 0;
      if (q.y > q[axis]) axis = 1;
      if (q.z > q[axis]) axis = 2;
      normal = glm::vec3(0.0f);
      normal[axis] = s[axis];
      return q[axis];
    }
    case ColliderKind::Mesh:
      if (c.mesh) return c.mesh->distance(x, normal);
      break;
  }
  normal = glm::vec3(0, 1, 0);
  return 1e30f;
}

namespace {

// Where the ray a → b (local frame) that starts outside the inflated surface
// (fa > 0, fb at its end) first meets it, as a fraction of the ray; −1 when
// it does not. f(t), the signed distance along the ray, is linear for a
// plane and the root of a quadratic for a sphere; for the other shapes it is
// convex (the shapes are), so the ray enters iff its minimum is negative, and
// the entry is found by search.
float entryTime(const Collider& c, const glm::vec3& a, const glm::vec3& b, float thickness,
                float fa, float fb, float travel) {
  if (c.kind == ColliderKind::Plane) return fb < 0.0f ? fa / (fa - fb) : -1.0f;
  if (c.kind == ColliderKind::Sphere) {
    // |a + t d|² = r², the smaller root in the form without cancellation,
    // t = (|a|² − r²) / (−a·d + √disc).
    const glm::vec3 d = b - a;
    const float r = c.size.x + thickness;
    const float A = glm::dot(d, d), B = glm::dot(a, d), Cq = glm::dot(a, a) - r * r;
    if (B >= 0.0f && fb >= 0.0f) return -1.0f;  // moving away
    const float disc = B * B - A * Cq;
    if (disc < 0.0f && fb >= 0.0f) return -1.0f;  // passes by
    const float denom = std::sqrt(std::max(disc, 0.0f)) - B;
    if (!(denom > 0.0f)) return fb < 0.0f ? 0.0f : -1.0f;
    const float t = std::max(Cq, 0.0f) / denom;
    return t <= 1.0f ? t : fb < 0.0f ? 1.0f : -1.0f;
  }
  auto f = [&](float t) {
    glm::vec3 n;
    return signedDistance(c, a + (b - a) * t, n) - thickness;
  };
  float tIn = -1.0f;
  if (fb < 0.0f) {
    tIn = 1.0f;
  } else if (0.5f * (fa + fb - travel) < 0.0f) {
    float lo = 0.0f, hi = 1.0f;  // golden-section search for the minimum
    const float g = 0.6180339887f;
    float m1 = hi - g * (hi - lo), m2 = lo + g * (hi - lo);
    float f1 = f(m1), f2 = f(m2);
    for (int i = 0; i < 24 && f1 >= 0.0f && f2 >= 0.0f; ++i) {
      if (f1 < f2) {
        hi = m2;
        m2 = m1;
        f2 = f1;
        m1 = hi - g * (hi - lo);
        f1 = f(m1);
      } else {
        lo = m1;
        m1 = m2;
        f1 = f2;
        m2 = lo + g * (hi - lo);
        f2 = f(m2);
      }
    }
    if (f1 < 0.0f)
      tIn = m1;
    else if (f2 < 0.0f)
      tIn = m2;
  }
  if (!(tIn > 0.0f)) return -1.0f;
  float lo = 0.0f, hi = tIn;  // bisection for the entry point
  for (int i = 0; i < 24; ++i) {
    const float mid = 0.5f * (lo + hi);
    (f(mid) > 0.0f ? lo : hi) = mid;
  }
  return lo;
}

// The contact of the ray a → b (local frame) with a mesh: the plane at
// `thickness` from the surface through the point qLocal, normal nLocal.
// A closed mesh is solid: a ray from outside that crosses the surface meets
// it where it crosses, one that starts inside is pushed out to the nearest
// surface point. An open mesh is a sheet with the thickness on both sides:
// the vertex stays on the side it starts on, and a ray that crosses the sheet
// is stopped where it crosses, however thin the sheet and fast the vertex.
bool meshContact(const MeshShape& m, const glm::vec3& a, const glm::vec3& b, float thickness,
                 float margin, float travel, glm::vec3& qLocal, glm::vec3& nLocal) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const float reach = thickness + margin + travel;
  // The mesh lies in a ball of m.radius: a ray that stays outside that ball
  // grown by the reach meets nothing.
  if (glm::length(a) - m.radius > reach) return false;
  // Slack for rounding in "the ray is shorter than a distance".
  auto shorter = [&](float distance) { return travel * 1.0001f + 1e-7f < distance; };
  ClosestPoint cb;
  if (m.closed) {
    // A ray shorter than b's distance to the surface crosses nothing, so a
    // is on b's side: b's closest point is all the contact needs. One search
    // for a vertex that rests on the surface or moves near it.
    const bool near = m.closest(b, reach, cb);
    if (shorter(near ? std::sqrt(cb.distance2) : reach)) {
      float bound;
      if (!near && (m.side(b, bound) > 0 || (!m.closest(b, bound, cb) && !m.closest(b, kInf, cb))))
        return false;
      return solidContact(m, b, cb, thickness, margin, qLocal, nLocal);
    }
  }
  ClosestPoint ca;
  if (!m.closest(a, reach, ca)) {
    // Far from the surface, but maybe deep inside a closed mesh: unless its
    // grid says the point is outside, the sign needs the closest point,
    // within the distance the grid bounds.
    float bound;
    if (!m.closed || m.side(a, bound) > 0) return false;
    if (!m.closest(a, bound, ca) && !m.closest(a, kInf, ca)) return false;
  }
  const float side = glm::dot(a - ca.point, m.pseudoNormal(ca)) < 0.0f ? -1.0f : 1.0f;
  const bool inside = m.closed && side < 0.0f;
  float tHit;
  std::uint32_t hit;
  // The ray can cross the surface only if it is as long as a's distance to it.
  if (!inside && !shorter(std::sqrt(ca.distance2)) && travel > 0.0f &&
      m.firstHit(a, b, tHit, hit)) {
    // Continuous: the tangent plane of the crossed triangle, on the side the
    // vertex comes from (outside for a solid).
    nLocal = (m.closed ? 1.0f : side) * m.faceNormals[hit];
    qLocal = a + (b - a) * tHit + nLocal * thickness;
    return true;
  }
  // Static: the closest surface point to b, when b is inside or near.
  // The point found for a bounds b's distance (a little over, for rounding):
  // a search within that bound prunes most of the tree.
  const float known = glm::length(b - ca.point) * 1.0001f + 1e-7f;
  if (!m.closest(b, std::min(inside ? kInf : reach, known), cb)) return false;
  if (m.closed) return solidContact(m, b, cb, thickness, margin, qLocal, nLocal);
  const float d = std::sqrt(cb.distance2);
  if (d - thickness >= margin) return false;
  // The normal of the closest feature on the side the vertex came from, not
  // the direction to it: near a rim that direction points round the rim's
  // edge, and its plane would let the solve carry the vertex across the
  // sheet beside it.
  nLocal = side * m.pseudoNormal(cb);
  qLocal = cb.point + nLocal * thickness;
  return true;
}

}  // namespace

bool generateContact(const Collider& c, const Pose& from, const Pose& to, const glm::vec3& x,
                     const glm::vec3& p, float thickness, float margin, Contact& out) {
  // The ray in the collider's frame: start in the old pose, end in the new one.
  const glm::vec3 a = from.toLocal(x);
  const glm::vec3 b = to.toLocal(p);
  const float travel = glm::length(b - a);
  // The constraint through the local point q with normal n, placed at the
  // step's end pose; the surface's own motion over the step goes to friction.
  auto emit = [&](const glm::vec3& qLocal, const glm::vec3& nLocal) {
    out.collider = 0;
    out.q = to.toWorld(qLocal);
    out.n = glm::normalize(to.rotate(nLocal));
    out.surfaceShift = out.q - from.toWorld(qLocal);
    out.approachSpeed = 0.0f;
    out.touched = false;
    return true;
  };
  if (c.kind == ColliderKind::Mesh) {
    glm::vec3 qLocal, nLocal;
    if (!c.mesh || !meshContact(*c.mesh, a, b, thickness, margin, travel, qLocal, nLocal))
      return false;
    return emit(qLocal, nLocal);
  }
  glm::vec3 na, nb;
  // f(t) = distance of a + t(b − a) to the inflated surface; a signed distance
  // is 1-Lipschitz, so f(t) ≥ f(0) − t·travel and ≥ f(1) − (1 − t)·travel.
  const float fa = signedDistance(c, a, na) - thickness;
  if (fa > travel + margin) return false;
  const float fb = signedDistance(c, b, nb) - thickness;

  glm::vec3 qLocal, nLocal;
  const float tEnter = fa > 0.0f ? entryTime(c, a, b, thickness, fa, fb, travel) : -1.0f;
  const bool entered = tEnter >= 0.0f;
  if (entered) {
    // Continuous: constraint on the tangent plane at the entry point.
    qLocal = a + (b - a) * tEnter;
    signedDistance(c, qLocal, nLocal);
  } else if (fa <= 0.0f || fb < margin) {
    // Static fallback (the ray starts inside) or a near contact: the closest
    // point of the inflated surface to p.
    nLocal = nb;
    qLocal = b - nb * fb;
  } else {
    return false;
  }
  return emit(qLocal, nLocal);
}

FarTest farTest(const Collider& c, const Pose& from, const Pose& to) {
  FarTest t;
  if (c.sequence || from.position != to.position || from.rotation != to.rotation) return t;
  t.active = true;
  t.centre = from.position;
  // The shapes' signed distances are at least |local point| − radius: the
  // shape lies in the ball of that radius around its centre.
  switch (c.kind) {
    case ColliderKind::Plane:
      t.plane = true;
      t.normal = from.rotation * glm::vec3(0, 1, 0);
      break;
    case ColliderKind::Sphere:
      t.radius = c.size.x;
      break;
    case ColliderKind::Capsule:
      t.radius = c.size.x + c.size.y;
      break;
    case ColliderKind::Box:
      t.radius = glm::length(c.size);
      break;
    case ColliderKind::Mesh:
      // The mesh, inside and all, lies in the ball of its radius about its
      // local origin.
      if (!c.mesh) t.active = false;
      t.radius = c.mesh ? c.mesh->radius : 0.0f;
      break;
  }
  return t;
}

}  // namespace drape::sim
