#pragma once
// The example scene files that come with drape (assets/scenes), offered in
// the scene picker beside the built-in scenes.

#include <string>
#include <vector>

namespace drape::app {

struct ExampleScene {
  std::string label;  // as the picker shows it: "tablecloth (example)"
  std::string path;   // the scene file
};

// The scene files (*.json) of `dir`, sorted by name ignoring case; none when
// the folder cannot be listed.
std::vector<ExampleScene> exampleScenes(const std::string& dir);
// Those of the first assets/scenes folder found beside the executable (the
// build tree's copy, or the installed one).
std::vector<ExampleScene> exampleScenes();

}  // namespace drape::app
