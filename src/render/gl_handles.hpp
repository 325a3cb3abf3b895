#pragma once
// Owning handles for OpenGL objects. Each handle has one owner and deletes its
// object when destroyed, so whoever owns GL objects must be destroyed while
// the context is still current (the window outlives the renderer).

#include <utility>

#include <glad/gl.h>

namespace drape::render {

template <void (*Release)(GLuint)>
class GlHandle {
 public:
  GlHandle() = default;
  explicit GlHandle(GLuint id) : id_(id) {}
  GlHandle(GlHandle&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  GlHandle& operator=(GlHandle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, 0);
    }
    return *this;
  }
  GlHandle(const GlHandle&) = delete;
  GlHandle& operator=(const GlHandle&) = delete;
  ~GlHandle() { reset(); }

  GLuint get() const { return id_; }
  void reset() {
    if (id_ != 0) Release(id_);
    id_ = 0;
  }

 private:
  GLuint id_ = 0;
};

// glad's entry points are function pointers, so they cannot be template
// arguments themselves.
inline void releaseBuffer(GLuint id) {
  glDeleteBuffers(1, &id);
}
inline void releaseVertexArray(GLuint id) {
  glDeleteVertexArrays(1, &id);
}
inline void releaseProgram(GLuint id) {
  glDeleteProgram(id);
}
inline void releaseShader(GLuint id) {
  glDeleteShader(id);
}
inline void releaseFramebuffer(GLuint id) {
  glDeleteFramebuffers(1, &id);
}
inline void releaseTexture(GLuint id) {
  glDeleteTextures(1, &id);
}
inline void releaseRenderbuffer(GLuint id) {
  glDeleteRenderbuffers(1, &id);
}

using Buffer = GlHandle<releaseBuffer>;
using VertexArray = GlHandle<releaseVertexArray>;
using ProgramHandle = GlHandle<releaseProgram>;
using ShaderHandle = GlHandle<releaseShader>;
using Framebuffer = GlHandle<releaseFramebuffer>;
using Texture = GlHandle<releaseTexture>;
using Renderbuffer = GlHandle<releaseRenderbuffer>;

inline Buffer makeBuffer() {
  GLuint id = 0;
  glGenBuffers(1, &id);
  return Buffer(id);
}

inline VertexArray makeVertexArray() {
  GLuint id = 0;
  glGenVertexArrays(1, &id);
  return VertexArray(id);
}

inline Framebuffer makeFramebuffer() {
  GLuint id = 0;
  glGenFramebuffers(1, &id);
  return Framebuffer(id);
}

inline Texture makeTexture() {
  GLuint id = 0;
  glGenTextures(1, &id);
  return Texture(id);
}

inline Renderbuffer makeRenderbuffer() {
  GLuint id = 0;
  glGenRenderbuffers(1, &id);
  return Renderbuffer(id);
}

}  // namespace drape::render
