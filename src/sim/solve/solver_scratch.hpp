#pragma once
// What the solver derives from the rest data and reuses between steps, so a
// step allocates nothing once warm: packed constraints, tethers, coarse
// levels, multipliers, contacts, self-collision hashes, tangles, damping
// sums. Owned by the world (World::scratch) and copied with it; only the
// solver's own files and tests look inside.

#include <cstdint>
#include <limits>
#include <vector>

#include <glm/glm.hpp>

#include "sim/collision/feature_contacts.hpp"
#include "sim/models/mass_spring.hpp"
#include "sim/models/tet_volume.hpp"
#include "sim/models/vertex_block_descent.hpp"
#include "sim/self/self_contact.hpp"
#include "sim/self/spatial_hash.hpp"
#include "sim/self/untangle.hpp"
#include "sim/solve/coloring.hpp"
#include "sim/solve/damping.hpp"
#include "sim/solve/fold_limits.hpp"
#include "sim/solve/hierarchy.hpp"
#include "sim/solve/newton_step.hpp"
#include "sim/solve/tethers.hpp"
#include "sim/world.hpp"

namespace drape::sim {

class ThreadTeam;

// Buffers the solver reuses, so a step allocates nothing once warm.
struct SolverScratch {
  // The team handed in by the caller (setSolverTeam); null: the process's.
  ThreadTeam* team = nullptr;
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
  // XPBD's Newton step after the iterations (newton_step.hpp).
  NewtonScratch newton;
  // Vertex Block Descent (vertex_block_descent.hpp): the vertices by colour
  // and their constraints, and the sub-step's inertial targets y.
  VbdTopology vbd;
  std::vector<glm::vec4> vbdTarget;
  // The batched solver's copy of p and w, x y z w per vertex (kernel_args.hpp).
  std::vector<glm::vec4> solvePoints;
  // Chebyshev acceleration (chebyshev.hpp): ω per iteration, the iterates
  // x^{k−1} and x^k, and XPBD's multipliers at both (stretch, then bending).
  std::vector<float> chebyshevOmega;
  std::vector<glm::vec4> chebyshevOlder, chebyshevLast;
  std::vector<float> chebyshevLambdaOlder, chebyshevLambdaLast;
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
  FoldLimits foldLimits;  // the hinges near the bound of their fold (fold_limits.hpp)
  // The topology on which the lookups gave up as too dense (a fan's hub):
  // self collision is off for it.
  std::uint64_t selfTooDenseTopology = UINT64_MAX;
  SpatialHash selfHash;
  std::vector<Aabb> selfBoxes;
  std::vector<float> selfTravel;
  std::vector<glm::vec3> selfMotion;       // each vertex's p − x in the sub-step
  std::vector<glm::dvec3> selfMotionSums;  // its sums by chunk of vertices
  // The vertices' mean travel against their neighbours in the last sub-step
  // with self contacts (prepareSelfContacts), by chunk of vertices and in all.
  std::vector<double> selfTravelSums;
  float selfTravelMean = std::numeric_limits<float>::infinity();
  // Per vertex, 1 for a corner of a known crossing (markCrossingVertices),
  // once a sub-step: the fold limits leave them out, their collider contacts
  // reach further.
  std::vector<std::uint8_t> crossingVertices;
  std::vector<std::uint32_t> selfStart, selfAdjStart, selfAdj;
  std::vector<std::uint32_t> selfTriNearStart, selfTriNear;
  std::vector<std::uint8_t> selfTriHub;  // a corner with too many edges to list
  // Per triangle t that shares an edge with t + 1, the vertices either of
  // the two skips, each once as 4 v + 1 (t skips it) + 2 (t + 1 does)
  // (CSR; an empty range for the others): what a lookup of the pair marks.
  std::vector<std::uint32_t> selfPairNearStart, selfPairNear;
  // A span's search for self contacts (step_contacts.hpp): the positions
  // it sweeps to, while they are swapped into State::p, and whether it
  // found there was anything to look for.
  std::vector<glm::vec3> selfAhead;
  bool selfSearched = false;
  // The triangles whose lookups may find a contact (1; empty: all), the
  // vertices they may find (1), and the cone walk that chose them; each leaf
  // of the tree's vertices (CSR), for the tree's topology selfLeafTopology.
  std::vector<std::uint8_t> selfExposed, selfExposedVertices;
  ConeSearch selfCones;
  std::vector<std::uint32_t> selfLeafStart, selfLeafVertices;
  std::uint64_t selfLeafTopology = UINT64_MAX;
  int selfConeRest = 0;     // sub-steps left without a walk
  int selfConeGiveUps = 0;  // walks in a row that gave up
  // The batched solver's groups of self contacts (partitionSelfContacts),
  // and its scratch: the contacts reordered, each one's group.
  std::vector<std::uint32_t> selfBlockStart;
  std::vector<SelfContact> selfSorted;
  std::vector<std::uint8_t> selfGroup;
  // The constraints of each chunk of triangles (in triangle order); for
  // each detection thread, the last lookup that met each vertex and which
  // of its triangles skip it (self_collision.cpp), the vertices a lookup
  // found, and for each triangle of a lookup (two: a quad's) those it keeps.
  std::vector<std::vector<SelfContact>> selfChunkPairs;
  std::vector<std::vector<std::uint32_t>> selfThreadSeen, selfThreadFound, selfThreadKept;
  float selfCell = 0.0f;
  float selfThickness = 0.0f;      // the distance the contacts keep (selfThickness())
  float selfDepenetration = 0.0f;  // the most a contact moves out beyond its approach
  glm::vec3 selfShift{0.0f};       // the cloth's mean motion over the sub-step
  std::uint64_t selfCellVersion = UINT64_MAX;
  std::size_t selfCellEdges = 0;
  // The cloth's crossings of itself at the start of the frame, and the parts
  // they cut off (untangle.hpp).
  Tangles tangles;
  // How many times `substeps` the frames take while crossings are known,
  // the frames since the last that started with any, and since a search
  // last found one that was not known before (step.cpp).
  int crossingFactor = 1, framesUncrossed = 0, framesWithoutFresh = 0;
  std::vector<Pose> posesFrom, posesTo;
  std::vector<FarTest> farTests;
  // Damping: sums per piece over a chunk of vertices, chunk-major (double:
  // sums over many vertices); then per piece its centre of mass, velocity
  // and angular velocity.
  std::vector<PieceSums> dampSums;
  std::vector<glm::dvec3> pieceX, pieceV, pieceOmega;
};

}  // namespace drape::sim
