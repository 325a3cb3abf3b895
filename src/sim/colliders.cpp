#include "sim/colliders.hpp"

#include <algorithm>
#include <cmath>

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
  c.orientation = glm::rotation(glm::vec3(0, 1, 0), glm::normalize(normal));
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
  }
  normal = glm::vec3(0, 1, 0);
  return 1e30f;
}

bool generateContact(const Collider& c, const Pose& from, const Pose& to, const glm::vec3& x,
                     const glm::vec3& p, float thickness, float margin, Contact& out) {
  // The ray in the collider's frame: start in the old pose, end in the new one.
  const glm::vec3 a = from.toLocal(x);
  const glm::vec3 b = to.toLocal(p);
  glm::vec3 nb;
  const float db = signedDistance(c, b, nb) - thickness;
  if (db >= margin) return false;

  glm::vec3 na;
  const float da = signedDistance(c, a, na) - thickness;
  glm::vec3 qLocal, nLocal;
  if (da > 0.0f && db < 0.0f) {
    // Continuous: the ray enters the inflated shape; find the entry point by
    // bisection on the signed distance (the shapes are convex).
    float lo = 0.0f, hi = 1.0f;
    for (int i = 0; i < 24; ++i) {
      const float mid = 0.5f * (lo + hi);
      glm::vec3 nm;
      if (signedDistance(c, a + (b - a) * mid, nm) - thickness > 0.0f)
        lo = mid;
      else
        hi = mid;
    }
    const glm::vec3 hit = a + (b - a) * lo;
    signedDistance(c, hit, nLocal);
    qLocal = hit;
  } else {
    // Static fallback (or a near contact): closest point of the inflated surface to p.
    nLocal = nb;
    qLocal = b - nb * db;
  }
  out.collider = 0;
  out.q = to.toWorld(qLocal);
  out.n = glm::normalize(to.rotation * nLocal);
  out.surfaceShift = out.q - from.toWorld(qLocal);
  out.approachSpeed = 0.0f;
  out.touched = false;
  return true;
}

}  // namespace drape::sim
