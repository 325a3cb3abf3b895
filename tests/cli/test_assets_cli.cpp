// The example meshes and scenes in assets/: each scene runs from the command
// line without a warning, its mesh arrives whole, and the cloth does what the
// scene is for.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace fs = std::filesystem;
using cli_test::Cli;
using cli_test::drape;
using cli_test::Outcome;
using cli_test::readJson;

namespace {

const fs::path kAssets = DRAPE_ASSETS;

// The scene run headless for `frames` frames; its --stats.
nlohmann::json runScene(const std::string& name, int frames, const std::string& stats) {
  const Outcome r = drape("--headless --scene " + (kAssets / "scenes" / (name + ".json")).string() +
                          " --frames " + std::to_string(frames) + " --stats " + stats);
  EXPECT_EQ(r.code, 0) << r.err;
  // Nothing to repair in the meshes, nothing else to say.
  EXPECT_EQ(r.err, "") << name;
  return readJson(stats);
}

}  // namespace

// Every scene file in assets/scenes is one of those checked below, so that a
// new one comes with its test.
TEST_F(Cli, EveryAssetSceneIsChecked) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(kAssets / "scenes"))
    names.insert(entry.path().filename().string());
  EXPECT_EQ(names, (std::set<std::string>{"cushion.json", "curtain.json", "tablecloth.json",
                                          "torus.json"}));
}

// The scene picker and --list-scenes offer the build tree's copy of every
// example (the meshes beside them), and each runs from there.
TEST_F(Cli, ListScenesOffersTheExamplesBesideTheProgram) {
  const Outcome list = drape("--list-scenes");
  ASSERT_EQ(list.code, 0) << list.err;
  const std::size_t block = list.out.find("example scene files");
  ASSERT_NE(block, std::string::npos) << list.out;
  std::set<std::string> names;
  std::istringstream lines(list.out.substr(block));
  std::string line;
  std::getline(lines, line);
  for (; std::getline(lines, line);) {
    const fs::path file = line.substr(line.find_first_not_of(' '));
    EXPECT_EQ(file.parent_path().filename(), "scenes");
    EXPECT_NE(file.parent_path(), kAssets / "scenes");  // a copy, not the sources
    EXPECT_EQ(cli_test::slurp(file.string()),
              cli_test::slurp((kAssets / "scenes" / file.filename()).string()));
    names.insert(file.filename().string());
    const Outcome run = drape("--headless --frames 2 --scene " + file.string());
    EXPECT_EQ(run.code, 0) << file << ": " << run.err;
  }
  EXPECT_EQ(names, (std::set<std::string>{"cushion.json", "curtain.json", "tablecloth.json",
                                          "torus.json"}));
}

// A round cloth dropped on a square table lies on its top and hangs over its
// sides, without stretching and with few crossings of itself where the
// corners fold it.
TEST_F(Cli, TableclothLiesOnTheTableAndHangsOverItsSides) {
  const auto s = runScene("tablecloth", 150, path("s.json"));
  EXPECT_EQ(s["vertices"], 1027);  // rings of 6, 12, ..., 108 around the centre
  EXPECT_EQ(s["triangles"], 1944);
  EXPECT_EQ(s["constraints"]["pressure"], 0);
  EXPECT_FALSE(s["nan"].get<bool>());
  const auto& lo = s["bounds"]["min"];
  const auto& hi = s["bounds"]["max"];
  // The top at y = 0 plus the thickness; the table 1 m wide.
  EXPECT_GT(hi[1].get<double>(), 0.0);
  EXPECT_LT(hi[1].get<double>(), 0.05);
  EXPECT_LT(lo[1].get<double>(), -0.3);  // the sides hang down
  EXPECT_GT(lo[1].get<double>(), -0.8);  // above the floor
  EXPECT_LT(hi[0].get<double>(), 0.75);  // it stayed on the table
  EXPECT_GT(lo[0].get<double>(), -0.75);
  EXPECT_LT(s["strain"]["mean"].get<double>(), 0.05);
  EXPECT_LT(s["self_intersections"].get<int>(), 60);
}

// A closed cushion dropped on a corner lands and rests on the floor, one
// piece, inflated (taller than the 0.24 m it was made) but not burst.
TEST_F(Cli, CushionLandsInflatedOnTheFloor) {
  const auto s = runScene("cushion", 240, path("s.json"));
  EXPECT_EQ(s["vertices"], 834);  // shared by its six sides of quads
  EXPECT_EQ(s["triangles"], 1664);
  EXPECT_EQ(s["constraints"]["pressure"], 1);
  EXPECT_EQ(s["pieces"], 1);
  EXPECT_FALSE(s["nan"].get<bool>());
  const double bottom = s["bounds"]["min"][1].get<double>();
  const double height = s["bounds"]["max"][1].get<double>() - bottom;
  EXPECT_NEAR(bottom, -0.8 + 0.01, 0.005);  // on the floor, at the thickness
  EXPECT_GT(height, 0.26);
  EXPECT_LT(height, 0.45);  // lying flat, not standing on a corner
  EXPECT_LT(s["strain"]["max"].get<double>(), 0.5);
}

// A closed ring (a UV seam where its texture wraps: 768 vertices, not the
// 833 texture corners) is one balloon under pressure that falls across a
// bar and stays whole.
TEST_F(Cli, TorusIsOneClosedBalloon) {
  const auto s = runScene("torus", 240, path("s.json"));
  EXPECT_EQ(s["vertices"], 768);
  EXPECT_EQ(s["triangles"], 1536);
  EXPECT_EQ(s["constraints"]["pressure"], 1);
  EXPECT_EQ(s["pieces"], 1);
  EXPECT_FALSE(s["nan"].get<bool>());
  EXPECT_GT(s["bounds"]["min"][1].get<double>(), -0.8);
  EXPECT_LT(s["bounds"]["max"][1].get<double>(), 0.2);  // it fell
  EXPECT_GE(s["min_collider_distance"].get<double>(), 0.0);
  EXPECT_LT(s["strain"]["max"].get<double>(), 1.0);
}

// A curtain held along its top edge billows downwind (+z) in a breeze and
// keeps its length.
TEST_F(Cli, CurtainHangsFromItsTopAndBillowsDownwind) {
  const auto s = runScene("curtain", 240, path("s.json"));
  EXPECT_EQ(s["vertices"], 33 * 41);
  EXPECT_EQ(s["constraints"]["pins"], 33);
  EXPECT_FALSE(s["nan"].get<bool>());
  const auto& lo = s["bounds"]["min"];
  const auto& hi = s["bounds"]["max"];
  EXPECT_NEAR(hi[1].get<double>(), 2.0, 1e-3);  // held at the top
  EXPECT_GT(hi[2].get<double>(), 0.2);          // blown downwind
  EXPECT_GE(lo[2].get<double>(), -0.01);        // not upwind
  EXPECT_GT(lo[1].get<double>(), -0.3);         // above the floor
  EXPECT_LT(lo[1].get<double>(), 0.6);          // still hanging
  EXPECT_LT(s["strain"]["mean"].get<double>(), 0.02);
}
