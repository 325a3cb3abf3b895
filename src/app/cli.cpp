#include "app/cli.hpp"

#include <cstdio>
#include <regex>

#include <CLI/CLI.hpp>

#include "sim/sim.hpp"

namespace drape::app {
namespace {

std::string firstLine(const std::string& s) {
  const auto nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

}  // namespace

Result<Options> parseCommandLine(int argc, char** argv) {
  Options o;
  CLI::App cli{"drape: an interactive cloth sandbox (Position Based Dynamics)", "drape"};
  cli.set_help_flag();  // handled below so that --help exits 0 through main
  bool help = false;
  std::string size;
  std::string framesText;
  std::string asText, pinText;
  cli.add_flag("-h,--help", help, "print this help and exit");
  CLI::Option* sceneOption =
      cli.add_option("--scene", o.scene,
                     "built-in scene name (see --list-scenes), or a scene file (.json)")
          ->type_name("NAME|FILE.json");
  CLI::Option* meshOption =
      cli.add_option("--mesh", o.meshPath, "build the scene from a Wavefront OBJ file instead")
          ->type_name("FILE.obj");
  CLI::Option* asOption =
      cli.add_option(
             "--as", asText,
             "what the mesh becomes; default: balloon if closed, else cloth; strands (ropes) "
             "for a file of lines alone")
          ->type_name("auto|cloth|balloon|strands");
  CLI::Option* pinOption =
      cli.add_option("--pin", pinText,
                     "pin the mesh's top vertices, none, or these vertices (0-based, OBJ order)")
          ->type_name("top|none|i,j,k");
  std::string upText, scaleText;
  CLI::Option* upOption =
      cli.add_option("--up", upText,
                     "the mesh's up axis; z turns a z-up export upright (default y)")
          ->type_name("y|z");
  CLI::Option* scaleOption =
      cli.add_option("--scale", scaleText, "scale the mesh from its file units to metres")
          ->type_name("S");
  CLI::Option* colliderOption =
      cli.add_option("--collider", o.colliders,
                     "add an OBJ mesh as a static collider, where the file puts it (repeatable)")
          ->type_name("FILE.obj");
  colliderOption->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cli.add_option("--set", o.sets, "set a parameter, e.g. --set k_stretch=0.5 (repeatable)")
      ->type_name("KEY=VALUE")
      ->take_all();
  cli.add_option("--frames", framesText, "run N frames, write the outputs and exit")
      ->type_name("N");
  cli.add_flag("--headless", o.headless, "simulate without a window or GL context");
  CLI::Option* statsOption =
      cli.add_option("--stats", o.statsPath, "write statistics of the run as JSON")
          ->type_name("FILE.json");
  CLI::Option* exportOption =
      cli.add_option("--export-obj", o.exportObjPath, "write the final mesh as OBJ")
          ->type_name("FILE.obj");
  CLI::Option* compareOption =
      cli.add_option("--compare", o.compareSets,
                     "side by side: the same scene twice, these settings on the right "
                     "(repeatable), e.g. --compare solver=mass-spring")
          ->type_name("KEY=VALUE")
          ->take_all();
  cli.get_option("--compare")->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  CLI::Option* saveOption =
      cli.add_option("--save-scene", o.saveScenePath,
                     "write the scene (parameters, pins, colliders, camera) as a scene file, "
                     "then run; with --frames 0, exit")
          ->type_name("FILE.json");
  CLI::Option* recordOption =
      cli.add_option("--record", o.recordPath,
                     "record every frame the window shows: PNG files (frame_00000.png, ...) "
                     "into a folder, or a video when PATH ends in .mp4 (needs ffmpeg)")
          ->type_name("PATH");
  CLI::Option* recordObjOption =
      cli.add_option("--record-obj", o.recordObjPath,
                     "record the cloth of every frame as OBJ files (frame_00000.obj, ...) "
                     "into a folder, with or without a window")
          ->type_name("DIR");
  cli.add_flag("--record-window", o.recordWholeWindow,
               "--record the whole window, panels, toolbar and REC badge included "
               "(default: the 3D view alone)");
  cli.add_flag("--overwrite", o.overwrite,
               "let --record and --record-obj write into a folder that already has files");
  cli.add_option("--size", size, "window size, default 1280x720")->type_name("WxH");
  cli.add_flag("--list-params", o.listParams,
               "print the parameters (name, default, range, meaning) as a Markdown table and exit");
  cli.add_flag("--list-scenes", o.listScenes,
               "list the built-in scenes and the example scene files, and exit");
  cli.add_flag("--explain-step", o.explainStep,
               "print what the next step does and why (its plan: solver, sub-steps, searches, "
               "stages), after --frames N if given, and exit");
  cli.add_flag("--version", o.version, "print the version and exit");
  // --set may be given many times: each occurrence appends.
  cli.get_option("--set")->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);

  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return fail(firstLine(e.what()));
  }
  if (help) {
    o.help = true;
    o.helpText = cli.help();
    return o;
  }
  if (meshOption->count() > 0) {
    if (sceneOption->count() > 0) return fail("--mesh and --scene cannot be used together");
    if (o.meshPath.empty()) return fail("--mesh needs a file name");
  } else {
    if (asOption->count() > 0) return fail("--as needs --mesh FILE.obj");
    if (pinOption->count() > 0) return fail("--pin needs --mesh FILE.obj");
    if (upOption->count() > 0) return fail("--up needs --mesh FILE.obj");
    if (scaleOption->count() > 0) return fail("--scale needs --mesh FILE.obj");
  }
  if (compareOption->count() > 0 && o.headless)
    return fail("--compare needs a window; it cannot be used with --headless");
  for (const std::string& set : o.compareSets) {
    sim::Params check;
    if (auto r = sim::setParamAssignment(check, set); !r) return fail("--compare: " + r.error());
  }
  for (const std::string& c : o.colliders)
    if (c.empty()) return fail("--collider needs a file name");
  if (saveOption->count() > 0 && o.saveScenePath.empty())
    return fail("--save-scene needs a file name");
  if (statsOption->count() > 0 && o.statsPath.empty()) return fail("--stats needs a file name");
  if (exportOption->count() > 0 && o.exportObjPath.empty())
    return fail("--export-obj needs a file name");
  if (recordOption->count() > 0) {
    if (o.recordPath.empty()) return fail("--record needs a folder or a .mp4 file");
    if (o.headless) return fail("--record needs a window; it cannot be used with --headless");
  }
  if (o.recordWholeWindow && o.recordPath.empty()) return fail("--record-window needs --record");
  if (recordObjOption->count() > 0 && o.recordObjPath.empty())
    return fail("--record-obj needs a folder");
  if (asOption->count() > 0) {
    auto as = scene::parseMeshAs(asText);
    if (!as) return fail("bad value '" + asText + "' for --as: " + as.error());
    o.meshAs = as.value();
  }
  if (pinOption->count() > 0) {
    auto pin = scene::parseMeshPin(pinText);
    if (!pin) return fail("bad value '" + pinText + "' for --pin: " + pin.error());
    o.meshPin = pin.value();
  }
  if (upOption->count() > 0) {
    if (upText != "y" && upText != "z")
      return fail("bad value '" + upText + "' for --up: expected y or z");
    o.meshZUp = upText == "z";
  }
  if (scaleOption->count() > 0) {
    double scale = 0.0;
    if (!sim::parseNumber(scaleText, scale) || !(scale > 0.0) || !(scale <= sim::kMostScale))
      return fail("bad value '" + scaleText + "' for --scale: expected a number > 0 and <= 1e6, " +
                  "e.g. 0.01");
    o.meshScale = float(scale);
  }
  if (!framesText.empty()) {
    static const std::regex digits("[0-9]{1,9}");
    if (!std::regex_match(framesText, digits))
      return fail("bad value '" + framesText + "' for --frames: expected a whole number >= 0");
    o.frames = std::stoi(framesText);
  }
  if (!size.empty()) {
    static const std::regex wxh("([0-9]{1,5})x([0-9]{1,5})");
    std::smatch m;
    if (!std::regex_match(size, m, wxh))
      return fail("bad value '" + size + "' for --size: expected WxH, e.g. 1280x720");
    o.width = std::stoi(m[1]);
    o.height = std::stoi(m[2]);
    if (o.width < 64 || o.height < 64 || o.width > 8192 || o.height > 8192)
      return fail("bad value '" + size + "' for --size: each side must be in [64, 8192]");
  }
  return o;
}

}  // namespace drape::app
