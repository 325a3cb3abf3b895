#pragma once
// A lit triangle mesh on the GPU: one VAO, an interleaved LitVertex buffer and
// a 32-bit index buffer. Static meshes upload once; the cloth re-uploads its
// vertices every frame into the same storage.

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

  std::size_t vertexCount() const { return vertexCount_; }
  void draw() const;

 private:
  VertexArray vao_;
  Buffer vertices_, indices_;
  std::size_t vertexCount_ = 0, indexCount_ = 0;
};

}  // namespace drape::render
