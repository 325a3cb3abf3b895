#pragma once
// The cloth's contacts with the colliders in one sub-step (paper §3.4):
// found once before the iterations for the motion x → p, projected in
// every iteration. A vertex meets each collider's surface; the colliders'
// edges and corners meet the cloth's edges and triangles between its
// vertices (feature_contacts.hpp).
//
// The search is split in jobs (chunks of vertices, then of edges and
// triangles) so that a step can run them on its threads beside work of its
// own: beginColliderContacts, findColliderContacts for each job on any
// thread, joinColliderContacts. The contacts come out in vertex order (then
// edge and triangle order) on any thread count.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/cloth.hpp"
#include "sim/collision/colliders.hpp"
#include "sim/collision/feature_contacts.hpp"
#include "sim/state.hpp"

namespace drape::sim {

// What one search reads.
struct ColliderSearch {
  const Cloth& cloth;
  const State& state;  // x → p, the motion searched; v for the approach speed
  const std::vector<Collider>& colliders;
  float thickness;
  double t0;  // the sub-step's start (s)
  float h;    // its length (s)
  // Per vertex, 1 for a corner of a known crossing (empty: none); their
  // contacts reach `untangleReach` further, beyond a collider with a far
  // side, for the untangling's moves.
  const std::vector<std::uint8_t>& crossingVertices;
  float untangleReach;
  // Per collider, 1 where one search serves `span` sub-steps (a still
  // analytic shape: its tangent planes hold while the cloth moves a few
  // millimetres); empty: none. Their contacts are looked for along the
  // motion carried on over the span, x + span (p − x), where `spanStart`,
  // and kept (their approach refreshed each sub-step) until the next start.
  const std::vector<std::uint8_t>& spanned;
  int span;
  bool spanStart;
};

struct ColliderContacts {
  std::vector<Contact> contacts;  // in vertex order, then collider order
  // The colliders' edges and corners against the cloth's edges, then its
  // triangles, in that order.
  std::vector<FeatureContact> features;
  // The search's buffers: each job's contacts, the colliders' poses at the
  // sub-step's ends and their far tests, the colliders a span of the cloth
  // may meet with its features, the cloth's longest rest edge (for that
  // choice, for the topology longestTopology) and the fastest vertex's
  // travel (for open meshes).
  std::vector<std::vector<Contact>> vertexChunks;
  std::vector<std::vector<FeatureContact>> featureChunks;
  std::vector<Pose> from, to;
  std::vector<FarTest> far;
  std::vector<std::uint32_t> featureColliders;
  float longestRest = 0.0f;
  std::uint64_t longestTopology = UINT64_MAX;
  float fastest = 0.0f;
  std::size_t vertexJobs = 0, edgeJobs = 0, featureJobs = 0;
  // Deforming colliders' surfaces at the sub-step's ends, by collider (left
  // empty for the others), and the most a point of each moves between them.
  // The end's surface is the next sub-step's start.
  struct Deforming {
    const MeshSequence* sequence = nullptr;
    double fromTime = -1.0, toTime = -1.0;
    MeshShape from, to;
    float travel = 0.0f;
  };
  std::vector<Deforming> deforming;
  std::vector<Contact> merged;  // the join's buffer within a span
  // Each solver thread's first contact (the batched solve splits them where
  // the vertex changes).
  std::vector<std::size_t> split;
};

// Sets up a search; returns its number of jobs.
std::size_t beginColliderContacts(ColliderContacts& out, const ColliderSearch& in);
// Job `job` of the search (each on its own; any thread).
void findColliderContacts(ColliderContacts& out, const ColliderSearch& in, std::size_t job);
// The jobs' contacts joined in order.
void joinColliderContacts(ColliderContacts& out, const ColliderSearch& in);

// Collider contacts (paper §3.4) with position-level friction against the
// motion from x. Each moves only its own vertex.
void solveContacts(const Points& pts, const glm::vec3* x, Contact* contacts, std::size_t count,
                   float friction);
// The colliders' features against the cloth between its vertices, with
// friction as at a vertex's contact: each moves two or three vertices, so
// they are projected on one thread, in order.
void solveFeatureContacts(const Points& pts, const glm::vec3* x, const FeatureContact* contacts,
                          std::size_t count, float friction);

}  // namespace drape::sim
