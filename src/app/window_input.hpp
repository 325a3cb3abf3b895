#pragma once
// The window's input: GLFW callbacks that turn mouse and keyboard events into
// camera moves, mouse-tool actions on the cloth, pending commands and dropped
// files, which the frame loop then applies. What the UI takes (the cursor
// over a panel, a focused text field) never reaches the scene.

#include <array>
#include <optional>
#include <string>

#include "app/camera_control.hpp"
#include "app/input.hpp"
#include "app/mouse_tools.hpp"
#include "app/session.hpp"
#include "render/camera.hpp"
#include "ui/imgui_layer.hpp"

struct GLFWwindow;

namespace drape::app {

struct WindowInput {
  CameraControl control;
  MouseTools tools;
  render::Camera* camera = nullptr;
  Session* session = nullptr;
  const ui::ImGuiLayer* ui = nullptr;
  std::array<bool, kCommandCount> pending{};  // commands asked for since the last frame
  // Single steps asked for and not yet taken, one per press of S, so that
  // presses quicker than the frames are not lost; a held S (auto-repeat)
  // keeps one waiting, so that letting go stops at once.
  int stepsPending = 0;
  bool cursorInside = false;  // the cursor is over the window (enter/leave events)
  // The last drop on the window: an OBJ path, or why it cannot be loaded.
  bool dropped = false;
  std::string droppedPath, dropError;
  // A mouse tool's press that may change the scene (cut, tear, pin): the
  // session as it was before, and the action's name, until the frame loop
  // sees whether it changed anything (for undo).
  std::optional<Session> before;
  std::string beforeWhat;

  bool takeStep() {
    if (stepsPending == 0) return false;
    --stepsPending;
    return true;
  }
  bool take(Command c) {
    const bool asked = pending[std::size_t(c)];
    pending[std::size_t(c)] = false;
    return asked;
  }
};

// Make `input` the window's user pointer and install the callbacks. Call
// before ui::ImGuiLayer::init, whose callbacks chain to these.
void installInputCallbacks(GLFWwindow* window, WindowInput& input);

// What GLFW's drop callback does with the dropped paths (exposed for tests).
void takeDrop(WindowInput& input, int count, const char** paths);

}  // namespace drape::app
