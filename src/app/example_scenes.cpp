#include "app/example_scenes.hpp"

#include <filesystem>

#include "render/shader_files.hpp"
#include "ui/file_browser.hpp"

namespace drape::app {
namespace fs = std::filesystem;

std::vector<ExampleScene> exampleScenes(const std::string& dir) {
  std::string error;
  std::vector<ExampleScene> found;
  for (const ui::FileBrowser::Entry& e : ui::FileBrowser::list(dir, error, ".json"))
    if (!e.folder)
      found.push_back(
          {fs::path(e.name).stem().string() + " (example)", (fs::path(dir) / e.name).string()});
  return found;
}

std::vector<ExampleScene> exampleScenes() {
  for (const std::string& dir : render::dataSearchPath("assets/scenes")) {
    std::error_code ec;
    if (fs::is_directory(dir, ec)) return exampleScenes(dir);
  }
  return {};
}

}  // namespace drape::app
