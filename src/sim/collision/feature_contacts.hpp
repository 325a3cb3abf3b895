#pragma once
// Contacts of the colliders' features with the cloth between its vertices:
// a box's or a mesh's sharp edges and corners, or a rod or ball thinner than
// the cloth's triangles, can pass between the vertices, which their own
// contacts (colliders.hpp) cannot see. Each is a point of the cloth, a weighted sum
// of the vertices of an edge or a triangle, held on the tangent plane of the
// inflated surface: C = (Σ w_i·p_i − q)·n ≥ 0.

#include <cstdint>

#include <glm/glm.hpp>

#include "sim/collision/colliders.hpp"

namespace drape::sim {

struct FeatureContact {
  std::uint32_t v[3];            // an edge repeats its second vertex with weight 0
  float weight[3];               // barycentric: the point is Σ weight_i · p_i
  glm::vec3 q, n, surfaceShift;  // world, as in Contact
  // The most one projection pushes the point: the reach it was found within
  // (thickness and margin). Where the solve has carried it deeper since, by
  // more than that, pushing it all the way out in one go adds energy.
  float reach;
};

// How much deeper than the vertices around it a point of the cloth must lie
// to need a constraint of its own: above it, the vertices' contacts hold it.
inline float featureTolerance(float thickness) {
  return 0.25f * thickness + 1e-5f;
}

// Whether a span of the cloth (an edge, or a triangle's longest side) of
// squared length `length2` can meet the collider between its vertices:
// boxes always (edges and corners), meshes with sharp edges
// (MeshShape::sharpEdges); spheres and capsules of a radius below the span.
// Planes never.
bool featuresMayReach(const Collider& c, float length2);

// Whether a span of the cloth within `reach` of `middle` (world, at the pose
// `to`) may meet a box's edge (faces = 2) or corner (faces = 3): only near
// that many of its faces' planes at once; or a mesh's sharp edges: only
// near the box holding them. Always true for other shapes.
bool nearFeatures(const Collider& c, const Pose& to, const glm::vec3& middle, float reach,
                  int faces);

// The edge pa → pb (end-of-step positions) against one collider at the pose
// `to` (moving there from `from` over the step), for which featuresMayReach
// holds: true, filling `out` but for its vertices, when a point inside the
// edge lies deeper than both its ends by more than the tolerance and within
// `margin` of the inflated surface. The shapes' signed distances are convex
// along a line, and their normals give the slope: a bisection finds the
// deepest point. A mesh: the point nearest one of its sharp edges, nearer
// than both ends are to that edge.
bool generateEdgeContact(const Collider& c, const Pose& from, const Pose& to, const glm::vec3& pa,
                         const glm::vec3& pb, float thickness, float margin, FeatureContact& out);

// The triangle (p0, p1, p2) against one collider: the shape's support point
// towards the triangle (a box's corner, the top of a ball or of a capsule's
// end; a mesh's sharp corner) poking into the triangle's interior, deeper
// than its three vertices by more than the tolerance and within `margin` of
// the triangle, held on the other side of the triangle's plane, `thickness`
// away from it.
bool generateFaceContact(const Collider& c, const Pose& from, const Pose& to, const glm::vec3& p0,
                         const glm::vec3& p1, const glm::vec3& p2, float thickness, float margin,
                         FeatureContact& out);

}  // namespace drape::sim
