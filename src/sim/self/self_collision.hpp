#pragma once
// Self collision (paper §4.3): vertex–triangle constraints found
// with a spatial hash over the triangles' motion in a sub-step, generated once
// before the solver iterations (like collider contacts) and projected in
// every iteration. And a count of the mesh's edge–triangle crossings, to
// measure how well that works.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/self/self_contact.hpp"
#include "sim/world.hpp"

namespace drape::sim {

// This sub-step's constraints into the solver scratch's selfContacts (emptied when
// params.self_collision is 0). A vertex q gets one for triangle (p1, p2, p3)
// not containing it when, over the motion x → p, it passes through the
// triangle (continuous test, linearised in the signed distance) or ends
// within reach of it (thickness plus a margin for what the iterations move;
// the thickness is selfThickness(), kept in the solver scratch's selfThickness);
// the constraint keeps q on the side it came from. A vertex joined by an edge
// to a corner of the triangle gets none, and neither does one with an edge
// through the triangle at the start of the step (the cloth is tangled there;
// its own constraints pull the vertex back out). Where the crossing search
// has its normal-cone tree (cone_tree.hpp), only the triangles of the leaves
// its walk leaves are looked up, and only their vertices hashed: a patch
// whose normals stay within 60° of one direction over the sub-step is not
// searched against itself (self_cones.cpp says why). The constraints
// come out in vertex order, then triangle order, whatever the hash's layout
// (determinism).
void generateSelfContacts(World& world);

// What the app says where the lookups give up (StepStats::selfCollisionTooDense).
inline constexpr const char* kSelfCollisionTooDense =
    "self collision is off for this mesh: it is too dense to search in time linear in its size "
    "(thousands of triangles over one point, as at the hub of a fan, or a cloth through itself "
    "in thousands of places: more substeps keep it apart)";

// generateSelfContacts in its three stages, for a step that runs other work
// beside the serial one: prepareSelfContacts (the vertices' travel and
// boxes, on the solver's threads; false, with no contacts, when there is
// nothing to look for), buildSelfHash (serial), findSelfContacts (the
// triangles' lookups, on the solver's threads).
bool prepareSelfContacts(World& world);
void buildSelfHash(World& world);
void findSelfContacts(World& world);

// Edge–triangle crossings of the current positions: pairs of a mesh edge and a
// triangle sharing no vertex with it where the edge passes through the
// triangle's interior (segmentCrossesTriangleStrictly: surfaces that only
// touch do not count). Zero for a cloth that never passed through itself. None where
// the mesh is too dense to count in time linear in its size (thousands of
// triangles over one point, as at the hub of a fan).
// With `crossed`: the triangles of each crossing too (the one crossed and
// those beside the edge through it), sorted, each once.
std::optional<std::size_t> countSelfIntersections(const World& world,
                                                  std::vector<std::uint32_t>* crossed = nullptr);

// Mean rest length of the cloth's edges (m): the hash's cell size.
float meanRestEdge(const Cloth& cloth);

// The distance self contacts keep: the thickness, but at most this fraction
// of the mean rest edge. A thicker layer reaches, as soon as the cloth bends,
// triangles of its own sheet two rings away, and those contacts fight the
// stretch and bending constraints: a 128² cloth (16 mm edges) with the 10 mm
// default thickness draped on a sphere gained speed in every frame once it
// piled up, and its contacts grew to millions. Colliders keep the full
// thickness.
constexpr float kSelfThicknessPerEdge = 0.35f;
float selfThickness(float thickness, float meanEdge);

}  // namespace drape::sim
