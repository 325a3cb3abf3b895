#pragma once
// Dear ImGui on a GLFW window with a current OpenGL 3.3 core context: context,
// platform and renderer backends, and the look of the panels. The app sees
// only this class, never ImGui itself.

#include "sim/sim.hpp"

struct GLFWwindow;

namespace drape::ui {

// The characters the interface's font is loaded with, as ImGui takes them:
// pairs of first and last code point, ending in 0. Basic Latin and Latin-1,
// Greek, punctuation (– — ′ ‹ ›), super- and subscripts (⁻ ⁴), arrows and
// mathematical operators (− ≤ ≥ ≈ √ ∞): every character the panels and
// tooltips use (tests/ui checks the sources' string literals against it).
const unsigned short* fontGlyphRanges();

// The interface's look and font on the current ImGui context: what init()
// sets up, for laying the panels out without a window (tests/ui).
void styleInterface();

class ImGuiLayer {
 public:
  ImGuiLayer() = default;
  ImGuiLayer(const ImGuiLayer&) = delete;
  ImGuiLayer& operator=(const ImGuiLayer&) = delete;
  ~ImGuiLayer();

  // Install the interface's GLFW callbacks, which call the ones already
  // installed first (install the app's own callbacks before this) and queue
  // keys, characters, buttons and wheel turns for the frames to come
  // (input_queue.hpp). One layer per process: ImGui's context is global.
  Result<void> init(GLFWwindow* window);
  void beginFrame();
  void endFrame();  // draw the frame's panels over what is already drawn

  // Whether ImGui uses the mouse or keyboard (the cursor is over a panel, a
  // text field has focus): then the app must not also act on it.
  bool wantsMouse() const;
  bool wantsKeyboard() const;

 private:
  bool initialised_ = false;
  GLFWwindow* window_ = nullptr;
};

}  // namespace drape::ui
