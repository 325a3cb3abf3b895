#pragma once
// The side panel, docked at the left edge of the window: run controls, then
// collapsible sections (Scene, Simulation with every parameter of the table,
// Record, Stats). It edits a copy of the parameters and reports what the user
// asked for; the caller decides what to do with it (the UI holds no app
// state beyond its widgets').

#include <optional>
#include <string>
#include <vector>

#include "sim/sim.hpp"

namespace drape::ui {

// Width of the panel in screen coordinates for a window `windowWidth` wide:
// about 320, less in narrow windows so the view keeps most of the space.
float panelWidth(float windowWidth);

// Facts about the current scene's mesh, worked out once per scene.
struct SceneFacts {
  std::size_t vertices = 0, triangles = 0, pieces = 0;
  bool closed = false;
  const std::vector<std::string>* repairs = nullptr;  // what loading repaired or ignored
};

// One of the scene's colliders as the Scene panel lists it, or a run of
// alike ones (the barrel's 19 turning boxes) in one row.
struct ColliderRow {
  std::string label;       // "mesh statue.obj", "sphere", "19 boxes (turning)"
  bool removable = false;  // false for those that show rigid bodies
  std::size_t first = 0;   // the first collider's index in the world
  std::size_t count = 1;   // how many, from `first` on
};

struct RecordStatus {
  bool recording = false;
  int frames = 0;               // written so far (or by the last recording)
  bool videoAvailable = false;  // ffmpeg is installed
  const char* target = "";      // what is (or was last) written
  double msPerFrame = 0.0;      // mean time writing one frame
  int behind = 0;               // frames handed to the writer, not yet on disk
};

// The undo history and the timeline, as the panel shows them.
struct HistoryStatus {
  std::string undo, redo;  // what undo and redo would give back ("" none)
  std::size_t undoBytes = 0, undoBudget = 0;
  int frames = 0;  // kept in the timeline
  int shown = -1;  // the kept frame in the view (0 the oldest), −1 the newest (live)
  std::uint64_t firstFrame = 0, lastFrame = 0;  // the kept frames' numbers
  double span = 0.0;                            // s from the oldest kept frame to the newest
  std::size_t timelineBytes = 0, timelineBudget = 0;
  bool scrubbable = true;  // false side by side (the right copy keeps no timeline)
};

struct PanelInput {
  const sim::World* world = nullptr;                 // parameters, timings, counts
  const std::vector<const char*>* scenes = nullptr;  // built-in scene names
  const char* sceneName = "";                        // the current scene (a file for meshes)
  int currentScene = -1;                             // index in scenes; −1: not built in
  const std::vector<double>* stepMs = nullptr;       // step time of each frame so far
  double compareStepMs = -1.0;                       // side by side: the right's; −1 none
  // Edges of the cloth through its own triangles (none: too dense to count).
  std::optional<std::size_t> crossings;
  const char* sceneSaved = "";                          // where the last save went ("" none)
  const std::vector<ColliderRow>* colliders = nullptr;  // in the world's order
  SceneFacts facts;
  RecordStatus record;
  HistoryStatus history;
  bool playing = false;
  float fps = 0.0f;
  float windowWidth = 1280.0f, windowHeight = 720.0f;  // screen coordinates
};

enum class RecordChoice { PngSequence, Mp4, ObjSequence };

struct PanelResult {
  bool togglePlay = false;
  bool step = false;
  bool reset = false;
  int switchToScene = -1;             // index in PanelInput::scenes
  std::optional<sim::Params> edited;  // the parameters with the user's change
  bool openMesh = false;              // "Load OBJ…": open the file browser
  int removeCollider = -1;            // "Remove" pressed: the first collider's index
  int removeCount = 0;                // and how many from there (the row's)
  bool saveSceneAs = false;           // "Save scene...": open the save browser
  bool openSceneFile = false;         // "Load scene…": open the scene-file browser
  bool compareChanged = false;        // side by side switched, or its settings edited
  bool startRecording = false;        // as PanelState's record fields say
  bool stopRecording = false;
  bool undo = false, redo = false;
  int scrubTo = -1;  // the timeline's slider moved: the kept frame to show
  // A widget is held (a slider dragged, a field typed in): a parameter
  // edit goes on, to be undone in one step once it ends.
  bool editing = false;
};

// The Scene panel's choices of what a loaded OBJ becomes (PanelState::loadAs).
enum LoadAs : int { kLoadAuto, kLoadCloth, kLoadBalloon, kLoadCollider };

// What the panel keeps between frames.
struct PanelState {
  // A parameter whose change rebuilds the scene is applied when its slider
  // is released, not at every pixel of the drag; meanwhile the dragged
  // value lives here.
  const sim::ParamDesc* held = nullptr;
  sim::Params heldParams;
  // Whether a scene picked from the list takes the user's settings along
  // (every parameter that differs from the current scene's own).
  bool keepSettings = false;
  // How the next OBJ loads: as (LoadAs: auto, cloth, balloon, or a collider
  // added to the scene), pin ∈ {none, top}, its up axis ∈ {y, z} and its
  // scale (file units to metres), as --as (or --collider), --pin, --up and --scale.
  int loadAs = kLoadAuto, loadPin = 0, loadUp = 0;
  float loadScale = 1.0f;
  RecordChoice recordFormat = RecordChoice::PngSequence;
  char recordFolder[512] = "drape_frames";
  char recordVideo[512] = "drape.mp4";
  char recordMeshFolder[512] = "drape_meshes";
  bool recordOverwrite = false;              // into a folder that already has files
  bool recordWholeWindow = false;            // images of the window, not the view alone
  char scenePath[512] = "drape_scene.json";  // where Ctrl+S writes (and Save scene... starts)
  bool statsOpen = false;                    // the Stats section was open in the last frame
  // Side by side: the scene twice, these KEY=VALUE settings on the right.
  bool compare = false;
  char compareSets[256] = "solver=mass-spring";
};

PanelResult drawSidePanel(const PanelInput& input, PanelState& state);

}  // namespace drape::ui
