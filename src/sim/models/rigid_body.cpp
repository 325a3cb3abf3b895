#include "sim/models/rigid_body.hpp"

#include <cmath>

#include "sim/state.hpp"

namespace drape::sim {

glm::vec3 RigidBody::applyInverseInertia(const glm::vec3& a) const {
  // I_world⁻¹ a = R I_body⁻¹ Rᵀ a.
  const glm::vec3 local = glm::conjugate(q) * a;
  return q * (local / inertia);
}

RigidBody makeBoxBody(const glm::vec3& center, const glm::vec3& halfExtents, float mass,
                      const glm::quat& orientation) {
  RigidBody b;
  b.mass = mass;
  b.halfExtents = halfExtents;
  // Solid box of sides 2a, 2b, 2c: I_x = m (b² + c²) / 3, and so on.
  const glm::vec3 e2 = halfExtents * halfExtents;
  b.inertia = (mass / 3.0f) * glm::vec3(e2.y + e2.z, e2.x + e2.z, e2.x + e2.y);
  b.x = b.xPrev = center;
  b.q = b.qPrev = orientation;
  return b;
}

float kineticEnergy(const RigidBody& b) {
  const glm::vec3 wb = glm::conjugate(b.q) * b.omega;
  return 0.5f * b.mass * glm::dot(b.v, b.v) + 0.5f * glm::dot(wb, b.inertia * wb);
}

glm::vec3 linearMomentum(const RigidBody& b) {
  return b.mass * b.v;
}

glm::vec3 angularMomentum(const RigidBody& b) {
  const glm::vec3 wb = glm::conjugate(b.q) * b.omega;
  return glm::cross(b.x, b.mass * b.v) + b.q * (b.inertia * wb);
}

void predictBodies(std::vector<RigidBody>& bodies, const glm::vec3& gravity, float h) {
  for (RigidBody& b : bodies) {
    b.xPrev = b.x;
    b.qPrev = b.q;
    b.v += h * gravity;
    b.dx = h * b.v;
    b.x = b.xPrev + b.dx;
    // Euler's equations in body axes, explicit: ω += h I⁻¹ (−ω × I ω), no
    // external torque (gravity acts at the centre of mass).
    glm::vec3 wb = glm::conjugate(b.q) * b.omega;
    wb += h * (-glm::cross(wb, b.inertia * wb) / b.inertia);
    b.omega = b.q * wb;
    // q += ½ h (ω, 0) q, renormalised.
    b.q = glm::normalize(b.q + (0.5f * h) * (glm::quat(0.0f, b.omega) * b.q));
  }
}

void solveBodyAttachments(State& s, std::vector<RigidBody>& bodies,
                          const std::vector<BodyAttachment>& attachments) {
  for (const BodyAttachment& a : attachments) {
    RigidBody& b = bodies[a.body];
    const glm::vec3 r = b.q * a.local;
    glm::vec3& p = s.p[a.vertex];
    const glm::vec3 d = p - (b.xPrev + b.dx + r);
    const float C = glm::length(d);
    if (!(C > 1e-9f)) continue;
    const glm::vec3 n = d / C;
    const glm::vec3 rn = glm::cross(r, n);
    const float wBody = 1.0f / b.mass + glm::dot(rn, b.applyInverseInertia(rn));
    const float wVertex = s.w[a.vertex];
    const float dl = -C / (wVertex + wBody);
    p += (wVertex * dl) * n;
    const glm::vec3 impulse = -dl * n;  // positional impulse on the body, N·s·s
    b.dx += impulse / b.mass;
    const glm::vec3 turn = b.applyInverseInertia(glm::cross(r, impulse));
    b.q = glm::normalize(b.q + 0.5f * (glm::quat(0.0f, turn) * b.q));
  }
}

void updateBodies(std::vector<RigidBody>& bodies, std::vector<Collider>& colliders, float h) {
  const float invH = 1.0f / h;
  for (RigidBody& b : bodies) {
    b.v = b.dx * invH;
    b.x = b.xPrev + b.dx;
    // ω from the rotation over the step: Δq = q q_prev⁻¹ ≈ (½ h ω, 1);
    // the shorter way round.
    const glm::quat dq = b.q * glm::conjugate(b.qPrev);
    const glm::vec3 axis(dq.x, dq.y, dq.z);
    b.omega = (dq.w >= 0.0f ? 2.0f : -2.0f) * invH * axis;
  }
  syncBodyColliders(bodies, colliders);
}

void syncBodyColliders(const std::vector<RigidBody>& bodies, std::vector<Collider>& colliders) {
  for (const RigidBody& b : bodies) {
    if (b.collider >= colliders.size()) continue;
    Collider& c = colliders[b.collider];
    c.center = b.x;
    c.orientation = b.q;
    c.motion = Motion{};
  }
}

}  // namespace drape::sim
