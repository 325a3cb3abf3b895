// libFuzzer target: scene-file text → checked fields → the scene built and
// the file applied → its text written and read back. Any crash, sanitizer
// report, hang, message of more than one line, or a saved file that does
// not read back is a finding. Built and run by scripts/fuzz (libFuzzer), and
// replayed over the example scenes by the tests (replay_main.cpp).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "scene/scene_file.hpp"
#include "scene/scenes.hpp"
#include "sim/params.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace drape;
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto file = scene::parseSceneFile(text, "fuzz.json");
  auto oneLine = [](const std::string& m) {
    return !m.empty() && m.find('\n') == std::string::npos;
  };
  if (!file) {
    if (!oneLine(file.error()) || file.error().size() > 1000) std::abort();
    return 0;
  }
  if (!file->builtin.empty()) {
    const scene::SceneInfo* info = scene::findScene(file->builtin);
    sim::Params params = scene::sceneParams(*info);
    for (const sim::ParamSetting& set : file->params)
      if (!sim::applySetting(params, set)) std::abort();  // checked by the parser
    // Keep each input cheap: the scene's size is not what is fuzzed.
    params.resolution = std::min(params.resolution, 8);
    auto built = info->build(params);
    if (built) {
      auto applied = scene::applySceneFile(file.value(), built.value(), "fuzz.json");
      if (!applied && !oneLine(applied.error())) std::abort();
    }
  }
  // What was accepted writes back to text that reads back.
  auto again = scene::parseSceneFile(scene::sceneFileText(file.value()), "again.json");
  if (!again) std::abort();
  return 0;
}
