#pragma once
// The cloth as drawn: positions from the simulation state, smooth normals and
// fold depths (cloth_surface.hpp) recomputed on the CPU, streamed into one
// dynamic vertex buffer; texture coordinates, when the cloth has them, for
// the weave pattern; in the strain view also a colour per vertex. Reads the
// world, never writes it. The vectors and the GL storage are reused from
// frame to frame, so a frame allocates nothing once the vertex count is
// stable.

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "render/cloth_surface.hpp"
#include "render/gpu_mesh.hpp"
#include "sim/sim.hpp"

namespace drape::render {

// Magenta: apart from every colour of the strain ramp.
inline const glm::vec3 kCrossingColor{0.95f, 0.15f, 0.85f};

class ClothView {
 public:
  static ClothView create();

  // Bring the GPU copy up to date with the world's current positions. The
  // layout (cloth_surface.hpp: indices and UVs) is rebuilt when the cloth's
  // topology changed (tearing moves triangle corners onto new vertices), when
  // the triangle count changed, or when `topologyChanged` says so (a rebuilt
  // scene). `foldRadius` (m): the bend radius that shades as a full fold.
  void update(const sim::World& world, bool topologyChanged = false, float foldRadius = 0.02f);
  // Colour each vertex by its strain (strain.hpp), `strainMax` at the top of
  // the ramp, and the corners of the `crossed` triangles (where the cloth
  // passes through itself; may be null) in kCrossingColor; call after update().
  void updateStrainColors(const sim::World& world, float strainMax,
                          const std::vector<std::uint32_t>* crossed = nullptr);
  // Back to the uniform front and back colours.
  void clearColors() { mesh_.clearColors(); }
  void draw() const { mesh_.draw(); }

  // Metres per unit of texture coordinate; 0 when the cloth has no UVs.
  float metresPerUV() const { return layout_.metresPerUV; }

 private:
  GpuMesh mesh_;
  SurfaceLayout layout_;
  std::vector<glm::vec3> normals_;
  std::vector<float> fold_, drawnFold_;
  std::vector<glm::vec4> scratch_;
  std::vector<LitVertex> vertices_;
  std::vector<float> strain_;
  std::vector<std::uint32_t> strainCount_;
  std::vector<glm::vec3> colors_;
  std::vector<std::uint8_t> crossedCorner_;  // per simulated vertex: a corner of a crossed triangle
  std::size_t triangleCount_ = 0;
  std::uint64_t topologyVersion_ = UINT64_MAX;
};

}  // namespace drape::render
