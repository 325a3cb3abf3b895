#pragma once
// The window and its OpenGL 3.3 core context (GLFW, glad). Opening fails with
// GLFW's own explanation (no display, no suitable GL) rather than a crash.

#include <memory>
#include <string>

#include "sim/result.hpp"

struct GLFWwindow;

namespace drape::app {

class GlWindow {
 public:
  // Initialise GLFW, open a `width` × `height` window (screen coordinates)
  // with vsync and, where available, 4× multisampling, and load OpenGL.
  static Result<std::unique_ptr<GlWindow>> open(int width, int height, const std::string& title);
  GlWindow(const GlWindow&) = delete;
  GlWindow& operator=(const GlWindow&) = delete;
  ~GlWindow();  // closes the window and terminates GLFW

  GLFWwindow* handle() const { return window_; }
  void setTitle(const std::string& title);

 private:
  GlWindow() = default;
  GLFWwindow* window_ = nullptr;
};

}  // namespace drape::app
