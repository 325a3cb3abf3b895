#pragma once
// A linked GLSL program with uniform setters. Build errors come back as one
// line naming the shader file, so the app can report them and exit cleanly.

#include <string>

#include <glm/glm.hpp>

#include "render/gl_handles.hpp"
#include "sim/sim.hpp"

namespace drape::render {

class Program {
 public:
  // Compile `vertexName` and `fragmentName` (file names, for messages) from
  // their sources and link them.
  static Result<Program> build(const std::string& vertexName, const std::string& vertexSource,
                               const std::string& fragmentName, const std::string& fragmentSource);

  void use() const { glUseProgram(id_.get()); }
  GLuint id() const { return id_.get(); }

  // Setters act on the program in use; unknown names (uniforms the compiler
  // optimised away) are ignored, as GL does for location −1.
  void set(const char* name, int v) const;  // also a sampler's texture unit
  void set(const char* name, float v) const;
  void set(const char* name, const glm::vec2& v) const;
  void set(const char* name, const glm::vec3& v) const;
  void set(const char* name, const glm::vec4& v) const;
  void set(const char* name, const glm::mat4& m) const;

 private:
  ProgramHandle id_;
};

}  // namespace drape::render
