#pragma once
// Tearing (paper §5.4): an explicit operation on the rest data.
// An overstretched edge picks one of its vertices; a plane
// through it, perpendicular to the edge, splits the triangles around it: those
// in front keep the vertex, those behind get a duplicate with the same
// position and velocity. Everything that refers to the topology is updated in
// place, so no index goes stale:
//
//   triangles, rest positions, masses (the vertex's mass split by the rest
//   areas of its two sides), state (x, p, v, w grow), stretch constraints
//   (an edge now on both sides becomes two), dihedral and isometric bending
//   (a hinge whose two triangles are now on different sides is dropped, the
//   others are renamed and keep their rest angle), pieces, `closed` and
//   `pressureActive` (a balloon that tears bursts), seams (an end at a split
//   vertex goes with its larger side), and `topologyVersion`
//   (the solver rebuilds its colourings and tethers from it).
//
// Pins: a pinned vertex that is split keeps its pin and the duplicate is
// free: the pin holds one point of the fabric and the part torn away from it
// hangs loose. Splits prefer free vertices, so this happens only when both
// ends of the edge are pinned or the free end cannot split.

#include <cstddef>
#include <cstdint>

#include <glm/glm.hpp>

#include "sim/world.hpp"

namespace drape::sim {

struct TearResult {
  bool split = false;           // false: nothing changed
  std::uint32_t vertex = 0;     // the vertex split; keeps the triangles in front of the plane
  std::uint32_t duplicate = 0;  // the new vertex (index = old vertex count)
  std::uint32_t tornEdges = 0;  // edges that had a triangle on each side, now two boundary edges
  // Further vertices made where the tear reached the boundary: the far end
  // of a torn edge whose triangles then met at that vertex alone.
  std::uint32_t boundarySplits = 0;
};

// Split `vertex` by the plane through its current position with normal
// `planeNormal`; each triangle goes by its centroid. The triangles around the
// vertex are ordered into fans first and each side is made one contiguous arc
// of a fan (the arc that agrees best with the plane), so the split never
// leaves a vertex whose triangles touch only at that vertex; where the tear
// reaches the boundary, the far end of a torn edge would be such a vertex and
// is itself split, one vertex per fan (so a cut from edge to edge parts the
// cloth into pieces). No split (and no change) when the plane leaves every
// triangle on one side or the vertex has fewer than two triangles.
TearResult splitVertex(World& world, std::uint32_t vertex, const glm::vec3& planeNormal);

// Tear at stretch constraint `edge`: split one of its two vertices by the
// plane perpendicular to the edge, preferring a free vertex, then the one
// with more triangles, then the smaller index; the other if the first cannot
// be split.
TearResult tearEdge(World& world, std::uint32_t edge);

// After a frame's solve: edges whose current length exceeds params.tear (or,
// while tearing is off, a held tearing grab's threshold) × their rest length
// tear, most stretched first, at most max(1, vertices/200)
// splits per call so that tears run across the cloth over several frames.
// Adds to world.tornEdges; returns the number of splits. Nothing when tear is 0.
std::size_t tearOverstretched(World& world);

}  // namespace drape::sim
