// Scene files on the command line: --save-scene writes what --scene FILE.json
// reads back, the rerun is bit-identical, and bad files are refused with the
// field named.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "cli_runner.hpp"

using cli_test::Cli;
using cli_test::drape;
using cli_test::expectUsageError;
using cli_test::Outcome;
using cli_test::readJson;
using cli_test::slurp;

namespace {

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

// Save → load → identical run, on a scene with moving pins and tearing.
TEST_F(Cli, SavedSceneRerunsBitForBit) {
  const std::string sets = "--set resolution=20 --set k_stretch=0.7 --set dt=0.0123";
  Outcome save = drape("--scene tear " + sets + " --save-scene " + path("t.json") + " --frames 0");
  ASSERT_EQ(save.code, 0) << save.err;
  ASSERT_EQ(
      drape("--headless --scene tear " + sets + " --frames 90 --export-obj " + path("a.obj")).code,
      0);
  Outcome load =
      drape("--headless --scene " + path("t.json") + " --frames 90 --export-obj " + path("b.obj"));
  ASSERT_EQ(load.code, 0) << load.err;
  const std::string a = slurp(path("a.obj")), b = slurp(path("b.obj"));
  EXPECT_GT(a.size(), 1000u);
  EXPECT_EQ(a, b);
  // The file holds every parameter by its name, the pins and the floor.
  const auto j = readJson(path("t.json"));
  EXPECT_EQ(j["mesh"]["scene"], "tear");
  EXPECT_EQ(j["params"]["k_stretch"], 0.7);
  EXPECT_EQ(j["params"]["dt"], 0.0123);
  EXPECT_EQ(j["params"]["resolution"], 20);
  EXPECT_GE(j["pins"].size(), 4u);
  EXPECT_EQ(j["colliders"][0]["shape"], "plane");
}

// --set on the command line goes over the file's parameters, and a file's
// collider changes the run.
TEST_F(Cli, SceneFileCollidersAndOverrides) {
  write(path("s.json"), R"({"drape_scene": 1, "mesh": {"scene": "drape"},
    "params": {"resolution": 12},
    "colliders": [{"shape": "plane", "center": [0, -0.25, 0]}]})");
  Outcome r = drape("--headless --scene " + path("s.json") +
                    " --set k_bend=0.2 --frames 150 "
                    "--stats " +
                    path("st.json") + " --save-scene " + path("again.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto stats = readJson(path("st.json"));
  // No sphere: the cloth lies flat on the floor at y = −0.25.
  EXPECT_NEAR(stats["bounds"]["min"][1].get<double>(), -0.25, 0.03);
  EXPECT_LT(stats["bounds"]["max"][1].get<double>(), -0.15);
  const auto again = readJson(path("again.json"));
  EXPECT_EQ(again["params"]["k_bend"], 0.2);
  EXPECT_EQ(again["params"]["resolution"], 12);
  EXPECT_EQ(again["colliders"].size(), 1u);
}

// A scene file naming an OBJ finds it next to itself.
TEST_F(Cli, SceneFileWithObjPathRelativeToTheFile) {
  write(path("quad.obj"), "v 0 1 0\nv 1 1 0\nv 1 1 1\nv 0 1 1\nf 1 2 3 4\n");
  write(path("q.json"), R"({"drape_scene": 1, "mesh": {"obj": "quad.obj", "as": "cloth"},
    "pins": [{"vertex": 0}]})");
  Outcome r = drape("--headless --scene " + path("q.json") + " --frames 5 --stats " +
                    path("s.json") + " --save-scene " + path("q2.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(readJson(path("s.json"))["vertices"], 4);
  const auto saved = readJson(path("q2.json"));
  EXPECT_EQ(saved["mesh"]["obj"], "quad.obj");
  EXPECT_EQ(saved["pins"].size(), 1u);
}

TEST_F(Cli, BadSceneFilesNameTheField) {
  write(path("bad.json"), R"({"drape_scene": 1, "mesh": {"scene": "hang"},
    "params": {"k_stretch": "stiff"}})");
  expectUsageError(drape("--headless --frames 1 --scene " + path("bad.json")),
                   "bad.json: params.k_stretch: expected a number in [0, 1], got a string");
  write(path("unknown.json"), R"({"drape_scene": 1, "mesh": {"scene": "hang"}, "wind_speed": 3})");
  expectUsageError(drape("--headless --frames 1 --scene " + path("unknown.json")),
                   "unknown.json: wind_speed: unknown field");
  write(path("missing.json"), R"({"drape_scene": 1, "params": {}})");
  expectUsageError(drape("--headless --frames 1 --scene " + path("missing.json")),
                   "missing.json: mesh: missing (required)");
  write(path("pin.json"), R"({"drape_scene": 1, "mesh": {"scene": "hang"},
    "params": {"resolution": 4}, "pins": [{"vertex": 16}]})");
  expectUsageError(drape("--headless --frames 1 --scene " + path("pin.json")),
                   "pins[0].vertex: 16 is out of range (the cloth has 16 vertices)");
  write(path("obj.json"), R"({"drape_scene": 1, "mesh": {"obj": "gone.obj"}})");
  expectUsageError(drape("--headless --frames 1 --scene " + path("obj.json")), "mesh.obj");
  write(path("syntax.json"), "{\"drape_scene\": 1,,}");
  expectUsageError(drape("--headless --frames 1 --scene " + path("syntax.json")),
                   "syntax.json: not valid JSON");
  expectUsageError(drape("--headless --frames 1 --scene " + path("none.json")), "cannot open");
}

TEST_F(Cli, UnwritableSaveSceneIsRefusedBeforeTheRun) {
  expectUsageError(drape("--headless --frames 1 --save-scene " + path("no/such/dir/s.json") +
                         " --stats " + path("st.json")),
                   "--save-scene");
  EXPECT_FALSE(std::filesystem::exists(path("st.json")));
  expectUsageError(drape("--frames 0 --save-scene " + dir_.string()), "--save-scene");
}

// Every built-in scene, saved and loaded, reruns bit for bit (rigid bodies,
// materials, wind and moving colliders included).
TEST_F(Cli, EveryBuiltInSceneRerunsFromItsSavedFile) {
  Outcome list = drape("--list-scenes");
  ASSERT_EQ(list.code, 0);
  std::istringstream lines(list.out);
  int scenes = 0;
  for (std::string line; std::getline(lines, line) && !line.empty();) {  // the examples follow
    const std::string name = line.substr(0, line.find(' '));
    const std::string file = path(name + ".json");
    ASSERT_EQ(drape("--scene " + name + " --save-scene " + file + " --frames 0").code, 0) << name;
    ASSERT_EQ(
        drape("--headless --scene " + name + " --frames 30 --export-obj " + path("a.obj")).code, 0)
        << name;
    Outcome load =
        drape("--headless --scene " + file + " --frames 30 --export-obj " + path("b.obj"));
    ASSERT_EQ(load.code, 0) << name << ": " << load.err;
    EXPECT_EQ(slurp(path("a.obj")), slurp(path("b.obj"))) << name;
    ++scenes;
  }
  EXPECT_GE(scenes, 10);
}
