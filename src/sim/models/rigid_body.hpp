#pragma once
// Rigid bodies coupled two ways to the cloth (paper §4.2 and Fig. 8):
// solid boxes integrated in the same position-based loop as the cloth
// (Müller et al. 2020, "Detailed rigid body simulation with extended position
// based dynamics", §3.3–3.5), and attachments that tie a cloth vertex to a
// point fixed on a body.
//
// An attachment C = |p − (x + R r)| = 0 is projected with stiffness 1 on both
// sides. Along the unit direction n from the body point to the vertex the
// body answers with the generalised inverse mass
//
//   w_body = 1/m + (r × n)ᵀ I⁻¹ (r × n)        (r, I in world axes),
//
// and the correction Δλ = −C / (w_vertex + w_body) moves the vertex by
// w_vertex Δλ n and applies the positional impulse P = −Δλ n to the body at
// its point: Δx = P/m, Δq = ½ (I⁻¹ (r × P), 0) q. The impulses are equal and
// opposite, so an attachment keeps linear and angular momentum. After the
// solve the body's velocities follow from its change of pose over the step,
// as the cloth's do.
//
// Each body shows itself as a box Collider (index `collider`) whose pose the
// solver sets after every sub-step: the renderer draws it and the cloth
// collides with it (one way: contacts push the cloth, not the body).

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "sim/collision/colliders.hpp"

namespace drape::sim {

struct State;

struct RigidBody {
  float mass = 1.0f;            // kg
  glm::vec3 halfExtents{0.1f};  // m, of the box
  glm::vec3 inertia{1.0f};      // kg m², principal moments (body axes)
  glm::vec3 x{0.0f};            // centre of mass, m
  glm::quat q{1, 0, 0, 0};      // orientation, body → world
  glm::vec3 v{0.0f};            // m/s
  glm::vec3 omega{0.0f};        // rad/s, world axes
  glm::vec3 xPrev{0.0f};        // pose at the start of the sub-step
  // Displacement over the sub-step, x = xPrev + dx. Kept apart because a
  // heavy body's corrections are far below the rounding of its position:
  // summed into x directly they would be rounded away (and momentum with them).
  glm::vec3 dx{0.0f};
  glm::quat qPrev{1, 0, 0, 0};
  std::uint32_t collider = UINT32_MAX;  // the box Collider showing the body

  glm::vec3 toWorld(const glm::vec3& local) const { return x + q * local; }
  // I⁻¹ in world axes applied to a vector.
  glm::vec3 applyInverseInertia(const glm::vec3& a) const;
};

// A solid box of uniform density (inertia of a box about its centre).
RigidBody makeBoxBody(const glm::vec3& center, const glm::vec3& halfExtents, float mass,
                      const glm::quat& orientation = glm::quat(1, 0, 0, 0));

// Cloth vertex `vertex` tied to the point `local` (body axes) of body `body`.
struct BodyAttachment {
  std::uint32_t vertex;
  std::uint32_t body;
  glm::vec3 local;
};

// Kinetic energy ½ m v² + ½ ωᵀ I ω, and linear and angular momentum (about
// the origin) of a body.
float kineticEnergy(const RigidBody& b);
glm::vec3 linearMomentum(const RigidBody& b);
glm::vec3 angularMomentum(const RigidBody& b);

// Sub-step phases, called by step(): predict (gravity, gyroscopic term,
// explicit integration of the pose), project the attachments (every
// iteration), and derive velocities from the change of pose, then move each
// body's collider to the new pose.
void predictBodies(std::vector<RigidBody>& bodies, const glm::vec3& gravity, float h);
void solveBodyAttachments(State& s, std::vector<RigidBody>& bodies,
                          const std::vector<BodyAttachment>& attachments);
void updateBodies(std::vector<RigidBody>& bodies, std::vector<Collider>& colliders, float h);
// Set each body's collider to the body's pose (static motion).
void syncBodyColliders(const std::vector<RigidBody>& bodies, std::vector<Collider>& colliders);

}  // namespace drape::sim
