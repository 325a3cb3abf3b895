#pragma once
// A lit triangle mesh on the GPU: one VAO, an interleaved LitVertex buffer and
// a 32-bit index buffer. Static meshes upload once; the cloth re-uploads its
// vertices every frame into the same storage. Optionally a per-vertex colour
// (attribute 2, sRGB) for the strain heat map; without it the attribute is
// disabled and the shaders use their uniform colours.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "render/gl_handles.hpp"
#include "render/primitives.hpp"

namespace drape::render {

class GpuMesh {
 public:
  static GpuMesh create();
  static GpuMesh fromPrimitive(const PrimitiveMesh& mesh);

  // Replace the vertex data. Same count as before: glBufferSubData into the
  // storage already there; another count: allocate anew (GL_DYNAMIC_DRAW).
  void updateVertices(const std::vector<LitVertex>& vertices);
  void setIndices(const std::uint32_t* indices, std::size_t count);
  // Per-vertex colours, one per vertex of the last updateVertices. The
  // buffer is made on first use and its storage reused like the vertices'.
  void updateColors(const std::vector<glm::vec3>& colors);
  // Back to uniform colours (the attribute is disabled, so a colour buffer
  // that no longer matches the vertex count is never read).
  void clearColors();

  std::size_t vertexCount() const { return vertexCount_; }
  void draw() const;

 private:
  VertexArray vao_;
  Buffer vertices_, indices_, colors_;
  std::size_t vertexCount_ = 0, indexCount_ = 0, colorCount_ = 0;
  bool colorsOn_ = false;
};

}  // namespace drape::render
