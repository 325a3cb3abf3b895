#pragma once
// A simulated world: the cloth's rest data, its per-step state, pins,
// colliders and the parameters. The solver (step.hpp) advances it.

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth.hpp"
#include "sim/collision/colliders.hpp"
#include "sim/collision/feature_contacts.hpp"
#include "sim/collision/self_contact.hpp"
#include "sim/collision/spatial_hash.hpp"
#include "sim/collision/untangle.hpp"
#include "sim/models/mass_spring.hpp"
#include "sim/models/rigid_body.hpp"
#include "sim/models/tet_volume.hpp"
#include "sim/params.hpp"
#include "sim/solve/coloring.hpp"
#include "sim/solve/hierarchy.hpp"

namespace drape::sim {

// Per-step state, one entry per vertex.
struct State {
  std::vector<glm::vec3> x;  // positions
  std::vector<glm::vec3> p;  // predicted positions (solver scratch between steps)
  std::vector<glm::vec3> v;  // velocities
  std::vector<float> w;      // inverse masses; 0 = pinned or grabbed
};

// Predicted positions and inverse masses as a projection sees them: State::p
// and State::w, or the batched solver's buffer of x y z w per vertex.
struct Points {
  float* xyz;
  const float* w;
  std::size_t stride, wStride;  // floats from one vertex to the next
  glm::vec3& p(std::uint32_t i) const { return *reinterpret_cast<glm::vec3*>(xyz + stride * i); }
  float invMass(std::uint32_t i) const { return w[wStride * i]; }
  static Points of(State& s) { return {reinterpret_cast<float*>(s.p.data()), s.w.data(), 3, 1}; }
  static Points ofBuffer(glm::vec4* buffer) {
    float* f = reinterpret_cast<float*>(buffer);
    return {f, f + 3, 4, 4};
  }
};

// Attachment (paper §3.6): the vertex has w = 0 and follows its target
// `motion.apply(anchor, t − start)`; a static pin has a static motion.
struct Pin {
  std::uint32_t vertex;
  glm::vec3 anchor;
  Motion motion;
  double start = 0.0;  // world time at which the motion starts
  glm::vec3 targetAt(double t) const { return motion.apply(anchor, t - start); }
};

// A long-range attachment (tethers.hpp): |p_vertex − p_anchor| ≤ rest.
struct Tether {
  std::uint32_t vertex;
  std::uint32_t anchor;  // a pinned vertex
  float rest;            // m, shortest path along the rest mesh's edges
};

// Tethers as arrays (the batched kernels load eight of each at once), in
// vertex order, one per free vertex at most.
struct Tethers {
  std::vector<std::uint32_t> vertex, anchor;
  std::vector<float> rest;
  std::size_t size() const { return vertex.size(); }
  bool empty() const { return vertex.empty(); }
  void clear() {
    vertex.clear();
    anchor.clear();
    rest.clear();
  }
  void push_back(const Tether& t) {
    vertex.push_back(t.vertex);
    anchor.push_back(t.anchor);
    rest.push_back(t.rest);
  }
  Tether operator[](std::size_t j) const { return {vertex[j], anchor[j], rest[j]}; }
};

// Timings of the last step, in milliseconds, by phase. selfCollision is the
// detection of self contacts (their projection counts in solve; its hash is
// built beside the collider contacts, and its time counted here, not in
// collisions); tear is the search for overstretched edges and the splits.
struct StepTimings {
  double predict = 0, collisions = 0, selfCollision = 0, solve = 0, update = 0, tear = 0, total = 0;
};

// Mass-weighted sums over some of a piece's vertices (damping).
struct PieceSums {
  glm::dvec3 x{0.0}, v{0.0}, L{0.0};  // Σ m x, Σ m v, Σ r × m v
  double mass = 0.0;
  // Σ m (|r|² 1 − r rᵀ), symmetric: xx, yy, zz, then xy, xz, yz.
  double inertia[6] = {};
  PieceSums& operator+=(const PieceSums& o) {
    x += o.x;
    v += o.v;
    L += o.L;
    mass += o.mass;
    for (int k = 0; k < 6; ++k) inertia[k] += o.inertia[k];
    return *this;
  }
};

// Buffers the solver reuses, so a step allocates nothing once warm.
struct SolverScratch {
  // Coloured copies of the cloth's constraints for the batched kernels,
  // remade when the cloth's topology changes.
  PackedStretch packedStretch;
  PackedBend packedBend;
  std::uint64_t packedVersion = UINT64_MAX;
  // Long-range attachments to the pins (tethers.hpp), remade when pins change.
  Tethers tethers;
  std::uint64_t tethersPins = UINT64_MAX, tethersTopology = UINT64_MAX;
  // Coarse levels of the cloth (hierarchy.hpp), remade when the topology,
  // the pins, the grabbed vertex or the level count change.
  Hierarchy hierarchy;
  std::uint64_t hierarchyPins = UINT64_MAX, hierarchyTopology = UINT64_MAX;
  std::uint32_t hierarchyGrab = UINT32_MAX;
  int hierarchyLevels = -1;
  std::vector<float> lambdaStretch, lambdaBend;
  // The batched solver's copy of p and w, x y z w per vertex (kernel_args.hpp).
  std::vector<glm::vec4> solvePoints;
  float lambdaPressure = 0.0f;
  std::vector<glm::vec3> pressureGrad;
  // Each constraint's own k or α̃ where the cloth has materials (cloth.hpp),
  // and the vertices' aerodynamic forces (aerodynamics.hpp).
  std::vector<float> kStretchEach, kBendEach;
  std::vector<glm::vec3> aeroForce;
  // balloon_model=tets: the volume tetrahedra (tet_volume.hpp); solver=mass-spring:
  // the springs (mass_spring.hpp). Each remade when the topology changes.
  TetVolumes tets;
  SpringSet springs;
  std::vector<Contact> contacts;
  std::vector<std::vector<Contact>> contactChunks;  // each chunk's, in vertex order
  std::vector<std::size_t> contactSplit;            // each solver thread's first contact
  // Contacts of the colliders' edges and corners with the cloth's edges,
  // then its triangles, in that order (feature_contacts.hpp).
  std::vector<FeatureContact> featureContacts;
  std::vector<std::vector<FeatureContact>> featureContactChunks;
  std::vector<std::uint32_t> featureColliders;  // those a span of the cloth may meet
  float longestRest = 0.0f;                     // of the cloth's edges, for that choice
  std::uint64_t longestRestTopology = UINT64_MAX;
  // Self collision (self_collision.hpp): this sub-step's vertex–triangle
  // constraints, the hash of the vertices and what building them needs, and
  // for the topology they were made on: the cell size (the mean rest edge),
  // each vertex's neighbours, and each triangle's (its corners and theirs).
  std::vector<SelfContact> selfContacts;
  SpatialHash selfHash;
  std::vector<Aabb> selfBoxes;
  std::vector<float> selfTravel;
  std::vector<std::uint32_t> selfStart, selfAdjStart, selfAdj;
  std::vector<std::uint32_t> selfTriNearStart, selfTriNear;
  std::vector<std::uint8_t> selfTriHub;  // a corner with too many edges to list
  // The batched solver's groups of self contacts (partitionSelfContacts).
  std::vector<std::uint32_t> selfBlockStart;
  std::vector<SelfContact> selfSorted;
  // The constraints of each chunk of triangles (in triangle order); for
  // each detection thread and each triangle of a lookup (two: a quad's), the
  // last triangle that met each vertex; and each detection thread's
  // vertices found by a lookup.
  std::vector<std::vector<SelfContact>> selfChunkPairs;
  std::vector<std::vector<std::uint32_t>> selfThreadSeen, selfThreadFound;
  float selfCell = 0.0f;
  float selfThickness = 0.0f;  // the distance the contacts keep (selfThickness())
  glm::vec3 selfShift{0.0f};   // the cloth's mean motion over the sub-step
  std::uint64_t selfCellVersion = UINT64_MAX;
  std::size_t selfCellEdges = 0;
  // The cloth's crossings of itself at the start of the frame, and the parts
  // they cut off (untangle.hpp).
  Tangles tangles;
  std::vector<Pose> posesFrom, posesTo;
  std::vector<FarTest> farTests;
  // Damping: sums per piece over a chunk of vertices, chunk-major (double:
  // sums over many vertices); then per piece its centre of mass, velocity
  // and angular velocity.
  std::vector<PieceSums> dampSums;
  std::vector<glm::dvec3> pieceX, pieceV, pieceOmega;
};

// Mouse dragging (paper §3.6): while held, the grabbed vertex has w = 0 and
// sits at the target; on release it gets its mass back and the hand's
// velocity, so the cloth can be thrown.
// The hand. An ordinary grab of a free vertex is soft: the vertices within
// kGrabRadius edge lengths of it (the patch) are pulled towards the hand,
// each keeping its offset from the grabbed vertex, at the start of every
// solver iteration, by kGrabPull of the way weighted by (1 − d/R)², and by
// at most kGrabStep edge lengths per iteration; the cloth's own constraints
// come after and have the last word. So the cloth follows the hand as fast as
// a user drags (several metres a second) but gives way where it is taut
// instead of being drawn out into a needle behind one vertex. A tearing
// grab (the Tear tool) and a grab of a pinned vertex are hard: the vertex
// is the hand's (w = 0), so the cloth tears or the pin moves.
constexpr float kGrabRadius = 2.5f;
constexpr float kGrabPull = 1.0f;
constexpr float kGrabStep = 0.3f;

struct Grab {
  bool active = false;
  std::uint32_t vertex = 0;
  glm::vec3 target{0.0f};
  // A tearing grab (the Tear tool): while held, edges tear above this
  // stretch ratio even when params.tear is 0 (off). 0: an ordinary grab.
  float tear = 0.0f;
  bool soft = false;
  std::vector<std::uint32_t> patch;  // soft: the vertices pulled, the grabbed one first
  std::vector<glm::vec3> offset;     // from the grabbed vertex, at the start
  std::vector<float> weight;
  float step = 0.0f;  // m a patch vertex moves at most per iteration
};

struct World {
  Params params;
  Cloth cloth;
  State state;
  std::vector<Pin> pins;
  std::uint64_t pinsVersion = 0;  // bumped whenever pins change
  Grab grab;
  std::vector<Collider> colliders;
  // Rigid bodies and the cloth vertices tied to them (rigid_body.hpp); each
  // body moves the box collider that shows it.
  std::vector<RigidBody> bodies;
  std::vector<BodyAttachment> attachments;
  double time = 0.0;        // s
  std::uint64_t frame = 0;  // frames stepped
  int substepsTaken = 0;    // in the last step (mass-spring may take more than asked)
  StepTimings timings;
  // Self collision in the last step, over its sub-steps: vertex–triangle
  // constraints generated, and how many of them pushed.
  std::size_t selfContacts = 0, selfContactsActive = 0;
  std::uint64_t tornEdges = 0;  // edges split apart by tearing so far (paper §5.4)
  SolverScratch scratch;

  std::size_t vertexCount() const { return state.x.size(); }
};

// A world at rest from a cloth: x = rest positions, v = 0, w = 1/m.
World makeWorld(Cloth cloth, const Params& params);

// Inverse masses from the cloth's masses, then w = 0 for every pinned vertex.
void refreshInverseMasses(World& world);

// Grab a vertex, move the hand, let go (see Grab). A hard grab's vertex
// stops responding to forces and leaves with `velocity`; grabbing a pinned
// vertex moves the pin's anchor. `tear` > 0: a tearing grab (Grab::tear).
void startGrab(World& world, std::uint32_t vertex, float tear = 0.0f);
void moveGrab(World& world, const glm::vec3& target);
void endGrab(World& world, const glm::vec3& velocity);
// One soft-grab pull of the patch (once per solver iteration).
void pullGrabPatch(const Points& points, const Grab& grab);

// Pin a vertex where it is now (static); replaces an existing pin on it.
void pinVertex(World& world, std::uint32_t vertex, const Motion& motion = {});
void unpinVertex(World& world, std::uint32_t vertex);
// Remove every pin (linear in the pins).
void unpinAll(World& world);
bool isPinned(const World& world, std::uint32_t vertex);

}  // namespace drape::sim
