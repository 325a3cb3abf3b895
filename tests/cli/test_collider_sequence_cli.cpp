// --collider DIR: an OBJ sequence as a deforming collider, through the real
// binary. A ball that grows under the falling cloth lifts it and never has
// it inside; a sequence that changes its topology, misses a frame or has
// none is refused in one line; --record-obj writes the collider beside the
// cloth.

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_runner.hpp"

using cli_test::Cli;
using cli_test::drape;
namespace fs = std::filesystem;

namespace {

// A closed latitude–longitude sphere about the origin, faces turned out.
std::string sphereObj(float radius, bool extraFace = false) {
  constexpr int kRings = 16, kSegments = 32;
  constexpr float kPi = 3.14159265f;
  std::ostringstream obj;
  obj << "v 0 " << radius << " 0\n";
  for (int r = 1; r < kRings; ++r) {
    const float polar = kPi * float(r) / float(kRings);
    for (int s = 0; s < kSegments; ++s) {
      const float a = 2.0f * kPi * float(s) / float(kSegments);
      obj << "v " << radius * std::sin(polar) * std::cos(a) << " " << radius * std::cos(polar)
          << " " << radius * std::sin(polar) * std::sin(a) << "\n";
    }
  }
  obj << "v 0 " << -radius << " 0\n";
  const int bottom = 2 + (kRings - 1) * kSegments;  // 1-based
  auto at = [](int r, int s) { return 2 + (r - 1) * kSegments + (s % kSegments); };
  for (int s = 0; s < kSegments; ++s) obj << "f 1 " << at(1, s + 1) << " " << at(1, s) << "\n";
  for (int r = 1; r + 1 < kRings; ++r)
    for (int s = 0; s < kSegments; ++s)
      obj << "f " << at(r, s) << " " << at(r, s + 1) << " " << at(r + 1, s + 1) << " "
          << at(r + 1, s) << "\n";
  for (int s = 0; s < kSegments; ++s)
    obj << "f " << bottom << " " << at(kRings - 1, s) << " " << at(kRings - 1, s + 1) << "\n";
  if (extraFace) obj << "f 1 2 3\n";
  return obj.str();
}

std::string frameName(int i) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%05d.obj", i);
  return name;
}

void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

// A scene file: the `drape` scene's cloth over its floor alone (no sphere).
void writeFloorScene(const fs::path& path) {
  writeFile(path, R"({"drape_scene": 1, "mesh": {"scene": "drape"},
    "params": {"resolution": 32},
    "colliders": [{"shape": "plane", "center": [0, -1, 0], "normal": [0, 1, 0]}]})");
}

float highestVertex(const fs::path& obj) {
  std::ifstream in(obj);
  std::string line;
  float top = -1e9f;
  while (std::getline(in, line))
    if (line.rfind("v ", 0) == 0) {
      float x, y, z;
      if (std::sscanf(line.c_str(), "v %f %f %f", &x, &y, &z) == 3) top = std::max(top, y);
    }
  return top;
}

}  // namespace

// The ball grows from 0.3 to 0.6 m over 120 frames under the falling cloth.
TEST_F(Cli, GrowingBallSequenceLiftsTheClothAndKeepsItOutside) {
  const fs::path seq = dir_ / "ball";
  fs::create_directories(seq);
  for (int f = 0; f <= 120; ++f)
    writeFile(seq / frameName(f), sphereObj(0.3f + 0.3f * float(f) / 120.0f));
  writeFloorScene(path("floor.json"));
  const auto r = drape("--headless --scene " + path("floor.json") + " --collider " + seq.string() +
                       " --frames 180 --stats " + path("s.json") + " --export-obj " +
                       path("out.obj") + " --record-obj " + path("rec"));
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json stats = nlohmann::json::parse(std::ifstream(path("s.json")));
  EXPECT_GE(stats["min_collider_distance"].get<double>(), 0.0);
  // Resting on the grown ball's top (its poles are vertices: 0.6 m), not on
  // the floor 1.6 m below.
  const float top = highestVertex(path("out.obj"));
  EXPECT_GT(top, 0.6f);
  EXPECT_LT(top, 0.65f);
  // The collider (after the floor) recorded beside the cloth, frame by frame.
  EXPECT_TRUE(fs::exists(dir_ / "rec" / "frame_00179.obj"));
  ASSERT_TRUE(fs::exists(dir_ / "rec" / "collider_1" / "frame_00179.obj"));
  EXPECT_FALSE(fs::exists(dir_ / "rec" / "collider_1" / "frame_00180.obj"));
  EXPECT_GT(highestVertex(dir_ / "rec" / "collider_1" / "frame_00179.obj"), 0.599f);
  EXPECT_LT(highestVertex(dir_ / "rec" / "collider_1" / "frame_00000.obj"), 0.31f);
}

TEST_F(Cli, SequenceWhoseTopologyChangesIsRefusedNamingTheFrame) {
  const fs::path seq = dir_ / "seq";
  fs::create_directories(seq);
  for (int f = 0; f < 4; ++f) writeFile(seq / frameName(f), sphereObj(0.3f, f == 2));
  const auto r = drape("--headless --scene drape --collider " + seq.string() + " --frames 2");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("drape: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("frame_00002.obj"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(Cli, SequenceWithAGapIsRefusedNamingTheFirstMissingFrame) {
  const fs::path seq = dir_ / "seq";
  fs::create_directories(seq);
  for (int f : {0, 1, 3, 5}) writeFile(seq / frameName(f), sphereObj(0.3f));
  const auto r = drape("--headless --scene drape --collider " + seq.string() + " --frames 2");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("drape: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("frame_00002.obj is missing"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(Cli, FolderWithoutFramesIsRefused) {
  const fs::path seq = dir_ / "empty";
  fs::create_directories(seq);
  writeFile(seq / "notes.txt", "nothing here\n");
  const auto r = drape("--headless --scene drape --collider " + seq.string() + " --frames 2");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("drape: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("has no frames"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}
