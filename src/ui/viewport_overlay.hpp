#pragma once
// What is drawn over the 3D view (the part of the window right of the side
// panel): the toolbar (mouse tools, view modes, frame, help), an error
// banner, the strain legend, a recording indicator, a status line and the
// help overlay. Like the panel it reports what the user asked for and holds
// no app state; the tools and bindings come from the app as plain labels.

#include <optional>
#include <string>
#include <vector>

#include "render/renderer.hpp"

namespace drape::ui {

struct ToolButton {
  const char* label;
  const char* tooltip;
  bool enabled;
};

struct HelpLine {
  const char* keys;
  const char* action;
};

struct ViewportInput {
  float left = 0.0f, width = 1280.0f, height = 720.0f;  // the free area, screen coordinates
  const ToolButton* tools = nullptr;
  int toolCount = 0;
  int activeTool = 0;
  render::ViewOptions view;
  bool playing = true;
  double time = 0.0;                   // simulated seconds
  float fps = 0.0f;                    // frames drawn per second (0: not yet known)
  const std::string* error = nullptr;  // the banner; null or empty: none
  // A green banner saying what was done ("saved the scene to ..."), where
  // no error banner is shown; null or empty: none.
  const std::string* notice = nullptr;
  bool recording = false;
  int recordedFrames = 0;
  const char* hint = "";  // one line about the active tool
  bool showHelp = false;
  const HelpLine* keys = nullptr;
  int keyCount = 0;
  const HelpLine* mouse = nullptr;
  int mouseCount = 0;
  const std::vector<glm::vec2>* stroke = nullptr;  // the Cut stroke under way (screen points)
  std::size_t crossings =
      0;  // edges of the cloth through its own triangles (the strain view's magenta)
};

struct ViewportResult {
  int pickTool = -1;                        // index in ViewportInput::tools
  std::optional<render::ViewOptions> view;  // changed view options
  bool frame = false;
  bool toggleHelp = false;
  bool dismissError = false;
};

ViewportResult drawViewportOverlay(const ViewportInput& input);

// Side by side: a divider at x = `split` (screen coordinates) and a label
// at the top of each half, the left half starting at `left`.
void drawSideBySideLabels(float left, float split, float height, const char* leftText,
                          const char* rightText);

}  // namespace drape::ui
