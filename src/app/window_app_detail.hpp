#pragma once
// The window app's state between frames and its member functions: the frame
// loop and drawing in window_app.cpp, the actions the panels, keys and
// browsers ask for (files, scenes, side by side, recording) in
// window_actions.cpp, undo, redo and the timeline in window_history.cpp.
// Only those files include it.

#include <optional>
#include <string>
#include <vector>

#include "app/cli.hpp"
#include "app/example_scenes.hpp"
#include "app/gl_window.hpp"
#include "app/history.hpp"
#include "app/recorder.hpp"
#include "app/side_by_side.hpp"
#include "app/timeline.hpp"
#include "app/window_input.hpp"
#include "app/window_state.hpp"
#include "render/antialias.hpp"
#include "render/renderer.hpp"
#include "render/shader_files.hpp"
#include "ui/file_browser.hpp"
#include "ui/imgui_layer.hpp"
#include "ui/panel.hpp"
#include "ui/viewport_overlay.hpp"

namespace drape::app {

// Everything the window's frame loop keeps between frames.
class App {
 public:
  App(Session& session, const Options& options, GlWindow& window, render::Renderer& renderer,
      render::ShaderSources shaders)
      : session_(session),
        options_(options),
        window_(window),
        renderer_(renderer),
        shaders_(std::move(shaders)) {}

  Result<void> init();
  int run();

 private:
  void applyCommands();
  void applyPanel(const ui::PanelResult& asked);
  void applyViewport(const ui::ViewportResult& asked);
  void sceneReplaced(bool newCamera);
  // The current scene's opening camera, for the window as it is now.
  render::Camera openingCamera() const;
  // The left view's width in screen coordinates (side by side: up to the split).
  float viewWidth(int winW) const {
    return compare_.active() ? SideBySide::split(winW) : float(winW);
  }
  // As the Scene panel's "as" says, or `as` (a ui::LoadAs) when not −1.
  void loadMesh(const std::string& path, int as = -1);
  // An OBJ sequence (a folder, or a frame in it) as a deforming collider.
  void loadSequence(const std::string& path);
  void saveScene(const std::string& path);
  scene::CameraHint cameraHint() const {
    return {camera_.target, camera_.distance, camera_.yaw, camera_.pitch};
  }
  // Side by side: (re)start both copies from the current scene's start, or stop.
  Result<void> startCompare();
  void updateCompare();
  void drawViews(int winW, int winH, int fbW, int fbH, std::uint32_t hovered);
  // `label`: what the window calls it (an example's name in the picker).
  void loadSceneFile(const std::string& path, const std::string& label = {});
  // A file used: to the top of its browsers' recent lists, kept for later runs.
  void rememberMesh(const std::string& path);
  void rememberScene(const std::string& path);
  void keepRecent(const char* name, const std::vector<std::string>& paths);
  void startRecording(const RecordTarget& target);
  void stopRecording();
  // The frame just simulated to the recordings that take it now: before the
  // panels are drawn over the view (`panelsDrawn` false) or after.
  void recordFrames(bool panelsDrawn, int winW, int fbW, int fbH);
  void report(const Result<void>& r) { uiError_ = r ? std::string() : r.error(); }
  void setError(const std::string& message);
  ui::PanelResult drawPanels(int winW, int winH);

  Session& session_;
  const Options& options_;
  GlWindow& window_;
  render::Renderer& renderer_;
  render::Camera camera_;
  render::ViewOptions view_;
  ui::ImGuiLayer ui_;
  WindowInput input_;
  ui::PanelState panelState_;
  MeshPanel meshShown_;  // the panel's pin, up and scale as the scene's mesh loaded
  ui::FileBrowser browser_;
  ui::FileBrowser sceneBrowser_{"Load scene", ".json"};
  // A folder of frame_00000.obj, ... or one of its frames.
  ui::FileBrowser sequenceBrowser_{"Load OBJ sequence as collider", ".obj",
                                   ui::FileBrowser::Mode::Folder};
  ui::FileBrowser sceneSaveBrowser_{"Save scene", ".json", ui::FileBrowser::Mode::Save};
  render::ShaderSources shaders_;
  // The offscreen target, when the window's framebuffer does not anti-alias.
  std::optional<render::Antialias> antialias_;
  SideBySide compare_;
  std::string sceneSaved_;              // where the last Save scene wrote
  std::string dropped_;                 // an OBJ dropped on the window, until it is said what for
  std::vector<const char*> scenes_;     // the picker's: built-in scenes, then examples
  std::size_t builtinCount_ = 0;        // how many of scenes_ are built in
  std::vector<ExampleScene> examples_;  // the rest of scenes_
  Recorder recorder_;                   // the Record panel's, or --record's
  Recorder meshRecorder_;               // --record-obj's, beside any other recording
  bool videoAvailable_ = false;
  std::string uiError_;
  std::string notice_;        // the green banner: what was just done
  double noticeUntil_ = 0.0;  // when it goes (glfwGetTime)
  static constexpr double kNoticeSeconds = 4.0;
  bool recordFailed_ = false;      // a --record run whose recording broke exits 1
  bool recentUnwritable_ = false;  // said once: the recent files cannot be kept
  FpsCounter fps_;
  bool playing_ = true;
  std::string titled_;  // what the title says
  bool showHelp_ = false;
  // The cloth's crossings through itself, counted every kCrossingsEvery
  // simulated seconds while the Stats panel or the strain view shows them.
  static constexpr double kCrossingsEvery = 0.2;
  std::optional<std::size_t> crossings_ = 0;
  std::vector<std::uint32_t> crossedTriangles_;
  double crossingsTime_ = -1.0;  // when they were counted; −1: not for this scene
  void updateCrossings();
  ui::ViewportResult viewportAsked_;

  // Undo, redo and the timeline (window_history.cpp). A snapshot is the
  // session before an action, and the run it belongs to: a number changed
  // whenever the scene is built anew, so that the timeline never joins the
  // frames of two runs.
  struct Snapshot {
    Session session;
    std::uint64_t run = 0;
  };
  static constexpr std::size_t kUndoBudget = std::size_t(64) << 20;
  static constexpr std::size_t kTimelineBudget = std::size_t(128) << 20;
  History<Snapshot> history_{kUndoBudget};
  Timeline timeline_{kTimelineBudget};
  std::uint64_t run_ = 0;
  int shown_ = -1;         // the kept frame in the view, −1: the newest (the world goes on)
  bool editOpen_ = false;  // a parameter edit under way has its undo step already
  Snapshot snapshot() const { return {session_, run_}; }
  // After an action named `what` changed the scene: `before` to undo it.
  void remember(std::string what, Snapshot before);
  void newRun() { ++run_; }
  // The world as it is now into the timeline, as its newest frame.
  void keepFrame();
  void undo();
  void redo();
  void restore(Snapshot snapshot, const std::string& notice);
  void scrubTo(int index);
  // Keys, the panel's buttons and slider, and the mouse tools' finished actions.
  void applyHistory(const ui::PanelResult& asked);
  ui::HistoryStatus historyStatus() const;
  void say(const std::string& notice);
  std::vector<ui::HelpLine> keys_, mouse_;
};

}  // namespace drape::app
