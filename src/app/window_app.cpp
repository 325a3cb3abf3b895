#include "app/window_app.hpp"

#include <cstdio>
#include <string>
#include <vector>

#define GLFW_INCLUDE_NONE  // the renderer draws; no GL header needed here
#include <GLFW/glfw3.h>

#include "app/camera_control.hpp"
#include "app/gl_window.hpp"
#include "app/outputs.hpp"
#include "render/renderer.hpp"
#include "render/shader_files.hpp"
#include "ui/imgui_layer.hpp"
#include "ui/panel.hpp"

namespace drape::app {
namespace {

int error(const std::string& message, int code) {
  std::fprintf(stderr, "drape: error: %s\n", message.c_str());
  return code;
}

std::string titleFor(const std::string& scene) {
  return "drape \u2014 " + scene;
}

render::Camera cameraFor(const scene::CameraHint& hint) {
  render::Camera c;
  c.target = hint.target;
  c.distance = hint.distance;
  c.yaw = hint.yaw;
  c.pitch = hint.pitch;
  return c;
}

// What the GLFW callbacks see (through the window's user pointer) and gather
// between two frames.
struct Input {
  CameraControl control;
  render::Camera* camera = nullptr;
  const ui::ImGuiLayer* ui = nullptr;
  bool togglePlay = false, step = false, reset = false;
};

Input& inputOf(GLFWwindow* window) {
  return *static_cast<Input*>(glfwGetWindowUserPointer(window));
}

void onMouseButton(GLFWwindow* window, int button, int action, int) {
  Input& in = inputOf(window);
  MouseButton b = MouseButton::Left;
  if (button == GLFW_MOUSE_BUTTON_RIGHT)
    b = MouseButton::Right;
  else if (button == GLFW_MOUSE_BUTTON_MIDDLE)
    b = MouseButton::Middle;
  else if (button != GLFW_MOUSE_BUTTON_LEFT)
    return;
  if (action == GLFW_RELEASE) {
    in.control.release(b);  // always, so a drag never sticks
    return;
  }
  if (in.ui->wantsMouse()) return;
  double x = 0, y = 0;
  glfwGetCursorPos(window, &x, &y);
  in.control.press(b, x, y);
}

void onCursor(GLFWwindow* window, double x, double y) {
  Input& in = inputOf(window);
  in.control.move(x, y, *in.camera);
}

void onScroll(GLFWwindow* window, double, double dy) {
  Input& in = inputOf(window);
  if (!in.ui->wantsMouse()) in.control.scroll(dy, *in.camera);
}

void onKey(GLFWwindow* window, int key, int, int action, int mods) {
  Input& in = inputOf(window);
  if (action == GLFW_RELEASE || in.ui->wantsKeyboard()) return;
  if (key == GLFW_KEY_Q && mods == GLFW_MOD_CONTROL) glfwSetWindowShouldClose(window, GLFW_TRUE);
  if (mods != 0) return;
  if (key == GLFW_KEY_SPACE && action == GLFW_PRESS) in.togglePlay = true;
  if (key == GLFW_KEY_S) in.step = true;  // held down, it keeps stepping
  if (key == GLFW_KEY_R && action == GLFW_PRESS) in.reset = true;
}

// Frames per second over half-second windows: steady enough to read.
struct FpsCounter {
  double start = -1.0;
  int frames = 0;
  float fps = 0.0f;
  void frame(double now) {
    if (start < 0.0) start = now;
    ++frames;
    if (now - start >= 0.5) {
      fps = float(frames / (now - start));
      start = now;
      frames = 0;
    }
  }
};

bool needsRebuild(const sim::Params& before, const sim::Params& after) {
  for (const sim::ParamDesc& d : sim::paramTable())
    if (d.rebuild && sim::formatParam(before, d) != sim::formatParam(after, d)) return true;
  return false;
}

int sceneIndex(const std::vector<const char*>& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (name == names[i]) return int(i);
  return -1;
}

}  // namespace

int runWindow(Session& session, const Options& options) {
  // Shaders first: a missing file is reported the same way with or without a display.
  auto shaders = render::loadShaderSources(render::Renderer::shaderFiles());
  if (!shaders) return error(shaders.error(), 2);
  auto window = GlWindow::open(options.width, options.height, titleFor(session.sceneName()));
  if (!window)
    return error(
        "cannot open a window (" + window.error() + "); use --headless for runs without a display",
        2);
  GLFWwindow* glfw = window.value()->handle();
  auto created = render::Renderer::create(shaders.value());
  if (!created) return error(created.error(), 2);
  render::Renderer& renderer = created.value();
  renderer.setScene(session.world());

  render::Camera camera = cameraFor(session.camera());
  ui::ImGuiLayer ui;
  Input input;
  input.camera = &camera;
  input.ui = &ui;
  // Ours first: ImGui's callbacks chain to those already installed.
  glfwSetWindowUserPointer(glfw, &input);
  glfwSetMouseButtonCallback(glfw, onMouseButton);
  glfwSetCursorPosCallback(glfw, onCursor);
  glfwSetScrollCallback(glfw, onScroll);
  glfwSetKeyCallback(glfw, onKey);
  if (auto r = ui.init(glfw); !r) return error(r.error(), 2);

  std::vector<const char*> scenes;
  for (const scene::SceneInfo& s : scene::builtinScenes()) scenes.push_back(s.name);
  ui::PanelState panelState;
  ui::PanelInput panel;
  panel.scenes = &scenes;
  std::string uiError;
  panel.error = &uiError;
  FpsCounter fps;
  // With --frames the run is a fixed workload: always playing, N frames, then exit.
  const bool fixedRun = options.frames.has_value();
  const int framesToRun = options.frames.value_or(0);
  int framesRun = 0;
  bool playing = true;

  auto report = [&](const Result<void>& r) { uiError = r ? std::string() : r.error(); };

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

    ui.beginFrame();
    panel.world = &session.world();
    panel.sceneName = session.sceneName().c_str();
    panel.currentScene = sceneIndex(scenes, session.sceneName());
    panel.stepMs = &session.stepMs();
    panel.playing = playing;
    panel.fps = fps.fps;
    panel.windowWidth = float(winW);
    panel.windowHeight = float(winH);
    const ui::PanelResult asked = ui::drawSimulationPanel(panel, panelState);

    const bool stepOnce = (asked.step || input.step) && !fixedRun;
    if ((asked.togglePlay || input.togglePlay) && !fixedRun) playing = !playing;
    if (asked.reset || input.reset) {
      report(session.reset());
      renderer.setScene(session.world());
    }
    if (asked.switchToScene >= 0) {
      const Result<void> r = session.switchScene(scenes[std::size_t(asked.switchToScene)]);
      report(r);
      if (r) {
        renderer.setScene(session.world());
        window.value()->setTitle(titleFor(session.sceneName()));
        camera = cameraFor(session.camera());
      }
    }
    if (asked.edited) {
      const bool rebuild = needsRebuild(session.params(), *asked.edited);
      report(session.applyParams(*asked.edited));
      if (rebuild) renderer.setScene(session.world());
    }
    input.togglePlay = input.step = input.reset = false;

    if (playing || stepOnce) {
      ++framesRun;
      if (!session.step()) {
        // The watchdog rolled the world back to its last good frame. A fixed
        // run ends as a headless one does (outputs of that frame, exit 1);
        // otherwise pause and say why.
        if (fixedRun) {
          error(session.lastError(), 1);
          if (auto r = writeOutputs(session, options); !r) error(r.error(), 1);
          return 1;
        }
        playing = false;
        uiError = session.lastError();
      }
    }

    camera.setViewport(float(winW), float(winH), ui::panelWidth(float(winW)));
    renderer.draw(session.world(), camera, fbW, fbH);
    ui.endFrame();
    glfwSwapBuffers(glfw);
    fps.frame(glfwGetTime());
  }

  if (!fixedRun) return 0;
  if (auto r = writeOutputs(session, options); !r) return error(r.error(), 1);
  return 0;
}

}  // namespace drape::app
