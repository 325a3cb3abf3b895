#pragma once
// The command line (a contract: tests and users rely on it).

#include <optional>
#include <string>
#include <vector>

#include "scene/mesh_scene.hpp"
#include "sim/sim.hpp"

namespace drape::app {

struct Options {
  std::string scene = "hang";
  std::string meshPath;  // --mesh: the scene is this OBJ file instead of `scene`
  scene::MeshAs meshAs = scene::MeshAs::Auto;
  scene::MeshPin meshPin;
  bool meshZUp = false;                // --up z
  float meshScale = 1.0f;              // --scale
  std::vector<std::string> colliders;  // --collider: OBJ files added as static mesh colliders
  std::vector<std::string> sets;       // KEY=VALUE, in order
  std::optional<int> frames;           // run N frames then exit
  bool headless = false;
  std::string statsPath;
  std::string exportObjPath;
  std::vector<std::string> compareSets;  // --compare: side by side, these on the right
  std::string saveScenePath;             // --save-scene: write the scene file of the start
  std::string recordPath;                // --record: a folder of PNG frames, or a .mp4 video
  std::string recordObjPath;             // --record-obj: a folder of OBJ files, one per frame
  bool overwrite = false;                // record into folders that already hold files
  bool recordWholeWindow = false;        // --record-window: panels and overlays too
  int width = 1280, height = 720;
  bool listScenes = false;
  bool listParams = false;
  bool explainStep = false;  // print the next step's plan (after --frames N) and exit
  bool version = false;
  bool help = false;
  std::string helpText;  // filled when help is asked for
};

// Parse argv. Errors come back as one-line messages (without the
// "drape: error: " prefix, which main adds).
Result<Options> parseCommandLine(int argc, char** argv);

}  // namespace drape::app
