#pragma once
// The self-collision constraint of PBD §4.3 as pure math, the record the
// solver keeps for each one, and its projection. Detection lives in
// self_collision.hpp.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <glm/glm.hpp>

#include "sim/constraints.hpp"
#include "sim/state.hpp"

namespace drape::sim {

// Vertex q kept on the front of triangle (p1, p2, p3) by the thickness h:
//
//   C(q, p1, p2, p3) = (q − p1) · n − h ≥ 0,   n = (p2 − p1) × (p3 − p1) / |…|
//
// (paper eq. 11; eq. 12, for a vertex that came from the back, is the same
// with p2 and p3 swapped). Gradients, in the order q, p1, p2, p3:
//
//   ∇q C  = n
//   ∇p2 C = e2 × d⊥ / |N|,  ∇p3 C = d⊥ × e1 / |N|,  ∇p1 C = −(∇q + ∇p2 + ∇p3)
//
// with e1 = p2 − p1, e2 = p3 − p1, N = e1 × e2 and d⊥ the part of q − p1 in
// the triangle's plane. Each triangle gradient is −b_i n, b_i the barycentric
// coordinate of q's projection: all four are parallel to n and sum to zero,
// so the projection keeps linear and angular momentum.
template <typename T>
ConstraintEval<4, T> evalVertexTriangle(const glm::vec<3, T>& q, const glm::vec<3, T>& p1,
                                        const glm::vec<3, T>& p2, const glm::vec<3, T>& p3, T h) {
  ConstraintEval<4, T> e;
  const glm::vec<3, T> e1 = p2 - p1, e2 = p3 - p1;
  const glm::vec<3, T> N = glm::cross(e1, e2);
  const T area2 = glm::length(N);
  // Skip slivers: twice the area tiny against the longest edge squared.
  const T longest =
      std::max(glm::dot(e1, e1), std::max(glm::dot(e2, e2), glm::dot(p3 - p2, p3 - p2)));
  if (!(area2 > T(1e-6) * longest) || !(longest > T(0))) return e;
  const glm::vec<3, T> n = N / area2;
  const glm::vec<3, T> d = q - p1;
  const T dn = glm::dot(d, n);
  const glm::vec<3, T> dPerp = (d - dn * n) / area2;
  e.C = dn - h;
  e.grad[0] = n;
  e.grad[2] = glm::cross(e2, dPerp);
  e.grad[3] = glm::cross(dPerp, e1);
  e.grad[1] = -(e.grad[0] + e.grad[2] + e.grad[3]);
  e.valid = true;
  return e;
}

// One vertex–triangle constraint of a step: v[0] the vertex, v[1..3] the
// triangle ordered so that its normal points to the side the vertex came from.
struct SelfContact {
  std::uint32_t v[4];
  bool touched;  // the constraint acted during this step
  // The most of C's violation one projection corrects (m): the thickness
  // plus how far the vertex came towards the triangle's plane over the step
  // (solveSelfContacts).
  float deepest = std::numeric_limits<float>::infinity();
};

struct Points;

// Project the constraints on the predicted positions: stiffness 1, mass
// weighted (paper §3.3), so the four vertices move and momentum is kept;
// each projection corrects at most the contact's `deepest` of its violation.
void solveSelfContacts(const Points& pts, SelfContact* contacts, std::size_t count,
                       float thickness);

// For the batched solver's threads: reorder `contacts` into kSelfBlocks
// groups, each of the constraints whose four vertices all lie in one block
// of vertex indices (a quarter of them), and a last group of the rest, each
// group in the old order. Groups 0 … kSelfBlocks − 1 share no vertex, so
// they can be projected side by side; the rest after them. Group g is
// [blocks.start[g], blocks.start[g + 1]). The same for any thread count.
constexpr std::size_t kSelfBlocks = 4;
struct SelfContactBlocks {
  std::vector<std::uint32_t> start;
  std::vector<SelfContact> sorted;  // scratch
  std::vector<std::uint8_t> group;  // scratch: each contact's
};
void partitionSelfContacts(std::vector<SelfContact>& contacts, std::size_t vertexCount,
                           SelfContactBlocks& blocks);

}  // namespace drape::sim
