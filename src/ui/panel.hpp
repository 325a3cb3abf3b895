#pragma once
// The simulation panel, docked at the left edge of the window: run controls,
// scene choice, performance and mesh counts, and every parameter of the
// table. It edits a copy of the parameters and reports what the user asked
// for; the caller decides what to do with it (the UI holds no app state).

#include <optional>
#include <string>
#include <vector>

#include "sim/params.hpp"
#include "sim/world.hpp"

namespace drape::ui {

// Width of the panel in screen coordinates for a window `windowWidth` wide:
// about 320, less in narrow windows so the view keeps most of the space.
float panelWidth(float windowWidth);

struct PanelInput {
  const sim::World* world = nullptr;                 // parameters, timings, counts
  const std::vector<const char*>* scenes = nullptr;  // built-in scene names
  const char* sceneName = "";                        // the current scene (a file for meshes)
  int currentScene = -1;                             // index in scenes; −1: not built in
  const std::vector<double>* stepMs = nullptr;       // step time of each frame so far
  const std::string* error = nullptr;                // shown in red; null or empty: none
  bool playing = false;
  float fps = 0.0f;
  float windowWidth = 1280.0f, windowHeight = 720.0f;  // screen coordinates
};

struct PanelResult {
  bool togglePlay = false;
  bool step = false;
  bool reset = false;
  int switchToScene = -1;             // index in PanelInput::scenes
  std::optional<sim::Params> edited;  // the parameters with the user's change
};

// What the panel keeps between frames: a parameter whose change rebuilds the
// scene is applied when its slider is released, not at every pixel of the
// drag; meanwhile the dragged value lives here.
struct PanelState {
  const sim::ParamDesc* held = nullptr;
  sim::Params heldParams;
};

PanelResult drawSimulationPanel(const PanelInput& input, PanelState& state);

}  // namespace drape::ui
