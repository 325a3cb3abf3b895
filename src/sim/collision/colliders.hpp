#pragma once
// Rigid colliders (paper §3.4): plane, sphere, box, capsule and triangle
// mesh, each static or kinematic. Shapes are described in a local frame and
// placed by a pose that a Motion moves over time.

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "sim/collision/mesh_sequence.hpp"
#include "sim/collision/mesh_shape.hpp"

namespace drape::sim {

// Prescribed motion of a kinematic object (a collider or a pin target):
// rotation about `pivot` at `angularVelocity` (rad/s, axis × rate), then a
// translation `velocity`·t + `amplitude`·sin(2π·frequency·t).
struct Motion {
  glm::vec3 velocity{0.0f};
  glm::vec3 angularVelocity{0.0f};
  glm::vec3 pivot{0.0f};
  glm::vec3 amplitude{0.0f};
  float frequency = 0.0f;  // Hz

  bool isStatic() const;
  glm::quat rotationAt(double t) const;
  // Where a point that sat at `rest` at t = 0 is at time t.
  glm::vec3 apply(const glm::vec3& rest, double t) const;
};

enum class ColliderKind : std::uint8_t { Plane, Sphere, Box, Capsule, Mesh };

struct Collider {
  ColliderKind kind = ColliderKind::Plane;
  // Pose at t = 0. Plane: a point on it and the normal = orientation's +y.
  // Sphere: centre. Box: centre. Capsule: centre, axis = orientation's +y.
  glm::vec3 center{0.0f};
  glm::quat orientation{1.0f, 0.0f, 0.0f, 0.0f};
  // Sphere: radius = size.x. Box: half extents. Capsule: radius = size.x,
  // half length of the axis segment = size.y. Plane, mesh: unused.
  glm::vec3 size{0.0f};
  Motion motion;
  // Mesh: the surface in the local frame, shared by every copy of the
  // collider (a world rolled back or rebuilt keeps the same shape).
  std::shared_ptr<const MeshShape> mesh;
  // A deforming mesh: its surface over time in world coordinates (centre at
  // the origin, no rotation, no motion). `mesh` is then its first frame,
  // for what draws or names the collider without a time.
  std::shared_ptr<const MeshSequence> sequence;

  static Collider plane(const glm::vec3& point, const glm::vec3& normal);
  static Collider sphere(const glm::vec3& center, float radius);
  static Collider box(const glm::vec3& center, const glm::vec3& halfExtents,
                      const glm::quat& orientation = glm::quat(1, 0, 0, 0));
  static Collider capsule(const glm::vec3& center, float radius, float halfLength,
                          const glm::quat& orientation = glm::quat(1, 0, 0, 0));
  // Local origin at `center`: the shape's vertices are offsets from it.
  static Collider meshShape(std::shared_ptr<const MeshShape> shape, const glm::vec3& center,
                            const glm::quat& orientation = glm::quat(1, 0, 0, 0));
  static Collider meshSequence(std::shared_ptr<const MeshSequence> seq);
};

// The shape's name in scene files and the interface: "plane", "sphere",
// "box", "capsule", "mesh".
const char* colliderKindName(ColliderKind kind);

// World pose of a collider at time t.
struct Pose {
  glm::vec3 position{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  // Every free vertex meets every shape through these twice a sub-step;
  // most shapes are not turned, and the identity is then skipped (it
  // changes nothing but the sign of a zero).
  bool unrotated() const {
    return rotation.w == 1.0f && rotation.x == 0.0f && rotation.y == 0.0f && rotation.z == 0.0f;
  }
  glm::vec3 rotate(const glm::vec3& v) const { return unrotated() ? v : rotation * v; }
  glm::vec3 toLocal(const glm::vec3& world) const {
    const glm::vec3 d = world - position;
    return unrotated() ? d : glm::conjugate(rotation) * d;
  }
  glm::vec3 toWorld(const glm::vec3& local) const { return position + rotate(local); }
};
Pose poseAt(const Collider& c, double t);

// Signed distance of a local-frame point to the shape's surface (negative
// inside), with the outward unit normal at the closest surface point. An
// open mesh has no inside: its distance is never negative, and the normal
// points from the surface to the point.
float signedDistance(const Collider& c, const glm::vec3& local, glm::vec3& normal);

// A collision constraint (paper §3.4): C(p) = (p − q)·n ≥ 0, q on the surface
// inflated by the thickness. Generated once per (sub)step.
struct Contact {
  std::uint32_t vertex;
  std::uint32_t collider;
  glm::vec3 q;             // world point on the inflated surface (new pose)
  glm::vec3 n;             // world outward normal
  glm::vec3 surfaceShift;  // displacement of the surface point over the step (friction)
  float approachSpeed;     // pre-solve relative normal velocity (negative: approaching)
  bool touched;            // the constraint acted during this step
};

// Test the ray x→p of one vertex against one collider whose pose moves from
// `from` (at the start of the step) to `to` (at its end). Continuous test with
// a static fallback for rays that start inside. Returns true and fills `out`
// when the vertex needs a contact constraint this step (C may still be ≥ 0 at
// the start: the constraint then acts only if the solve pushes it in).
bool generateContact(const Collider& c, const Pose& from, const Pose& to, const glm::vec3& x,
                     const glm::vec3& p, float thickness, float margin, Contact& out);

// A quick first test for a collider that does not move over the step: far()
// is true only where generateContact would return false, from bounds that
// need no rotation (the distance to a plane along its normal; for the other
// shapes, the distance to the centre less the radius of a ball around the
// shape). A cloth has most of its vertices far from each collider, and this
// skips the rotations and the shape's distance for them. Never true for a
// collider that moves, nor for a non-finite position.
struct FarTest {
  bool active = false, plane = false;
  glm::vec3 centre{0.0f}, normal{0.0f};
  float radius = 0.0f;
  // `move` = |p − x|.
  bool far(const glm::vec3& x, float move, float thickness, float margin) const {
    if (!active) return false;
    const glm::vec3 d = x - centre;
    const float distance = plane ? glm::dot(d, normal) : glm::length(d) - radius;
    // Far above the rounding of either way of computing the distance and
    // the travel (a few ulp of the coordinates).
    const float slack =
        1e-5f * (1.0f + std::abs(d.x) + std::abs(d.y) + std::abs(d.z) + radius + move);
    return distance - thickness - slack > move + margin + slack;
  }
};
FarTest farTest(const Collider& c, const Pose& from, const Pose& to);

}  // namespace drape::sim
