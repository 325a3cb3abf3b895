#pragma once
// The window and its OpenGL 3.3 core context (GLFW, glad). Opening fails with
// GLFW's own explanation (no display, no suitable GL) rather than a crash.
//
// Multisampling: 4× is requested, except on software rasterisers (Mesa's
// llvmpipe under Xvfb or in a VM), where it triples the cost of a frame; the
// window is then made again without it. DRAPE_MSAA=N in the environment
// (0 to 16) asks for N samples whatever the renderer, e.g. for screenshots.

#include <memory>
#include <string>

#include "sim/result.hpp"

struct GLFWwindow;

namespace drape::app {

class GlWindow {
 public:
  // Initialise GLFW, open a `width` × `height` window (screen coordinates)
  // with vsync, and load OpenGL.
  static Result<std::unique_ptr<GlWindow>> open(int width, int height, const std::string& title);
  GlWindow(const GlWindow&) = delete;
  GlWindow& operator=(const GlWindow&) = delete;
  ~GlWindow();  // closes the window and terminates GLFW

  GLFWwindow* handle() const { return window_; }
  void setTitle(const std::string& title);

 private:
  GlWindow() = default;
  Result<void> create(int width, int height, const std::string& title, int samples);

  GLFWwindow* window_ = nullptr;
};

}  // namespace drape::app
