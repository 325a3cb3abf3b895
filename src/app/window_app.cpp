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
#include "app/window_app_detail.hpp"
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

}  // namespace

Result<void> App::init() {
  GLFWwindow* glfw = window_.handle();
  if (window_.offscreenSamples() >= 0) {
    auto aa = render::Antialias::create(shaders_, window_.offscreenSamples());
    if (!aa) return fail(aa.error());
    antialias_.emplace(std::move(aa.value()));
  }
  renderer_.setScene(session_.world());
  keepFrame();  // the opening frame, to scrub back to
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
  panel.history = historyStatus();
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
  if (const auto chosen = sequenceBrowser_.draw()) loadSequence(*chosen);
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
      applyHistory(asked);
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
        keepFrame();  // from a frame scrubbed back to: the later ones go
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
