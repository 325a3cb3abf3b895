#include "app/gl_window.hpp"

#include <cstdlib>
#include <cstring>

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE  // glad provides the GL declarations
#include <GLFW/glfw3.h>

namespace drape::app {
namespace {

constexpr int kDefaultSamples = 4;

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

// DRAPE_MSAA=N when set to a number in [0, 16]; −1 otherwise.
int samplesFromEnvironment() {
  const char* text = std::getenv("DRAPE_MSAA");
  if (!text || !*text) return -1;
  char* end = nullptr;
  const long n = std::strtol(text, &end, 10);
  return *end == '\0' && n >= 0 && n <= 16 ? int(n) : -1;
}

// DRAPE_AA=off: no anti-aliasing at all (to compare, or to measure).
bool antialiasingOff() {
  const char* text = std::getenv("DRAPE_AA");
  return text && std::strcmp(text, "off") == 0;
}

bool softwareRenderer() {
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  if (!renderer) return false;
  for (const char* name : {"llvmpipe", "softpipe", "swrast", "SWR"})
    if (std::strstr(renderer, name)) return true;
  return false;
}

}  // namespace

Result<void> GlWindow::create(int width, int height, const std::string& title, int samples) {
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, samples);  // a request: GLFW falls back when no such visual exists
  glfwWindowHint(GLFW_STENCIL_BITS, 8);   // planar shadows darken each pixel once
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);  // shown once it is the one that stays
  window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (!window_) return fail(glfwReason("GLFW cannot create it"));
  glfwMakeContextCurrent(window_);
  if (gladLoadGL(glfwGetProcAddress) == 0) return fail("cannot load OpenGL 3.3 core functions");
  glfwSwapInterval(1);  // vsync
  return {};
}

Result<std::unique_ptr<GlWindow>> GlWindow::open(int width, int height, const std::string& title) {
  glfwSetErrorCallback(onGlfwError);
  lastGlfwError().clear();
  if (!glfwInit()) return fail(glfwReason("GLFW cannot initialise"));
  std::unique_ptr<GlWindow> w(new GlWindow());  // from here on, its destructor terminates GLFW
  const bool off = antialiasingOff();
  const int asked = samplesFromEnvironment();
  const int samples = off ? 0 : asked >= 0 ? asked : kDefaultSamples;
  if (auto r = w->create(width, height, title, samples); !r) return fail(r.error());
  // A software rasteriser's multisampled window costs far more a frame and,
  // under Xvfb, is no smoother: made again without samples, it gets the
  // offscreen target (asked samples, or FXAA).
  const bool software = softwareRenderer();
  if (samples > 0 && software) {
    glfwDestroyWindow(w->window_);
    w->window_ = nullptr;
    if (auto r = w->create(width, height, title, 0); !r) return fail(r.error());
  }
  GLint got = 0;  // what the window has, whatever was asked
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glGetIntegerv(GL_SAMPLES, &got);
  if (!off && got <= 1) w->offscreenSamples_ = asked > 1 ? asked : 0;
  glfwShowWindow(w->window_);
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
