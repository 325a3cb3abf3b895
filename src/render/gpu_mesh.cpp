#include "render/gpu_mesh.hpp"

namespace drape::render {

GpuMesh GpuMesh::create() {
  GpuMesh m;
  m.vao_ = makeVertexArray();
  m.vertices_ = makeBuffer();
  m.indices_ = makeBuffer();
  glBindVertexArray(m.vao_.get());
  glBindBuffer(GL_ARRAY_BUFFER, m.vertices_.get());
  // Attribute 0: position, 1: normal (the layout of every lit shader).
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LitVertex),
                        reinterpret_cast<const void*>(offsetof(LitVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(LitVertex),
                        reinterpret_cast<const void*>(offsetof(LitVertex, normal)));
  // The element buffer binding is part of the VAO's state.
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m.indices_.get());
  glBindVertexArray(0);
  return m;
}

GpuMesh GpuMesh::fromPrimitive(const PrimitiveMesh& mesh) {
  GpuMesh m = create();
  m.updateVertices(mesh.vertices);
  m.setIndices(mesh.indices.data(), mesh.indices.size());
  return m;
}

void GpuMesh::updateVertices(const std::vector<LitVertex>& vertices) {
  glBindBuffer(GL_ARRAY_BUFFER, vertices_.get());
  const auto bytes = GLsizeiptr(vertices.size() * sizeof(LitVertex));
  if (vertices.size() == vertexCount_) {
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, vertices.data());
  } else {
    glBufferData(GL_ARRAY_BUFFER, bytes, vertices.data(), GL_DYNAMIC_DRAW);
    vertexCount_ = vertices.size();
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuMesh::setIndices(const std::uint32_t* indices, std::size_t count) {
  // Bind through the VAO so the element binding it records stays this buffer.
  glBindVertexArray(vao_.get());
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(count * sizeof(std::uint32_t)), indices,
               GL_STATIC_DRAW);
  glBindVertexArray(0);
  indexCount_ = count;
}

void GpuMesh::Stream::upload(const VertexArray& vao, const void* data, std::size_t n,
                             std::size_t size) {
  if (buffer.get() == 0) buffer = makeBuffer();
  glBindVertexArray(vao.get());
  glBindBuffer(GL_ARRAY_BUFFER, buffer.get());
  const auto bytes = GLsizeiptr(n * size);
  if (n == count) {
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, data);
  } else {
    glBufferData(GL_ARRAY_BUFFER, bytes, data, GL_DYNAMIC_DRAW);
    count = n;
  }
  if (!on) {
    // The attribute's buffer binding is VAO state, captured here.
    glEnableVertexAttribArray(location);
    glVertexAttribPointer(location, components, GL_FLOAT, GL_FALSE, GLsizei(size), nullptr);
    on = true;
  }
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuMesh::Stream::clear(const VertexArray& vao) {
  if (!on) return;
  glBindVertexArray(vao.get());
  glDisableVertexAttribArray(location);
  glBindVertexArray(0);
  on = false;
}

void GpuMesh::draw() const {
  if (indexCount_ == 0) return;
  glBindVertexArray(vao_.get());
  glDrawElements(GL_TRIANGLES, GLsizei(indexCount_), GL_UNSIGNED_INT, nullptr);
  glBindVertexArray(0);
}

}  // namespace drape::render
