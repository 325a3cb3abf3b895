// drape: entry point. Parses the command line, builds the scene, and hands
// over to the window or the headless runner.

#include <csignal>
#include <cstdio>
#include <new>
#include <stdexcept>

#include "app/cli.hpp"
#include "app/example_scenes.hpp"
#include "app/headless.hpp"
#include "app/messages.hpp"
#include "app/opening_camera.hpp"
#include "app/outputs.hpp"
#include "app/param_list.hpp"
#include "app/recorder.hpp"
#include "app/session.hpp"
#include "app/window_app.hpp"
#include "scene/scene_file.hpp"
#include "scene/scenes.hpp"

#ifndef DRAPE_VERSION
#define DRAPE_VERSION "0.0.0"
#endif

namespace {

int error(const std::string& message) {
  drape::app::printError(message);
  return 2;
}

// What a run that ran out of memory exits with: 2 while it sets up, 1 once
// it runs (the session rolls a step that runs out back and stops cleanly;
// this catches what is left, such as writing the outputs).
int outOfMemoryExit = 2;

int run(int argc, char** argv) {
  using namespace drape;
  auto parsed = app::parseCommandLine(argc, argv);
  if (!parsed) return error(parsed.error());
  const app::Options& options = parsed.value();
  if (options.help) {
    std::fputs(options.helpText.c_str(), stdout);
    return 0;
  }
  if (options.version) {
    std::printf("drape %s\n", DRAPE_VERSION);
    return 0;
  }
  if (options.listParams) {
    std::fputs(app::parameterTableMarkdown().c_str(), stdout);
    return 0;
  }
  if (options.listScenes) {
    for (const scene::SceneInfo& s : scene::builtinScenes())
      std::printf("%-10s %s\n", s.name, s.description);
    const std::vector<app::ExampleScene> examples = app::exampleScenes();
    if (!examples.empty()) std::printf("\nexample scene files (--scene FILE):\n");
    for (const app::ExampleScene& e : examples) std::printf("  %s\n", e.path.c_str());
    return 0;
  }
  if (options.headless && !options.frames)
    return error("--headless needs --frames N (how many frames to simulate)");
  auto session = !options.meshPath.empty() ? app::Session::createFromMesh(
                                                 options.meshPath,
                                                 {options.meshPath, options.meshAs, options.meshPin,
                                                  options.meshZUp, options.meshScale},
                                                 options.sets)
                 : scene::looksLikeSceneFile(options.scene)
                     ? app::Session::createFromFile(options.scene, options.sets)
                     : app::Session::create(options.scene, options.sets);
  if (!session) return error(session.error());
  if (auto r = session->addMeshColliders(options.colliders); !r) return error(r.error());
  // Outputs once the inputs are known, before anything is written (a
  // recording's folder is created by its check).
  if (auto r = app::checkOutputs(options, session.value()); !r) return error(r.error());
  if (!options.recordPath.empty())
    if (auto r = app::checkRecordTarget(app::recordTargetFor(options.recordPath, options.overwrite),
                                        "--record");
        !r)
      return error(r.error());
  if (!options.recordObjPath.empty())
    if (auto r = app::checkRecordTarget(
            app::objSequenceTarget(options.recordObjPath, options.overwrite), "--record-obj");
        !r)
      return error(r.error());
  for (const std::string& w : session->warnings()) app::printWarning(w);
  if (options.explainStep) {
    for (int i = 0; i < options.frames.value_or(0); ++i)
      if (!session->step()) {
        app::printError(session->lastError());
        return 1;
      }
    std::printf("the step of frame %llu:\n",
                static_cast<unsigned long long>(session->world().frame));
    std::fputs(sim::explainNextStep(session->world()).c_str(), stdout);
    return 0;
  }
  if (!options.saveScenePath.empty()) {
    // The camera the window would open with.
    const scene::CameraHint camera = app::shownCamera(session->camera(), session->world(),
                                                      float(options.width), float(options.height));
    auto saved = app::saveSceneFile(options.saveScenePath, session->describe(camera));
    if (!saved) return error(saved.error());
    if (options.frames == 0) {
      if (auto r = app::writeOutputs(session.value(), options); !r) return error(r.error());
      return 0;
    }
  }
  outOfMemoryExit = 1;
  if (options.headless) return app::runHeadless(session.value(), options);
  return app::runWindow(session.value(), options);
}

}  // namespace

int main(int argc, char** argv) {
  // A reader that goes away (a closed pipe on stdout, a FIFO) makes a write
  // fail with an error drape reports, instead of killing it mid-write.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {  // a size no vector can hold
  }
  drape::app::printError(outOfMemoryExit == 2 ? "out of memory while setting up the scene; lower "
                                                "the resolution or load a smaller mesh"
                                              : "out of memory during the run");
  return outOfMemoryExit;
}
