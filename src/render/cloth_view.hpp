#pragma once
// The cloth as drawn: positions from the simulation state, smooth normals
// recomputed on the CPU, streamed into one dynamic vertex buffer. Reads the
// world, never writes it. The vectors and the GL storage are reused from frame
// to frame, so a frame allocates nothing once the vertex count is stable.

#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

#include "render/gpu_mesh.hpp"
#include "sim/world.hpp"

namespace drape::render {

class ClothView {
 public:
  static ClothView create();

  // Bring the GPU copy up to date with the world's current positions. The
  // index buffer is re-sent only when the triangle count changes (a rebuilt
  // scene) or when `topologyChanged` says so.
  void update(const sim::World& world, bool topologyChanged = false);
  void draw() const { mesh_.draw(); }

 private:
  GpuMesh mesh_;
  std::vector<glm::vec3> normals_;
  std::vector<LitVertex> vertices_;
  std::size_t triangleCount_ = 0;
};

}  // namespace drape::render
