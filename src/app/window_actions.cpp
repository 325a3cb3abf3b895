#include <optional>
#include <string>
#include <vector>

#define GLFW_INCLUDE_NONE  // no GL header needed here
#include <GLFW/glfw3.h>

#include "app/mesh_loading.hpp"
#include "app/messages.hpp"
#include "app/opening_camera.hpp"
#include "app/outputs.hpp"
#include "app/recent_files.hpp"
#include "app/window_app_detail.hpp"
#include "io/video_writer.hpp"

namespace drape::app {
namespace {

// The first parameter that `edited` changes (the panel changes one at a time).
std::string editedName(const sim::Params& was, const sim::Params& edited) {
  for (const sim::ParamDesc& d : sim::paramTable())
    if (sim::formatParam(was, d) != sim::formatParam(edited, d)) return d.name;
  return "parameters";
}

}  // namespace

void App::loadMesh(const std::string& path, int as) {
  const bool collider = (as < 0 ? panelState_.loadAs : as) == ui::kLoadCollider;
  const std::size_t known = collider ? session_.warnings().size() : 0;
  const scene::MeshSceneOptions options = panelMeshOptions(panelState_, path, as);
  Snapshot before = snapshot();
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
  if (!collider) newRun();
  remember(collider ? "load collider" : "load OBJ", std::move(before));
}

void App::loadSequence(const std::string& path) {
  Snapshot before = snapshot();
  if (auto r = session_.addMeshSequenceCollider(path); !r) {
    setError(r.error());  // the current scene stays
    return;
  }
  uiError_.clear();
  sceneReplaced(false);
  if (compare_.active()) updateCompare();
  remember("load sequence", std::move(before));
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
  Snapshot before = snapshot();
  session_ = std::move(next.value());
  session_.setLabel(label);
  uiError_.clear();
  rememberScene(path);
  sceneReplaced(true);
  if (compare_.active()) updateCompare();
  newRun();
  remember("load scene", std::move(before));
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
  if (input_.take(Command::OpenSequence)) sequenceBrowser_.open();
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
    Snapshot before = snapshot();
    const Result<void> r = changed ? session_.reloadMesh(*changed) : session_.reset();
    report(r);
    if (r && changed) meshShown_ = {panelState_.loadPin, panelState_.loadUp, panelState_.loadScale};
    sceneReplaced(moved && r);
    if (compare_.active()) updateCompare();
    if (r) {
      newRun();
      remember("reset", std::move(before));
    }
  }
  const std::size_t picked = std::size_t(asked.switchToScene);
  if (asked.switchToScene >= 0 && picked >= builtinCount_) {
    loadSceneFile(examples_[picked - builtinCount_].path, examples_[picked - builtinCount_].label);
  } else if (asked.switchToScene >= 0) {
    Snapshot before = snapshot();
    const Result<void> r =
        session_.switchScene(scenes_[std::size_t(asked.switchToScene)], panelState_.keepSettings);
    report(r);
    if (r) sceneReplaced(true);
    if (r && compare_.active()) updateCompare();
    if (r) {
      newRun();
      remember("switch scene", std::move(before));
    }
  }
  if (asked.edited) {
    const bool rebuild = sim::needsRebuild(session_.params(), *asked.edited);
    // One undo step per edit: the session before its first change.
    std::optional<Snapshot> before;
    if (!editOpen_) before = snapshot();
    const std::string what = "edit " + editedName(session_.params(), *asked.edited);
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
    if (r && rebuild) newRun();
    if (r && before) {
      remember(what, std::move(*before));
      editOpen_ = asked.editing;
    } else if (r) {
      keepFrame();
    }
  }
  if (asked.removeCollider >= 0) {
    // A row's colliders, one after another at the same index.
    Snapshot before = snapshot();
    Result<void> r;
    for (int i = 0; i < asked.removeCount && r; ++i)
      r = session_.removeCollider(std::size_t(asked.removeCollider));
    report(r);
    if (r) sceneReplaced(false);
    if (r && compare_.active()) updateCompare();
    if (r) remember("remove collider", std::move(before));
  }
  if (asked.compareChanged) updateCompare();
  if (asked.openMesh) browser_.open();
  if (asked.saveSceneAs) sceneSaveBrowser_.open(panelState_.scenePath);
  if (asked.openSceneFile) sceneBrowser_.open();
  if (asked.startRecording) startRecording(panelRecordTarget(panelState_));
  if (asked.stopRecording) stopRecording();
}

}  // namespace drape::app
