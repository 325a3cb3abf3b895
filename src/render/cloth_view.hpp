#pragma once
// The cloth as drawn: positions from the simulation state, smooth normals
// recomputed on the CPU, streamed into one dynamic vertex buffer; in the
// strain view also a colour per vertex. Reads the world, never writes it. The
// vectors and the GL storage are reused from frame to frame, so a frame
// allocates nothing once the vertex count is stable.

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "render/gpu_mesh.hpp"
#include "sim/world.hpp"

namespace drape::render {

// Magenta: apart from every colour of the strain ramp.
inline const glm::vec3 kCrossingColor{0.95f, 0.15f, 0.85f};

class ClothView {
 public:
  static ClothView create();

  // Bring the GPU copy up to date with the world's current positions. The
  // index buffer is re-sent when the cloth's topology changed (tearing moves
  // triangle corners onto new vertices), when the triangle count changed, or
  // when `topologyChanged` says so (a rebuilt scene).
  void update(const sim::World& world, bool topologyChanged = false);
  // Colour each vertex by its strain (strain.hpp), `strainMax` at the top of
  // the ramp, and the corners of the `crossed` triangles (where the cloth
  // passes through itself; may be null) in kCrossingColor; call after update().
  void updateStrainColors(const sim::World& world, float strainMax,
                          const std::vector<std::uint32_t>* crossed = nullptr);
  // Back to the uniform front and back colours.
  void clearColors() { mesh_.clearColors(); }
  void draw() const { mesh_.draw(); }

 private:
  GpuMesh mesh_;
  std::vector<glm::vec3> normals_;
  std::vector<LitVertex> vertices_;
  std::vector<float> strain_;
  std::vector<std::uint32_t> strainCount_;
  std::vector<glm::vec3> colors_;
  std::size_t triangleCount_ = 0;
  std::uint64_t topologyVersion_ = UINT64_MAX;
};

}  // namespace drape::render
