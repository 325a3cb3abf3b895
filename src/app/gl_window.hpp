#pragma once
// The window and its OpenGL 3.3 core context (GLFW, glad). Opening fails with
// GLFW's own explanation (no display, no suitable GL) rather than a crash.
//
// Anti-aliasing: a hardware renderer's window is asked for 4× multisampling.
// A software rasteriser's window (Mesa's llvmpipe under Xvfb or in a VM)
// gets none: multisampling makes its frames far dearer and,
// under Xvfb, leaves edges stair-stepped all the same. A window without
// samples draws through an offscreen target instead (render/antialias.hpp),
// with FXAA; offscreenSamples() says which. DRAPE_MSAA=N in the environment
// (0 to 16) asks for N samples, from the offscreen target where the window
// has none (sharper than FXAA, slower: for screenshots); DRAPE_AA=off turns
// anti-aliasing off altogether.

#include <memory>
#include <string>

#include "sim/sim.hpp"

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
  // The offscreen target's samples: −1 none (the window anti-aliases, or
  // DRAPE_AA is off), 0 FXAA, N an N-sample target.
  int offscreenSamples() const { return offscreenSamples_; }
  void setTitle(const std::string& title);

 private:
  GlWindow() = default;
  Result<void> create(int width, int height, const std::string& title, int samples);

  GLFWwindow* window_ = nullptr;
  int offscreenSamples_ = -1;
};

}  // namespace drape::app
