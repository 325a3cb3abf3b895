#pragma once
// Deforming mesh colliders: one topology, a vertex array per frame and a
// frame rate, the surface linear in time between frames and holding the last
// frame after it. The surface at a time is a MeshShape whose tree is the
// first frame's refitted (the same triangles in the same leaves), and whose
// distance grid is the first frame's, read with the slack of the surface's
// travel since (a signed distance moves no faster than the surface).

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "sim/collision/mesh_shape.hpp"
#include "sim/mesh.hpp"
#include "sim/result.hpp"

namespace drape::sim {

struct MeshSequence {
  std::vector<glm::uvec3> triangles;
  std::vector<std::vector<glm::vec3>> frames;  // world coordinates
  float fps = 30.0f;
  std::string source;  // the folder the frames came from ("" when made in memory)
  bool closed = false;
  // The edges of the topology: each triangle's edge slots, grouped by
  // undirected edge (edgeSlots[edgeStart[e], edgeStart[e + 1])), as
  // 3 · triangle + slot.
  std::vector<std::uint32_t> edgeSlots, edgeStart;
  TriangleBvh tree;  // over the first frame; refitted at other times
  // The largest move of a vertex from frame k to frame k + 1, and from the
  // first frame to frame k.
  std::vector<float> frameTravel, fromFirst;

  std::size_t frameCount() const { return frames.size(); }
  // The frame before t and the fraction of the way to the next (0 past the
  // last frame and before the first).
  void frameAt(double t, std::size_t& frame, float& fraction) const;
  // The surface at time t into `out`, reusing its buffers.
  void shapeAt(double t, MeshShape& out) const;
  // The surface's position at time t of the point with barycentrics `bary`
  // in `triangle`.
  glm::vec3 pointAt(double t, std::uint32_t triangle, const glm::vec3& bary) const;

 private:
  struct Grid {
    std::vector<float> cells;
    glm::vec3 lo{0.0f}, cell{0.0f};
  };
  // Frame k's distance grid, made on first use (the same for every caller).
  // Only the first frame's is used.
  std::shared_ptr<const Grid> gridOf(std::size_t frame) const;
  mutable std::mutex gridMutex_;
  mutable std::vector<std::shared_ptr<const Grid>> grids_;
};

// A sequence from frames in world coordinates with the same triangles in
// each. Fails, in one line, when there is no frame, when a frame's topology
// differs from the first's (naming the frame's index), or a coordinate is
// not finite.
Result<std::shared_ptr<const MeshSequence>> makeMeshSequence(std::vector<TriMesh> frames, float fps,
                                                             std::string source);

// The contact of a vertex moving x → p over a step with a deforming surface
// that goes from `from` (at the step's start) to `to` (at its end), each
// surface point moving at most `surfaceTravel`. The vertex's closest point
// on the start surface is followed to the end surface (same triangle, same
// barycentrics): the vertex stays on its side of that point's tangent plane
// however fast the surface moves, and the point's motion is the surface's
// shift for friction. A vertex that starts inside a closed surface is pushed
// out to the end surface's nearest point.
bool generateSequenceContact(const MeshShape& from, const MeshShape& to, float surfaceTravel,
                             const glm::vec3& x, const glm::vec3& p, float thickness, float margin,
                             glm::vec3& q, glm::vec3& n, glm::vec3& surfaceShift);

}  // namespace drape::sim
