#include "app/window_input.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

#include "app/mesh_loading.hpp"

namespace drape::app {
namespace {

WindowInput& inputOf(GLFWwindow* window) {
  return *static_cast<WindowInput*>(glfwGetWindowUserPointer(window));
}

// What a press with `tool` may change in the scene, or null (a grab).
const char* toolAction(Tool tool, bool ctrl) {
  if (ctrl || tool == Tool::Pin) return "pin";
  if (tool == Tool::Cut) return "cut";
  if (tool == Tool::Tear) return "tear";
  return nullptr;
}

void onMouseButton(GLFWwindow* window, int button, int action, int mods) {
  WindowInput& in = inputOf(window);
  MouseButton b = MouseButton::Left;
  if (button == GLFW_MOUSE_BUTTON_RIGHT)
    b = MouseButton::Right;
  else if (button == GLFW_MOUSE_BUTTON_MIDDLE)
    b = MouseButton::Middle;
  else if (button != GLFW_MOUSE_BUTTON_LEFT)
    return;
  if (action == GLFW_RELEASE) {
    // Always, so that neither a drag nor a held vertex ever sticks.
    in.control.release(b);
    if (b == MouseButton::Left) in.tools.release(in.session->world());
    return;
  }
  if (in.ui->wantsMouse()) return;
  double x = 0, y = 0;
  glfwGetCursorPos(window, &x, &y);
  // Shift + left drag orbits whatever the tool (the Cut tool takes every
  // other left drag).
  if (b == MouseButton::Left && !in.control.dragging() && (mods & GLFW_MOD_SHIFT) == 0) {
    const bool ctrl = (mods & GLFW_MOD_CONTROL) != 0;
    // The session before what the press may change, for undo.
    if (const char* what = toolAction(in.tools.tool, ctrl); what && !in.before) {
      in.before = *in.session;
      in.beforeWhat = what;
    }
    if (in.tools.press(x, y, ctrl, *in.camera, in.session->world())) return;  // a tool took it
    in.before.reset();
  }
  in.control.press(b, x, y);
}

void onCursor(GLFWwindow* window, double x, double y) {
  WindowInput& in = inputOf(window);
  in.tools.move(x, y);
  in.control.move(x, y, *in.camera);
}

void onCursorEnter(GLFWwindow* window, int entered) {
  inputOf(window).cursorInside = entered == GLFW_TRUE;
}

void onScroll(GLFWwindow* window, double, double dy) {
  WindowInput& in = inputOf(window);
  if (!in.ui->wantsMouse()) in.control.scroll(dy, *in.camera);
}

void onKey(GLFWwindow* window, int key, int, int action, int mods) {
  WindowInput& in = inputOf(window);
  if (action == GLFW_RELEASE) return;
  const auto command = commandForKey(key, mods, action == GLFW_REPEAT);
  if (!command) return;
  // Ctrl+Q edits no text: it quits even while a text field has the keyboard.
  if (*command == Command::Quit) {
    glfwSetWindowShouldClose(window, GLFW_TRUE);
    return;
  }
  if (in.ui->wantsKeyboard()) return;
  if (*command == Command::Step) {
    // Each press is one step, even when the frames lag behind the presses
    // (a slow machine); holding S repeats at one pending step at a time.
    constexpr int kMaxPending = 64;
    in.stepsPending = action == GLFW_REPEAT ? std::max(in.stepsPending, 1)
                                            : std::min(in.stepsPending + 1, kMaxPending);
    return;
  }
  in.pending[std::size_t(*command)] = true;
}

void onDrop(GLFWwindow* window, int count, const char** paths) {
  takeDrop(inputOf(window), count, paths);
}

}  // namespace

void takeDrop(WindowInput& input, int count, const char** paths) {
  auto mesh = droppedMesh(count, paths);
  input.dropped = true;
  input.droppedPath = mesh ? mesh.value() : std::string();
  input.dropError = mesh ? std::string() : mesh.error();
}

void installInputCallbacks(GLFWwindow* window, WindowInput& input) {
  glfwSetWindowUserPointer(window, &input);
  glfwSetMouseButtonCallback(window, onMouseButton);
  glfwSetCursorPosCallback(window, onCursor);
  glfwSetCursorEnterCallback(window, onCursorEnter);
  // Events only tell of changes: start from where the cursor is now.
  input.cursorInside = glfwGetWindowAttrib(window, GLFW_HOVERED) == GLFW_TRUE;
  glfwSetScrollCallback(window, onScroll);
  glfwSetKeyCallback(window, onKey);
  glfwSetDropCallback(window, onDrop);
}

}  // namespace drape::app
