// Seams on the command line: an OBJ's `l` seams and a scene file's
// "mesh.seams" close (seam_gap_max in --stats), are saved back by
// --save-scene, and bad ones are refused with one line and exit code 2.

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "cli_runner.hpp"

using cli_test::Cli;
using cli_test::drape;
using cli_test::Outcome;
using cli_test::readJson;

namespace {

const std::string kPanels = std::string(DRAPE_TEST_DATA) + "/obj/sewn_panels.obj";
const std::string kPlain = std::string(DRAPE_TEST_DATA) + "/obj/blender_grid.obj";

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string sceneWithSeams(const std::string& obj, const std::string& seams) {
  return R"({"drape_scene": 1, "mesh": {"obj": ")" + obj + R"(", "seams": )" + seams +
         R"(}, "params": {"gravity": [0, 0, 0]}})";
}

// Exit code 2 and exactly `line` on stderr.
void expectError(const Outcome& r, const std::string& line) {
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err, "drape: error: " + line + "\n");
}

}  // namespace

TEST_F(Cli, ObjSeamsCloseAndStatsSayHowFar) {
  const std::string stats = path("s.json");
  const Outcome open = drape("--headless --mesh " + kPanels + " --frames 0 --stats " + stats);
  ASSERT_EQ(open.code, 0) << open.err;
  EXPECT_NEAR(readJson(stats)["seam_gap_max"].get<double>(), 0.2, 1e-6);
  const Outcome sewn =
      drape("--headless --mesh " + kPanels + " --set gravity=0 --frames 90 --stats " + stats);
  ASSERT_EQ(sewn.code, 0) << sewn.err;
  const auto j = readJson(stats);
  EXPECT_LE(j["seam_gap_max"].get<double>(), 0.002);
  EXPECT_FALSE(j["nan"].get<bool>());
  ASSERT_EQ(drape("--headless --mesh " + kPlain + " --frames 2 --stats " + stats).code, 0);
  EXPECT_EQ(readJson(stats)["seam_gap_max"].get<double>(), 0.0);
}

TEST_F(Cli, SceneFileSeamsAreSewnAndSavedBack) {
  // The panels' OBJ seams, and two more of the file's own between their corners.
  write(path("a.json"), sceneWithSeams(kPanels, "[[2, 11], [8, 17]]"));
  const Outcome run = drape("--headless --scene " + path("a.json") + " --frames 90 --stats " +
                            path("s.json") + " --save-scene " + path("b.json"));
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_LE(readJson(path("s.json"))["seam_gap_max"].get<double>(), 0.002);
  const auto saved = readJson(path("b.json"));
  EXPECT_EQ(saved["mesh"]["seams"], nlohmann::json::parse("[[2, 11], [8, 17]]"));
  // The saved file runs as the first did.
  ASSERT_EQ(
      drape("--headless --scene " + path("a.json") + " --frames 30 --stats " + path("1.json")).code,
      0);
  ASSERT_EQ(
      drape("--headless --scene " + path("b.json") + " --frames 30 --stats " + path("2.json")).code,
      0);
  EXPECT_EQ(readJson(path("1.json"))["state_hash"], readJson(path("2.json"))["state_hash"]);
}

TEST_F(Cli, SeamsThatCannotBeAreRefused) {
  write(path("far.json"), sceneWithSeams(kPanels, "[[0, 9], [3, 18]]"));
  expectError(
      drape("--headless --scene " + path("far.json") + " --frames 1"),
      path("far.json") + ": mesh.seams[1]: vertex 18 does not exist (the mesh has 18 vertices)");
  write(path("self.json"), sceneWithSeams(kPanels, "[[4, 4]]"));
  expectError(drape("--headless --scene " + path("self.json") + " --frames 1"),
              path("self.json") + ": mesh.seams[0]: joins vertex 4 to itself");
  write(path("bad.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nl 3 3\n");
  expectError(
      drape("--headless --mesh " + path("bad.obj") + " --frames 1"),
      path("bad.obj") + ":5: a line repeats vertex 3 (a seam joins two different vertices)");
}

// garment: the built-in shirt sewn around the mannequin before it moves: the
// 0.28 m between the panels closes to under a centimetre, the shirt hangs
// from the shoulders, none of it inside the body, no crossing.
TEST_F(Cli, GarmentShirtCloseOnTheMannequin) {
  const std::string stats = path("s.json");
  const Outcome r = drape("--headless --scene garment --frames 60 --stats " + stats);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto s = readJson(stats);
  EXPECT_LT(s["seam_gap_max"].get<double>(), 0.01);
  EXPECT_GT(s["bounds"]["max"][1].get<double>(), 1.44);
  EXPECT_GE(s["min_collider_distance"].get<double>(), 0.0);
  EXPECT_EQ(s["self_intersections"].get<int>(), 0);
}
