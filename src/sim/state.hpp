#pragma once
// The cloth's per-step state, and the view a projection has of it.

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace drape::sim {

// Per-step state, one entry per vertex.
struct State {
  std::vector<glm::vec3> x;  // positions
  std::vector<glm::vec3> p;  // predicted positions (solver scratch between steps)
  std::vector<glm::vec3> v;  // velocities
  std::vector<float> w;      // inverse masses; 0 = pinned or grabbed
};

// Predicted positions and inverse masses as a projection sees them: State::p
// and State::w, or the batched solver's buffer of x y z w per vertex, whose
// positions are relative to `origin` (near the cloth: a correction far
// smaller than the cloth's distance from the world's origin is rounded as
// it would be at the origin, not away). A projection between points uses
// p(); one against the world (a collider, the hand) uses world().
struct Points {
  float* xyz;
  const float* w;
  std::size_t stride, wStride;  // floats from one vertex to the next
  glm::vec3 origin = glm::vec3(0.0f);
  glm::vec3& p(std::uint32_t i) const { return *reinterpret_cast<glm::vec3*>(xyz + stride * i); }
  glm::vec3 world(std::uint32_t i) const { return p(i) + origin; }
  float invMass(std::uint32_t i) const { return w[wStride * i]; }
  static Points of(State& s) { return {reinterpret_cast<float*>(s.p.data()), s.w.data(), 3, 1}; }
  static Points ofBuffer(glm::vec4* buffer, const glm::vec3& origin) {
    float* f = reinterpret_cast<float*>(buffer);
    return {f, f + 3, 4, 4, origin};
  }
};

}  // namespace drape::sim
