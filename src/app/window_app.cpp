#include "app/window_app.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#define GLFW_INCLUDE_NONE  // the renderer draws; no GL header needed here
#include <GLFW/glfw3.h>

#include "app/example_scenes.hpp"
#include "app/gl_window.hpp"
#include "app/mesh_loading.hpp"
#include "app/messages.hpp"
#include "app/opening_camera.hpp"
#include "app/outputs.hpp"
#include "app/recent_files.hpp"
#include "app/recorder.hpp"
#include "app/side_by_side.hpp"
#include "app/window_input.hpp"
#include "app/window_state.hpp"
#include "io/video_writer.hpp"
#include "render/antialias.hpp"
#include "render/renderer.hpp"
#include "render/shader_files.hpp"
#include "sim/sim.hpp"
#include "ui/drop_choice.hpp"
#include "ui/file_browser.hpp"
#include "ui/imgui_layer.hpp"
#include "ui/panel.hpp"
#include "ui/viewport_overlay.hpp"

namespace drape::app {
namespace {

int error(const std::string& message, int code) {
  printError(message);
  return code;
}

// The window's title: the scene, and while paused its frame (a window
// manager's task list shows it; the GUI tests wait for it: a reset, a
// single step).
std::string titleFor(const std::string& scene, bool playing, std::uint64_t frame) {
  if (playing) return "drape \u2014 " + scene;
  return "drape \u2014 " + scene + " \u00b7 frame " + std::to_string(frame) + " (paused)";
}

// The toolbar's tools, in the order of app::Tool.
const ui::ToolButton kTools[] = {
    {"Grab", "Grab (G): drag the cloth to pull it; let go to throw it", true},
    {"Pin", "Pin (P): click the cloth to pin or unpin a vertex", true},
    {"Tear", "Tear (T): grab and pull; edges tear beyond the tear ratio (1.5 when the slider is 0)",
     true},
    {"Cut", "Cut (C): drag a stroke over the cloth; every edge it crosses is cut", true},
};
const char* const kToolHints[] = {
    "Grab: drag the cloth, let go to throw; Ctrl+click pins",
    "Pin: click the cloth to pin or unpin a vertex",
    "Tear: grab and pull hard to tear; Ctrl+click pins",
    "Cut: drag a stroke across the cloth to cut it; Shift+drag orbits; Ctrl+click pins",
};

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
  std::vector<ui::HelpLine> keys_, mouse_;
};

Result<void> App::init() {
  GLFWwindow* glfw = window_.handle();
  if (window_.offscreenSamples() >= 0) {
    auto aa = render::Antialias::create(shaders_, window_.offscreenSamples());
    if (!aa) return fail(aa.error());
    antialias_.emplace(std::move(aa.value()));
  }
  renderer_.setScene(session_.world());
  camera_ = openingCamera();
  if (const scene::MeshSceneOptions* o = session_.meshOptions())
    meshShown_ = showMeshOptions(panelState_, *o);
  input_.camera = &camera_;
  input_.session = &session_;
  input_.ui = &ui_;
  // Ours first: ImGui's callbacks chain to those already installed.
  installInputCallbacks(glfw, input_);
  if (auto r = ui_.init(glfw); !r) return r;
  browser_.setRecent(readRecent("recent_meshes"));
  sceneBrowser_.setRecent(readRecent("recent_scenes"));
  sceneSaveBrowser_.setRecent(sceneBrowser_.recent());
  for (const scene::SceneInfo& s : scene::builtinScenes()) scenes_.push_back(s.name);
  builtinCount_ = scenes_.size();
  examples_ = exampleScenes();
  for (const ExampleScene& e : examples_) scenes_.push_back(e.label.c_str());
  for (const Binding& b : keyBindings()) keys_.push_back({b.keys, b.action});
  for (const Binding& b : mouseBindings()) mouse_.push_back({b.keys, b.action});
  videoAvailable_ = !io::findProgram("ffmpeg").empty();
  // What was typed on the command line goes along to other scenes.
  panelState_.keepSettings = !options_.sets.empty();
  if (!options_.compareSets.empty()) {
    std::string text;
    for (const std::string& set : options_.compareSets) text += (text.empty() ? "" : " ") + set;
    std::snprintf(panelState_.compareSets, sizeof panelState_.compareSets, "%s", text.c_str());
    panelState_.compare = true;
    if (auto r = startCompare(); !r) return fail("--compare: " + r.error());
  }
  // Checked before the window opened (main.cpp); a failure now is rare.
  const int fps = int(std::lround(1.0 / double(session_.params().dt)));
  if (!options_.recordPath.empty()) {
    RecordTarget target = recordTargetFor(options_.recordPath, options_.overwrite);
    target.wholeWindow = options_.recordWholeWindow;
    if (auto r = recorder_.start(target, fps, "--record"); !r) return r;
  }
  if (!options_.recordObjPath.empty())
    if (auto r = meshRecorder_.start(objSequenceTarget(options_.recordObjPath, options_.overwrite),
                                     fps, "--record-obj");
        !r)
      return r;
  return {};
}

void App::setError(const std::string& message) {
  uiError_ = message;
  printError(message);
}

void App::updateCrossings() {
  const double t = session_.world().time;
  const bool shown = panelState_.statsOpen || view_.shading == render::Shading::Strain;
  if (!shown ||
      (crossingsTime_ >= 0.0 && t >= crossingsTime_ && t - crossingsTime_ < kCrossingsEvery))
    return;
  crossings_ = sim::countSelfIntersections(session_.world(), &crossedTriangles_);
  crossingsTime_ = t;
}

void App::sceneReplaced(bool newCamera) {
  input_.tools.cancel();  // the held vertex belonged to the old world
  crossingsTime_ = -1.0;
  crossedTriangles_.clear();
  renderer_.setScene(session_.world());
  compare_.sceneReplaced();
  if (!newCamera) return;
  if (const scene::MeshSceneOptions* o = session_.meshOptions())
    meshShown_ = showMeshOptions(panelState_, *o);
  camera_ = openingCamera();
  sceneSaved_.clear();  // the note spoke of the scene before
}

render::Camera App::openingCamera() const {
  int winW = 0, winH = 0;
  glfwGetWindowSize(window_.handle(), &winW, &winH);
  return cameraFor(session_.camera(), session_.world(), viewWidth(winW), float(winH),
                   ui::panelWidth(float(winW)));
}

void App::loadMesh(const std::string& path, int as) {
  const bool collider = (as < 0 ? panelState_.loadAs : as) == ui::kLoadCollider;
  const std::size_t known = collider ? session_.warnings().size() : 0;
  const scene::MeshSceneOptions options = panelMeshOptions(panelState_, path, as);
  if (auto r = collider ? loadMeshCollider(session_, path, options)
                        : loadMeshScene(session_, path, options);
      !r) {
    setError(r.error());  // the current scene stays
    return;
  }
  uiError_.clear();
  rememberMesh(path);
  for (std::size_t i = known; i < session_.warnings().size(); ++i)
    printWarning(session_.warnings()[i]);
  sceneReplaced(!collider);
  if (compare_.active()) updateCompare();
}

void App::saveScene(const std::string& path) {
  if (auto r = saveSceneFile(path, session_.describe(cameraHint())); !r) {
    setError(r.error());
    return;
  }
  uiError_.clear();
  sceneSaved_ = path;
  std::snprintf(panelState_.scenePath, sizeof panelState_.scenePath, "%s", path.c_str());
  rememberScene(path);
  std::fprintf(stderr, "drape: saved the scene to %s\n", path.c_str());
  // Said over the view too, naming the file in full: Ctrl+S happens without
  // a look at the panel.
  std::error_code ec;
  const std::filesystem::path full = std::filesystem::absolute(path, ec);
  notice_ = "Saved the scene to " + (ec ? path : full.lexically_normal().string());
  noticeUntil_ = glfwGetTime() + kNoticeSeconds;
}

void App::loadSceneFile(const std::string& path, const std::string& label) {
  auto next = Session::createFromFile(path, {});
  if (!next) {
    setError(next.error());  // the current scene stays
    return;
  }
  session_ = std::move(next.value());
  session_.setLabel(label);
  uiError_.clear();
  rememberScene(path);
  sceneReplaced(true);
  if (compare_.active()) updateCompare();
}

void App::rememberMesh(const std::string& path) {
  browser_.remember(path);
  keepRecent("recent_meshes", browser_.recent());
}

void App::rememberScene(const std::string& path) {
  sceneBrowser_.remember(path);
  sceneSaveBrowser_.setRecent(sceneBrowser_.recent());
  keepRecent("recent_scenes", sceneBrowser_.recent());
}

void App::keepRecent(const char* name, const std::vector<std::string>& paths) {
  if (recentUnwritable_) return;
  if (auto r = writeRecent(name, paths); !r) {
    recentUnwritable_ = true;
    printWarning("the recent files will not be kept: " + r.error());
  }
}

Result<void> App::startCompare() {
  if (auto r =
          compare_.start(session_, splitSettings(panelState_.compareSets), cameraHint(), shaders_);
      !r)
    return r;
  sceneReplaced(false);
  return {};
}

// After the scene changed or the checkbox was used: the second copy follows.
void App::updateCompare() {
  if (!panelState_.compare) {
    compare_.stop();
    return;
  }
  if (auto r = startCompare(); !r) {
    setError(r.error());
    panelState_.compare = false;
    compare_.stop();
  }
}

void App::startRecording(const RecordTarget& target) {
  const int fps = int(std::lround(1.0 / double(session_.params().dt)));
  if (auto r = recorder_.start(target, fps); !r) setError(r.error());
}

void App::stopRecording() {
  if (auto r = recorder_.stop(); !r) setError(r.error());
}

void App::recordFrames(bool panelsDrawn, int winW, int fbW, int fbH) {
  for (Recorder* recorder : {&recorder_, &meshRecorder_}) {
    if (!recorder->recording()) continue;
    const bool view = recorder->recordsPixels() && !recorder->target().wholeWindow;
    if (view == panelsDrawn) continue;
    const int left = view ? int(ui::panelWidth(float(winW)) * float(fbW) / float(winW)) : 0;
    if (auto r = recorder->recordFrame(fbW, fbH, session_.world(), left); !r) {
      setError(r.error());
      recordFailed_ = true;
    }
  }
}

void App::applyCommands() {
  if (input_.take(Command::ToggleWireframe)) view_.wireframe = !view_.wireframe;
  if (input_.take(Command::CycleView)) view_ = preset(view_, (presetOf(view_) + 1) % 3);
  if (input_.take(Command::ViewShaded)) view_ = preset(view_, 0);
  if (input_.take(Command::ViewWireframe)) view_ = preset(view_, 1);
  if (input_.take(Command::ViewStrain)) view_ = preset(view_, 2);
  if (input_.take(Command::Frame)) frameCloth(camera_, session_.world());
  if (input_.take(Command::ToggleHelp)) showHelp_ = !showHelp_;
  if (input_.take(Command::CloseOverlay)) showHelp_ = false;
  if (input_.take(Command::ToolGrab)) input_.tools.tool = Tool::Grab;
  if (input_.take(Command::ToolPin)) input_.tools.tool = Tool::Pin;
  if (input_.take(Command::ToolTear)) input_.tools.tool = Tool::Tear;
  if (input_.take(Command::ToolCut)) input_.tools.tool = Tool::Cut;
  if (input_.take(Command::OpenMesh)) browser_.open();
  if (input_.take(Command::SaveScene)) saveScene(panelState_.scenePath);
  if (input_.take(Command::SaveSceneAs)) sceneSaveBrowser_.open(panelState_.scenePath);
  if (input_.take(Command::OpenSceneFile)) sceneBrowser_.open();
  input_.take(Command::Quit);  // glfwSetWindowShouldClose did it
  if (input_.dropped) {
    input_.dropped = false;
    if (input_.droppedPath.empty())
      setError(input_.dropError);
    else
      dropped_ = input_.droppedPath;  // drawPanels asks what it becomes
  }
}

void App::applyPanel(const ui::PanelResult& asked) {
  const bool resetKey = input_.take(Command::Reset);
  if (asked.reset || resetKey) {
    // A mesh scene takes the panel's pin, up axis and scale where they
    // changed; another up or scale moves it, and the camera frames it again.
    const scene::MeshSceneOptions* o = session_.meshOptions();
    const auto changed = o ? changedMeshOptions(*o, panelState_, meshShown_) : std::nullopt;
    const bool moved = changed && (changed->zUp != o->zUp || changed->scale != o->scale);
    const Result<void> r = changed ? session_.reloadMesh(*changed) : session_.reset();
    report(r);
    if (r && changed) meshShown_ = {panelState_.loadPin, panelState_.loadUp, panelState_.loadScale};
    sceneReplaced(moved && r);
    if (compare_.active()) updateCompare();
  }
  const std::size_t picked = std::size_t(asked.switchToScene);
  if (asked.switchToScene >= 0 && picked >= builtinCount_) {
    loadSceneFile(examples_[picked - builtinCount_].path, examples_[picked - builtinCount_].label);
  } else if (asked.switchToScene >= 0) {
    const Result<void> r =
        session_.switchScene(scenes_[std::size_t(asked.switchToScene)], panelState_.keepSettings);
    report(r);
    if (r) sceneReplaced(true);
    if (r && compare_.active()) updateCompare();
  }
  if (asked.edited) {
    const bool rebuild = sim::needsRebuild(session_.params(), *asked.edited);
    const Result<void> r = session_.applyParams(*asked.edited);
    report(r);
    if (rebuild) sceneReplaced(false);
    if (r && compare_.active()) {
      // The same change on the right, under the right's own settings.
      if (rebuild)
        updateCompare();
      else
        report(compare_.applyParams(*asked.edited));
    }
  }
  if (asked.removeCollider >= 0) {
    // A row's colliders, one after another at the same index.
    Result<void> r;
    for (int i = 0; i < asked.removeCount && r; ++i)
      r = session_.removeCollider(std::size_t(asked.removeCollider));
    report(r);
    if (r) sceneReplaced(false);
    if (r && compare_.active()) updateCompare();
  }
  if (asked.compareChanged) updateCompare();
  if (asked.openMesh) browser_.open();
  if (asked.saveSceneAs) sceneSaveBrowser_.open(panelState_.scenePath);
  if (asked.openSceneFile) sceneBrowser_.open();
  if (asked.startRecording) startRecording(panelRecordTarget(panelState_));
  if (asked.stopRecording) stopRecording();
}

void App::applyViewport(const ui::ViewportResult& asked) {
  if (asked.pickTool >= 0 && asked.pickTool < int(std::size(kTools)) &&
      kTools[asked.pickTool].enabled)
    input_.tools.tool = Tool(asked.pickTool);
  if (asked.view) view_ = *asked.view;
  if (asked.frame) frameCloth(camera_, session_.world());
  if (asked.toggleHelp) showHelp_ = !showHelp_;
  if (asked.dismissError) uiError_.clear();
}

ui::PanelResult App::drawPanels(int winW, int winH) {
  ui::PanelInput panel;
  panel.world = &session_.world();
  panel.scenes = &scenes_;
  panel.sceneName = session_.label().c_str();
  panel.currentScene = sceneIndex(scenes_, session_.label());
  panel.stepMs = &session_.stepMs();
  panel.compareStepMs = compare_.stepMs();
  panel.crossings = crossings_;
  panel.sceneSaved = sceneSaved_.c_str();
  const std::vector<ui::ColliderRow> colliders = colliderRows(session_);
  panel.colliders = &colliders;
  panel.facts = factsOf(session_);  // every frame: tearing changes the counts
  panel.record = {recorder_.recording(),  recorder_.frames(),
                  videoAvailable_,        recorder_.target().path.c_str(),
                  recorder_.msPerFrame(), recorder_.framesBehind()};
  panel.playing = playing_;
  panel.fps = fps_.fps;
  panel.windowWidth = float(winW);
  panel.windowHeight = float(winH);
  const ui::PanelResult asked = ui::drawSidePanel(panel, panelState_);

  ui::ViewportInput vp;
  vp.left = ui::panelWidth(float(winW));
  vp.width = float(winW) - vp.left;
  vp.height = float(winH);
  vp.tools = kTools;
  vp.toolCount = int(std::size(kTools));
  vp.activeTool = int(input_.tools.tool);
  vp.view = view_;
  vp.playing = playing_;
  vp.time = session_.world().time;
  vp.fps = fps_.fps;
  vp.error = &uiError_;
  if (!notice_.empty() && glfwGetTime() > noticeUntil_) notice_.clear();
  vp.notice = &notice_;
  vp.recording = recorder_.recording();
  vp.recordedFrames = recorder_.frames();
  vp.hint = kToolHints[int(input_.tools.tool)];
  vp.showHelp = showHelp_;
  vp.keys = keys_.data();
  vp.keyCount = int(keys_.size());
  vp.mouse = mouse_.data();
  vp.mouseCount = int(mouse_.size());
  vp.stroke = &input_.tools.strokeTrail();
  vp.crossings = crossings_.value_or(0);
  viewportAsked_ = ui::drawViewportOverlay(vp);

  if (const auto chosen = browser_.draw()) loadMesh(*chosen);
  if (const int as = ui::drawDropChoice(dropped_); as >= 0) {
    if (as > 0) loadMesh(dropped_, as);
    dropped_.clear();
  }
  if (const auto chosen = sceneBrowser_.draw()) loadSceneFile(*chosen);
  if (const auto chosen = sceneSaveBrowser_.draw()) saveScene(*chosen);
  compare_.drawLabels(session_, winW, winH);
  return asked;
}

void App::drawViews(int winW, int winH, int fbW, int fbH, std::uint32_t hovered) {
  render::ViewOptions view = view_;
  view.crossed = &crossedTriangles_;
  if (compare_.active())
    compare_.draw(renderer_, session_.world(), camera_, view, view_, hovered, winW, winH, fbW, fbH);
  else
    renderer_.draw(session_.world(), camera_, fbW, fbH, view, hovered);
}

int App::run() {
  GLFWwindow* glfw = window_.handle();
  // With --frames the run is a fixed workload: always playing, N frames, then exit.
  const bool fixedRun = options_.frames.has_value();
  const int framesToRun = options_.frames.value_or(0);
  int framesRun = 0;

  while (!glfwWindowShouldClose(glfw)) {
    if (fixedRun && framesRun >= framesToRun) break;
    glfwPollEvents();
    int winW = 0, winH = 0, fbW = 0, fbH = 0;
    glfwGetWindowSize(glfw, &winW, &winH);
    glfwGetFramebufferSize(glfw, &fbW, &fbH);
    if (fbW == 0 || fbH == 0) {  // minimised: nothing to draw, nothing to wait for
      if (!fixedRun) glfwWaitEventsTimeout(0.1);
      continue;
    }
    // Side by side, the left copy's view ends half way across the free part.
    camera_.setViewport(viewWidth(winW), float(winH), ui::panelWidth(float(winW)));
    camera_.floorY = renderer_.floorHeight();

    ui_.beginFrame();
    const ui::PanelResult asked = drawPanels(winW, winH);
    const bool stepKey = input_.takeStep(), playKey = input_.take(Command::TogglePlay);
    const bool stepOnce = (asked.step || stepKey) && !fixedRun;
    if ((asked.togglePlay || playKey) && !fixedRun) playing_ = !playing_;
    // What the user asked for: an action that runs out of memory (loading a
    // huge mesh) changes nothing, says so and pauses; the scene stays.
    try {
      applyCommands();
      applyPanel(asked);
      applyViewport(viewportAsked_);
    } catch (const std::bad_alloc&) {
      setError("out of memory: that action was not carried out");
      playing_ = false;
    } catch (const std::length_error&) {
      setError("out of memory: that action was not carried out");
      playing_ = false;
    }

    input_.tools.update(camera_, session_.world());
    bool stepped = false;
    if (playing_ || stepOnce) {
      ++framesRun;
      if (auto r = compare_.step(); !r) setError(r.error());
      if (session_.step()) {
        stepped = true;
      } else {
        // The watchdog rolled the world back to its last good frame. A fixed
        // run ends as a headless one does (outputs of that frame, exit 1);
        // otherwise pause and say why.
        if (fixedRun) {
          error(session_.lastError(), 1);
          if (auto r = writeOutputs(session_, options_); !r) error(r.error(), 1);
          (void)recorder_.stop();
          (void)meshRecorder_.stop();
          return 1;
        }
        playing_ = false;
        uiError_ = session_.lastError();
      }
    }

    if (std::string title = titleFor(session_.label(), playing_, session_.world().frame);
        title != titled_) {
      window_.setTitle(title);
      titled_ = std::move(title);
    }
    updateCrossings();
    // The vertex a click would take, while nothing else has the mouse.
    std::uint32_t hovered = render::kNoVertex;
    if (!ui_.wantsMouse() && !input_.control.dragging() && !input_.tools.holding() &&
        input_.cursorInside) {
      if (const auto v = input_.tools.vertexUnderCursor(camera_, session_.world())) hovered = *v;
    }
    if (antialias_) antialias_->begin(fbW, fbH);
    drawViews(winW, winH, fbW, fbH, hovered);
    if (antialias_) {
      // Each view where it has edges, right of the panel.
      const int panel = int(ui::panelWidth(float(winW)) * float(fbW) / float(winW));
      const render::PixelRect free{panel, 0, fbW - panel, fbH};
      antialias_->finish({render::intersect(renderer_.edgeArea(), free),
                          render::intersect(compare_.edgeArea(), free)});
    }
    // One recorded file per simulated frame: the view as drawn, the window
    // with the panels over it, or the cloth.
    if (stepped) recordFrames(false, winW, fbW, fbH);
    ui_.endFrame();
    if (stepped) recordFrames(true, winW, fbW, fbH);
    glfwSwapBuffers(glfw);
    fps_.frame(glfwGetTime());
  }

  int code = 0;
  for (Recorder* recorder : {&recorder_, &meshRecorder_})
    if (auto r = recorder->stop(); !r) {
      error(r.error(), 1);
      code = 1;
    }
  if (recordFailed_ && (!options_.recordPath.empty() || !options_.recordObjPath.empty())) code = 1;
  if (!fixedRun) return code;
  if (auto r = writeOutputs(session_, options_); !r) return error(r.error(), 1);
  return code;
}

}  // namespace

int runWindow(Session& session, const Options& options) {
  // Shaders first: a missing file is reported the same way with or without a display.
  std::vector<std::string> files = render::Renderer::shaderFiles();
  for (const std::string& f : render::Antialias::shaderFiles()) files.push_back(f);
  auto shaders = render::loadShaderSources(files);
  if (!shaders) return error(shaders.error(), 2);
  auto window = GlWindow::open(options.width, options.height, titleFor(session.label(), true, 0));
  if (!window)
    return error(
        "cannot open a window (" + window.error() + "); use --headless for runs without a display",
        2);
  auto created = render::Renderer::create(shaders.value());
  if (!created) return error(created.error(), 2);
  App app(session, options, *window.value(), created.value(), shaders.value());
  if (auto r = app.init(); !r) return error(r.error(), 2);
  return app.run();
}

}  // namespace drape::app
