#pragma once
// Keyboard commands of the window, apart from GLFW's callbacks so that the
// mapping can be tested with plain key codes, and the list of bindings the
// help overlay shows. Keys act only when the UI does not want the keyboard
// (no text field has focus).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace drape::app {

enum class Command : std::uint8_t {
  TogglePlay,       // Space
  Step,             // S (held: keeps stepping)
  Reset,            // R
  ToggleWireframe,  // W
  CycleView,        // V: shaded → wireframe → strain → shaded
  ViewShaded,       // 1
  ViewWireframe,    // 2
  ViewStrain,       // 3
  Frame,            // F
  ToggleHelp,       // H, F1
  ToolGrab,         // G
  ToolPin,          // P
  ToolTear,         // T
  ToolCut,          // C
  OpenMesh,         // Ctrl+O
  OpenSequence,     // Ctrl+Shift+O
  SaveScene,        // Ctrl+S
  SaveSceneAs,      // Ctrl+Shift+S
  OpenSceneFile,    // Ctrl+L
  Quit,             // Ctrl+Q
  CloseOverlay,     // Escape
  Undo,             // Ctrl+Z
  Redo,             // Ctrl+Shift+Z
  Count
};
constexpr std::size_t kCommandCount = std::size_t(Command::Count);

// The command of a key event (GLFW key and modifier codes; `repeat` for
// auto-repeat while held), or none. Only Step repeats.
std::optional<Command> commandForKey(int key, int mods, bool repeat);

// For the help overlay: what to press, and what it does.
struct Binding {
  const char* keys;
  const char* action;
};
const std::vector<Binding>& keyBindings();
const std::vector<Binding>& mouseBindings();

}  // namespace drape::app
