#include "render/program.hpp"

#include <glm/gtc/type_ptr.hpp>

namespace drape::render {
namespace {

// First line of a driver's info log: enough to find the error, short enough
// for a one-line message.
std::string firstLine(std::string log) {
  const auto nl = log.find('\n');
  if (nl != std::string::npos) log.resize(nl);
  return log.empty() ? "no log" : log;
}

Result<ShaderHandle> compile(GLenum stage, const std::string& name, const std::string& source) {
  ShaderHandle shader(glCreateShader(stage));
  const char* text = source.c_str();
  glShaderSource(shader.get(), 1, &text, nullptr);
  glCompileShader(shader.get());
  GLint ok = GL_FALSE;
  glGetShaderiv(shader.get(), GL_COMPILE_STATUS, &ok);
  if (ok == GL_TRUE) return shader;
  GLint length = 0;
  glGetShaderiv(shader.get(), GL_INFO_LOG_LENGTH, &length);
  std::string log(std::size_t(length > 0 ? length : 1), '\0');
  glGetShaderInfoLog(shader.get(), GLsizei(log.size()), nullptr, log.data());
  return fail("shader '" + name + "' does not compile: " + firstLine(log.c_str()));
}

}  // namespace

Result<Program> Program::build(const std::string& vertexName, const std::string& vertexSource,
                               const std::string& fragmentName, const std::string& fragmentSource) {
  auto vs = compile(GL_VERTEX_SHADER, vertexName, vertexSource);
  if (!vs) return fail(vs.error());
  auto fs = compile(GL_FRAGMENT_SHADER, fragmentName, fragmentSource);
  if (!fs) return fail(fs.error());
  Program program;
  program.id_ = ProgramHandle(glCreateProgram());
  const GLuint id = program.id_.get();
  glAttachShader(id, vs->get());
  glAttachShader(id, fs->get());
  glLinkProgram(id);
  glDetachShader(id, vs->get());
  glDetachShader(id, fs->get());
  GLint ok = GL_FALSE;
  glGetProgramiv(id, GL_LINK_STATUS, &ok);
  if (ok == GL_TRUE) return program;
  GLint length = 0;
  glGetProgramiv(id, GL_INFO_LOG_LENGTH, &length);
  std::string log(std::size_t(length > 0 ? length : 1), '\0');
  glGetProgramInfoLog(id, GLsizei(log.size()), nullptr, log.data());
  return fail("shaders '" + vertexName + "' and '" + fragmentName +
              "' do not link: " + firstLine(log.c_str()));
}

void Program::set(const char* name, int v) const {
  glUniform1i(glGetUniformLocation(id_.get(), name), v);
}
void Program::set(const char* name, float v) const {
  glUniform1f(glGetUniformLocation(id_.get(), name), v);
}
void Program::set(const char* name, const glm::vec2& v) const {
  glUniform2fv(glGetUniformLocation(id_.get(), name), 1, glm::value_ptr(v));
}
void Program::set(const char* name, const glm::vec3& v) const {
  glUniform3fv(glGetUniformLocation(id_.get(), name), 1, glm::value_ptr(v));
}
void Program::set(const char* name, const glm::vec4& v) const {
  glUniform4fv(glGetUniformLocation(id_.get(), name), 1, glm::value_ptr(v));
}
void Program::set(const char* name, const glm::mat4& m) const {
  glUniformMatrix4fv(glGetUniformLocation(id_.get(), name), 1, GL_FALSE, glm::value_ptr(m));
}

}  // namespace drape::render
