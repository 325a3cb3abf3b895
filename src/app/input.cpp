#include "app/input.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace drape::app {

std::optional<Command> commandForKey(int key, int mods, bool repeat) {
  if (mods == GLFW_MOD_CONTROL && !repeat) {
    if (key == GLFW_KEY_Q) return Command::Quit;
    if (key == GLFW_KEY_O) return Command::OpenMesh;
    if (key == GLFW_KEY_S) return Command::SaveScene;
    if (key == GLFW_KEY_L) return Command::OpenSceneFile;
    if (key == GLFW_KEY_Z) return Command::Undo;
    return std::nullopt;
  }
  if (mods == (GLFW_MOD_CONTROL | GLFW_MOD_SHIFT) && !repeat && key == GLFW_KEY_S)
    return Command::SaveSceneAs;
  if (mods == (GLFW_MOD_CONTROL | GLFW_MOD_SHIFT) && !repeat && key == GLFW_KEY_Z)
    return Command::Redo;
  if (mods == (GLFW_MOD_CONTROL | GLFW_MOD_SHIFT) && !repeat && key == GLFW_KEY_O)
    return Command::OpenSequence;
  if (mods != 0) return std::nullopt;  // Shift, Alt, Super: left to the system
  if (key == GLFW_KEY_S) return Command::Step;
  if (repeat) return std::nullopt;
  switch (key) {
    case GLFW_KEY_SPACE:
      return Command::TogglePlay;
    case GLFW_KEY_R:
      return Command::Reset;
    case GLFW_KEY_W:
      return Command::ToggleWireframe;
    case GLFW_KEY_V:
      return Command::CycleView;
    case GLFW_KEY_1:
      return Command::ViewShaded;
    case GLFW_KEY_2:
      return Command::ViewWireframe;
    case GLFW_KEY_3:
      return Command::ViewStrain;
    case GLFW_KEY_F:
      return Command::Frame;
    case GLFW_KEY_H:
    case GLFW_KEY_F1:
      return Command::ToggleHelp;
    case GLFW_KEY_G:
      return Command::ToolGrab;
    case GLFW_KEY_P:
      return Command::ToolPin;
    case GLFW_KEY_T:
      return Command::ToolTear;
    case GLFW_KEY_C:
      return Command::ToolCut;
    case GLFW_KEY_ESCAPE:
      return Command::CloseOverlay;
    default:
      return std::nullopt;
  }
}

const std::vector<Binding>& keyBindings() {
  static const std::vector<Binding> kKeys = {
      {"Space", "play / pause"},
      {"S", "one step (hold: keep stepping)"},
      {"R", "reset the scene"},
      {"W", "wireframe on / off"},
      {"V", "next view: shaded, wireframe, strain"},
      {"1  2  3", "shaded / wireframe / strain heat map"},
      {"F", "frame the cloth"},
      {"G  P  T  C", "tools: grab, pin, tear, cut"},
      {"Ctrl+O", "load an OBJ file"},
      {"Ctrl+Shift+O", "load an OBJ sequence as a collider"},
      {"Ctrl+S", "save the scene file (path in the Scene panel)"},
      {"Ctrl+Shift+S", "save the scene file as..."},
      {"Ctrl+L", "load a scene file"},
      {"Ctrl+Z", "undo the last change to the scene"},
      {"Ctrl+Shift+Z", "redo"},
      {"H  F1", "this help"},
      {"Esc", "close this help"},
      {"Ctrl+Q", "quit"},
  };
  return kKeys;
}

const std::vector<Binding>& mouseBindings() {
  static const std::vector<Binding> kMouse = {
      {"Left drag on cloth", "grab and pull it; let go to throw"},
      {"Click (Pin tool)", "pin / unpin the vertex"},
      {"Drag (Tear tool)", "pull until the cloth tears"},
      {"Drag (Cut tool)", "cut the cloth along the stroke"},
      {"Ctrl + click", "pin / unpin (the cloth or a pin's marker)"},
      {"Left drag elsewhere", "orbit the camera"},
      {"Shift + left drag", "orbit, in any tool"},
      {"Right / middle drag", "pan"},
      {"Wheel", "zoom"},
      {"Drop an .obj file", "load it as cloth, balloon or collider"},
  };
  return kMouse;
}

}  // namespace drape::app
