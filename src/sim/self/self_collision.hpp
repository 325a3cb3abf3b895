#pragma once
// Self collision (paper §4.3): vertex–triangle constraints found
// with a spatial hash over the triangles' motion in a sub-step, generated once
// before the solver iterations (like collider contacts) and projected in
// every iteration. And a count of the mesh's edge–triangle crossings, to
// measure how well that works.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "sim/cloth.hpp"
#include "sim/self/cone_tree.hpp"
#include "sim/self/self_contact.hpp"
#include "sim/self/spatial_hash.hpp"
#include "sim/state.hpp"
#include "sim/tuning.hpp"

namespace drape::sim {

struct RestCrossings;

struct Tangles;
class ThreadTeam;

// What the self-contact search has learnt that changes later searches:
// named state (World::solver), copied with the world.
struct SelfSearchState {
  // The vertices' mean travel against their neighbours in the last
  // sub-step searched (a sub-step's share of a span's): how calm the cloth is.
  float travelMean = std::numeric_limits<float>::infinity();
  // The cone walk's rest (searches left without a walk) and the walks in a
  // row that gave up (self_cones.hpp).
  int coneRest = 0, coneGiveUps = 0;
  // The topology on which the lookups gave up as too dense (a fan's hub):
  // self collision is off for it.
  std::uint64_t tooDenseTopology = UINT64_MAX;
};

// What one search reads.
struct SelfSearch {
  const Cloth& cloth;
  const State& state;  // x → p, the motion searched
  float thickness;     // Params::thickness (selfThickness() applies)
  // The frame's sub-steps and the scene's own: the depenetration allowed.
  int substeps, ownSubsteps;
  const Tangles& tangles;  // the crossings' regions, and their cone tree
  bool tree;               // whether tangles.cones is built for this topology
  // Pieces crossing at rest keep no contacts with each other (rest_crossings.hpp).
  const RestCrossings* rest = nullptr;
};

// The self-contact search's derived data, buffers and result (owned by the
// step's context, not copied).
struct SelfCollision {
  std::vector<SelfContact> contacts;  // this sub-step's (or span's)
  // For the topology they were made on: the cell size (the mean rest edge),
  // each vertex's neighbours, and each triangle's (its corners and theirs).
  float cell = 0.0f;
  std::uint64_t cellVersion = UINT64_MAX;
  std::size_t cellEdges = 0;
  std::vector<std::uint32_t> adjStart, adj;
  std::vector<std::uint32_t> triNearStart, triNear;
  std::vector<std::uint8_t> triHub;  // a corner with too many edges to list
  // Per triangle t that shares an edge with t + 1, the vertices either of
  // the two skips, each once as 4 v + 1 (t skips it) + 2 (t + 1 does)
  // (CSR; an empty range for the others): what a lookup of the pair marks.
  std::vector<std::uint32_t> pairNearStart, pairNear;
  // The distance the contacts keep (selfThickness()), the most a contact
  // moves out beyond its approach, the cloth's mean motion over the step.
  float thickness = 0.0f, depenetration = 0.0f;
  glm::vec3 shift{0.0f};
  bool tooDense = false;  // the last search gave up, or was not made for that
  // Per search: the vertices' hash, boxes, travel and motion (and their
  // sums by chunk of vertices).
  SpatialHash hash;
  std::vector<Aabb> boxes;
  std::vector<float> travel;
  std::vector<glm::vec3> motion;
  std::vector<glm::dvec3> motionSums;
  std::vector<double> travelSums;
  // The triangles whose lookups may find a contact (1; empty: all), the
  // vertices they may find (1), and the cone walk that chose them; each leaf
  // of the tree's vertices (CSR), for the tree's topology leafTopology.
  std::vector<std::uint8_t> exposed, exposedVertices;
  ConeSearch cones;
  std::vector<std::uint32_t> leafStart, leafVertices;
  std::uint64_t leafTopology = UINT64_MAX;
  // The constraints of each chunk of triangles (in triangle order); for
  // each detection thread, the last lookup that met each vertex and which
  // of its triangles skip it, the vertices a lookup found, and for each
  // triangle of a lookup (two: a quad's) those it keeps; the counting
  // sort's starts.
  std::vector<std::vector<SelfContact>> chunkPairs;
  std::vector<std::vector<std::uint32_t>> threadSeen, threadFound, threadKept;
  std::vector<std::uint32_t> start;
};

// A search in three stages, so that a step can run other work beside the
// serial one: prepareSelfContacts (the vertices' travel and boxes and the
// cone walk, on the team's threads; false, with no contacts, when there is
// nothing to look for or the mesh is known to be too dense), buildSelfHash
// (serial), findSelfContacts (the triangles' lookups, on the team's
// threads; false, with no contacts, where they give up as too dense).
//
// A vertex q gets a constraint for triangle (p1, p2, p3) not containing it
// when, over the motion x → p, it passes through the triangle (continuous
// test, linearised in the signed distance) or ends within reach of it
// (thickness plus a margin for what the iterations move); the constraint
// keeps q on the side it came from. A vertex joined by an edge to a corner
// of the triangle gets none, and neither does one with an edge through the
// triangle at the start of the step (the cloth is tangled there; its own
// constraints pull the vertex back out). Where the crossing search has its
// normal-cone tree (cone_tree.hpp), only the triangles of the leaves its
// walk leaves are looked up, and only their vertices hashed: a patch whose
// normals stay within 60° of one direction over the sub-step is not
// searched against itself (self_cones.cpp says why). The constraints come
// out in vertex order, then triangle order, whatever the hash's layout
// (determinism).
bool prepareSelfContacts(SelfCollision& self, const SelfSearch& in, SelfSearchState& state,
                         ThreadTeam& team);
void buildSelfHash(SelfCollision& self);
bool findSelfContacts(SelfCollision& self, const SelfSearch& in, SelfSearchState& state,
                      ThreadTeam& team);

// The reach of a pair of a vertex and a triangle beyond their travel: the
// thickness h plus a margin of at least h for what the iterations move.
inline float selfPairBase(float h, float cell) {
  return h + std::max(h, 0.05f * cell);
}

// What the app says where the lookups give up (StepStats::selfCollisionTooDense).
inline constexpr const char* kSelfCollisionTooDense =
    "self collision is off for this mesh: it is too dense to search in time linear in its size "
    "(thousands of triangles over one point, as at the hub of a fan, or a cloth through itself "
    "in thousands of places: more substeps keep it apart)";

// Edge–triangle crossings of the current positions: pairs of a mesh edge and a
// triangle sharing no vertex with it where the edge passes through the
// triangle's interior (segmentCrossesTriangleStrictly: surfaces that only
// touch do not count). Zero for a cloth that never passed through itself. None where
// the mesh is too dense to count in time linear in its size (thousands of
// triangles over one point, as at the hub of a fan).
// With `crossed`: the triangles of each crossing too (the one crossed and
// those beside the edge through it), sorted, each once.
std::optional<std::size_t> countSelfIntersections(const Cloth& cloth,
                                                  const std::vector<glm::vec3>& x,
                                                  std::vector<std::uint32_t>* crossed = nullptr);

// Mean rest length of the cloth's edges (m): the hash's cell size.
float meanRestEdge(const Cloth& cloth);

float selfThickness(float thickness, float meanEdge);

}  // namespace drape::sim
