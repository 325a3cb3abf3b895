#pragma once
// A lit triangle mesh on the GPU: one VAO, an interleaved LitVertex buffer and
// a 32-bit index buffer. Static meshes upload once; the cloth re-uploads its
// vertices every frame into the same storage. Optional per-vertex streams,
// each in a buffer of its own, for the cloth: a colour (attribute 2, sRGB)
// for the strain heat map, texture coordinates (attribute 3) and a fold
// depth (attribute 4). A stream that is off has its attribute disabled, so
// the shaders read its default (0, 0, 0, 1) and fall back to their uniforms.

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
  // The optional streams, one value per vertex of the last updateVertices.
  // A stream's buffer is made on first use and its storage reused like the
  // vertices'; clearing one disables its attribute, so a buffer that no
  // longer matches the vertex count is never read.
  void updateColors(const std::vector<glm::vec3>& colors) { colors_.update(vao_, colors); }
  void clearColors() { colors_.clear(vao_); }
  void updateUVs(const std::vector<glm::vec2>& uvs) { uvs_.update(vao_, uvs); }
  void clearUVs() { uvs_.clear(vao_); }
  void updateFolds(const std::vector<float>& folds) { folds_.update(vao_, folds); }

  std::size_t vertexCount() const { return vertexCount_; }
  void draw() const;

 private:
  // One optional attribute of `components` floats per vertex.
  struct Stream {
    GLuint location;
    GLint components;
    Buffer buffer;
    std::size_t count = 0;
    bool on = false;
    template <class T>
    void update(const VertexArray& vao, const std::vector<T>& values) {
      upload(vao, values.data(), values.size(), sizeof(T));
    }
    void upload(const VertexArray& vao, const void* data, std::size_t n, std::size_t size);
    void clear(const VertexArray& vao);
  };

  VertexArray vao_;
  Buffer vertices_, indices_;
  Stream colors_{2, 3, {}}, uvs_{3, 2, {}}, folds_{4, 1, {}};
  std::size_t vertexCount_ = 0, indexCount_ = 0;
};

}  // namespace drape::render
