// The example meshes and scenes in assets/: each scene runs from the command
// line without a warning, its mesh arrives whole, and the cloth does what the
// scene is for.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "test_geometry.hpp"

namespace fs = std::filesystem;
using cli_test::Cli;
using cli_test::drape;
using cli_test::Outcome;
using cli_test::readJson;

namespace {

const fs::path kAssets = DRAPE_ASSETS;

// The scene run headless for `frames` frames (and `more` options); its --stats.
nlohmann::json runScene(const std::string& name, int frames, const std::string& stats,
                        const std::string& more = "") {
  const Outcome r = drape("--headless --scene " + (kAssets / "scenes" / (name + ".json")).string() +
                          " --frames " + std::to_string(frames) + " --stats " + stats + more);
  EXPECT_EQ(r.code, 0) << r.err;
  // Nothing to repair in the meshes, nothing else to say.
  EXPECT_EQ(r.err, "") << name;
  return readJson(stats);
}

struct Triangles {
  std::vector<glm::vec3> positions;
  std::vector<glm::uvec3> triangles;
};

// The `v` lines and the faces (fans of their corners' vertex indices) of an OBJ file.
Triangles readTriangles(const std::string& file) {
  Triangles m;
  std::istringstream in(cli_test::slurp(file));
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string tag;
    words >> tag;
    if (tag == "v") {
      glm::vec3 p;
      words >> p.x >> p.y >> p.z;
      m.positions.push_back(p);
    } else if (tag == "f") {
      std::vector<std::uint32_t> corners;
      for (std::string w; words >> w;) corners.push_back(std::uint32_t(std::stoul(w)) - 1);
      for (std::size_t k = 2; k < corners.size(); ++k)
        m.triangles.push_back({corners[0], corners[k - 1], corners[k]});
    }
  }
  return m;
}

// How many of `cloth`'s vertices lie inside the closed mesh `solid`.
int verticesInside(const std::string& cloth, const std::string& solid) {
  const Triangles c = readTriangles(cloth), s = readTriangles(solid);
  EXPECT_FALSE(c.positions.empty()) << cloth;
  EXPECT_FALSE(s.triangles.empty()) << solid;
  int inside = 0;
  for (const glm::vec3& x : c.positions) inside += test_geometry::windingNumber(s, x) > 0.5 ? 1 : 0;
  return inside;
}

}  // namespace

// Every scene file in assets/scenes is one of those checked below, so that a
// new one comes with its test.
TEST_F(Cli, EveryAssetSceneIsChecked) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(kAssets / "scenes"))
    names.insert(entry.path().filename().string());
  EXPECT_EQ(names, (std::set<std::string>{"cushion.json", "curtain.json", "shirt.json",
                                          "statue.json", "tablecloth.json", "torus.json"}));
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
  EXPECT_EQ(names, (std::set<std::string>{"cushion.json", "curtain.json", "shirt.json",
                                          "statue.json", "tablecloth.json", "torus.json"}));
}

// A round cloth dropped on a square table lies on its top and hangs over its
// sides, without stretching, without crossing itself where the corners fold
// it, and with no edge of the table through it.
TEST_F(Cli, TableclothLiesOnTheTableAndHangsOverItsSides) {
  const auto s = runScene("tablecloth", 240, path("s.json"), " --export-obj " + path("end.obj"));
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
  EXPECT_EQ(s["self_intersections"].get<int>(), 0);
  // The table: the box of half extents (0.5, 0.4, 0.5) centred at y = −0.4.
  const Triangles cloth = readTriangles(path("end.obj"));
  EXPECT_EQ(cloth.positions.size(), 1027u);
  EXPECT_EQ(test_geometry::boxEdgesThrough(
                cloth, glm::dvec3(0.5, 0.4, 0.5),
                [](const glm::dvec3& x) { return x + glm::dvec3(0.0, -0.4, 0.0); }),
            0);
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

// shirt: two flat panels 0.3 m apart, sewn by the OBJ's `l` seams around a
// mannequin of capsules, close in a few frames and hang from its shoulders.
TEST_F(Cli, ShirtIsSewnAroundTheMannequinAndHangsFromItsShoulders) {
  const auto s = runScene("shirt", 120, path("s.json"));
  EXPECT_FALSE(s["nan"].get<bool>());
  EXPECT_LT(s["seam_gap_max"].get<double>(), 0.03);          // from 0.30 m
  EXPECT_GT(s["bounds"]["max"][1].get<double>(), 1.44);      // on the shoulders (top 1.49)
  EXPECT_GT(s["bounds"]["min"][1].get<double>(), 0.8);       // not slid down
  EXPECT_GE(s["min_collider_distance"].get<double>(), 0.0);  // none inside the body
  EXPECT_LT(s["bounds"]["max"][2].get<double>(), 0.2);       // wrapped: the panels came in
}

// statue: the drape cloth falls on a closed figure of 5120 triangles, a mesh
// collider, and hangs from its head and arms: none of it inside the figure,
// and held above the floor.
TEST_F(Cli, StatueHoldsTheClothOnItsHeadAndShoulders) {
  const Outcome r =
      drape("--headless --frames 200 --scene " + (kAssets / "scenes" / "statue.json").string() +
            " --stats " + path("s.json") + " --export-obj " + path("cloth.obj"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const nlohmann::json stats = readJson(path("s.json"));
  EXPECT_EQ(stats["constraints"]["colliders"], 2);
  EXPECT_GT(stats["min_collider_distance"].get<double>(), 0.005);
  EXPECT_GT(stats["bounds"]["max"][1].get<double>(), -0.2);  // resting on the figure, not the floor
  EXPECT_EQ(verticesInside(path("cloth.obj"), (kAssets / "meshes" / "statue.obj").string()), 0);
}

// --collider adds a closed OBJ model to a built-in scene: the cloth stays
// out of it, by a winding number of its own.
TEST_F(Cli, ColliderOptionKeepsTheClothOutOfTheModel) {
  const std::string model = (kAssets / "meshes" / "statue.obj").string();
  const Outcome r = drape("--headless --frames 150 --scene drape --set resolution=32 --collider " +
                          model + " --export-obj " + path("cloth.obj"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(verticesInside(path("cloth.obj"), model), 0);
}

// The default drape with its sphere swapped for closed, bumpy models
// (tests/data/gen/make_lumpy.py): a ~7,000-triangle bunny with ears and a
// neck, as wide as the sphere, and a smaller lumpy ball with a dent on top.
// After 2.5 s no cloth vertex is inside either, by the collider's own signed
// distance and by a winding number.
TEST_F(Cli, ClothStaysOutsideClosedBumpyModels) {
  const fs::path data = DRAPE_TEST_DATA;
  for (const char* name : {"lumpy_bunny", "lumpy_blob"}) {
    const std::string model = (data / "obj" / (std::string(name) + ".obj")).string();
    std::ofstream(path("scene.json"))
        << R"({"drape_scene": 1, "mesh": {"scene": "drape"}, "colliders": [)"
        << R"({"shape": "plane", "center": [0, -1, 0], "normal": [0, 1, 0]},)"
        << R"({"shape": "mesh", "obj": ")" << model << R"(", "center": [0, 0, 0]}]})";
    const Outcome r = drape("--headless --frames 150 --scene " + path("scene.json") + " --stats " +
                            path("s.json") + " --export-obj " + path("cloth.obj"));
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json s = readJson(path("s.json"));
    EXPECT_GE(s["min_collider_distance"].get<double>(), 0.0) << name;
    EXPECT_EQ(verticesInside(path("cloth.obj"), model), 0) << name;
  }
}

// With self collision, the drape and the statue example end without the
// cloth crossing itself (without it they end with hundreds of crossings).
TEST_F(Cli, SelfCollisionLeavesNoCrossingsInDrapeAndStatue) {
  for (const std::string& scene :
       {std::string("drape"), (kAssets / "scenes" / "statue.json").string()}) {
    const Outcome r = drape("--headless --frames 300 --scene " + scene +
                            " --set self_collision=1 --stats " + path("s.json"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(readJson(path("s.json"))["self_intersections"].get<int>(), 0) << scene;
  }
}

// A scene with a mesh collider saved and loaded again reruns bit for bit,
// with the OBJ's path written relative to the scene file.
TEST_F(Cli, MeshColliderSceneFileRerunsBitForBit) {
  fs::copy_file(kAssets / "meshes" / "statue.obj", path("model.obj"));
  const Outcome first = drape(
      "--headless --frames 40 --scene drape --set resolution=24 "
      "--collider " +
      path("model.obj") + " --save-scene " + path("s.json") + " --export-obj " + path("a.obj"));
  ASSERT_EQ(first.code, 0) << first.err;
  const nlohmann::json saved = readJson(path("s.json"));
  const nlohmann::json& mesh = saved["colliders"].back();
  EXPECT_EQ(mesh["shape"], "mesh");
  EXPECT_EQ(mesh["obj"], "model.obj");
  const Outcome again =
      drape("--headless --frames 40 --scene " + path("s.json") + " --export-obj " + path("b.obj"));
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(cli_test::slurp(path("a.obj")), cli_test::slurp(path("b.obj")));
}

TEST_F(Cli, MissingOrBrokenColliderIsOneLineError) {
  const Outcome missing = drape("--headless --frames 1 --collider " + path("none.obj"));
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.err.rfind("drape: error: --collider: ", 0), 0u) << missing.err;
  EXPECT_EQ(std::count(missing.err.begin(), missing.err.end(), '\n'), 1) << missing.err;
  {
    std::ofstream f(path("flat.obj"));
    f << "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n";
  }
  const Outcome flat = drape("--headless --frames 1 --collider " + path("flat.obj"));
  EXPECT_EQ(flat.code, 2);
  EXPECT_EQ(flat.err.rfind("drape: error: --collider: ", 0), 0u) << flat.err;
  EXPECT_EQ(std::count(flat.err.begin(), flat.err.end(), '\n'), 1) << flat.err;
  {
    std::ofstream f(path("s.json"));
    f << R"({"drape_scene": 1, "mesh": {"scene": "drape"}, "colliders": [)"
      << R"({"shape": "mesh", "obj": "gone.obj", "center": [0, 0, 0]}]})";
  }
  const Outcome scene = drape("--headless --frames 1 --scene " + path("s.json"));
  EXPECT_EQ(scene.code, 2);
  EXPECT_NE(scene.err.find("colliders[0].obj: "), std::string::npos) << scene.err;
}
