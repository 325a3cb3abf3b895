#include "app/gl_window.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE  // glad provides the GL declarations
#include <GLFW/glfw3.h>

namespace drape::app {
namespace {

// GLFW reports errors through a callback; keep the last one for the message.
std::string& lastGlfwError() {
  static std::string message;
  return message;
}

void onGlfwError(int, const char* description) {
  lastGlfwError() = description ? description : "";
}

std::string glfwReason(const char* fallback) {
  return lastGlfwError().empty() ? fallback : lastGlfwError();
}

}  // namespace

Result<std::unique_ptr<GlWindow>> GlWindow::open(int width, int height, const std::string& title) {
  glfwSetErrorCallback(onGlfwError);
  lastGlfwError().clear();
  if (!glfwInit()) return fail(glfwReason("GLFW cannot initialise"));
  std::unique_ptr<GlWindow> w(new GlWindow());  // from here on, its destructor terminates GLFW
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, 4);       // a request: GLFW falls back when no such visual exists
  glfwWindowHint(GLFW_STENCIL_BITS, 8);  // planar shadows darken each pixel once
  w->window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (!w->window_) return fail(glfwReason("GLFW cannot create it"));
  glfwMakeContextCurrent(w->window_);
  if (gladLoadGL(glfwGetProcAddress) == 0) return fail("cannot load OpenGL 3.3 core functions");
  glfwSwapInterval(1);  // vsync
  return w;
}

GlWindow::~GlWindow() {
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

void GlWindow::setTitle(const std::string& title) {
  glfwSetWindowTitle(window_, title.c_str());
}

}  // namespace drape::app
