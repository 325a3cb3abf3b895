// The --mesh, --as and --pin command line, run through the real binary:
// exit codes, the one-line "drape: error: " messages, warnings, and what the
// stats report says about the loaded mesh.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/obj_reader.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kData = std::string(DRAPE_TEST_DATA) + "/obj/";

struct Outcome {
  int code = -1;
  std::string out, err;
  fs::path dir;  // where the run's outputs went
  std::vector<std::string> errLines() const {
    std::vector<std::string> lines;
    std::istringstream in(err);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
  }
};

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs drape with `args` in a fresh folder; --stats and --export-obj, when
// wanted, go to s.json and out.obj there.
Outcome drape(const std::vector<std::string>& args) {
  Outcome r;
  const testing::TestInfo* t = testing::UnitTest::GetInstance()->current_test_info();
  r.dir = fs::path(testing::TempDir()) / (std::string("mesh_cli_") + t->name());
  fs::remove_all(r.dir);
  fs::create_directories(r.dir);
  std::string cmd = "cd " + quote(r.dir.string()) + " && " + quote(DRAPE_BINARY);
  for (const std::string& a : args) cmd += " " + quote(a);
  cmd += " >stdout.txt 2>stderr.txt";
  const int status = std::system(cmd.c_str());
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = readAll(r.dir / "stdout.txt");
  r.err = readAll(r.dir / "stderr.txt");
  return r;
}

std::vector<std::string> headless(const std::string& mesh, std::vector<std::string> more = {},
                                  const std::string& frames = "5") {
  std::vector<std::string> a = {"--headless",   "--frames", frames,    "--mesh", mesh,
                                "--export-obj", "out.obj",  "--stats", "s.json"};
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

nlohmann::json stats(const Outcome& r) {
  return nlohmann::json::parse(readAll(r.dir / "s.json"));
}

void expectOneError(const Outcome& r, const std::string& contains) {
  EXPECT_EQ(r.code, 2);
  const auto lines = r.errLines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("drape: error: ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find(contains), std::string::npos) << lines[0];
  EXPECT_FALSE(fs::exists(r.dir / "s.json"));
  EXPECT_FALSE(fs::exists(r.dir / "out.obj"));
}

TEST(MeshCli, ClosedCubeBecomesABalloon) {
  const Outcome r = drape(headless(kData + "blender_cube.obj"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const nlohmann::json s = stats(r);
  EXPECT_EQ(s["scene"], "blender_cube.obj");
  EXPECT_EQ(s["vertices"], 8);
  EXPECT_EQ(s["triangles"], 12);
  EXPECT_EQ(s["frames"], 5);
  EXPECT_EQ(s["constraints"]["pressure"], 1);
  EXPECT_EQ(s["constraints"]["pins"], 0);
  EXPECT_EQ(s["constraints"]["colliders"], 1);
  auto exported = drape::io::readObj((r.dir / "out.obj").string());
  ASSERT_TRUE(exported) << exported.error();
  EXPECT_EQ(exported->mesh.positions.size(), 8u);
  EXPECT_EQ(exported->mesh.triangles.size(), 12u);
}

TEST(MeshCli, LinesAloneLoadAsStrandsAndExportAsLines) {
  for (const char* as : {"auto", "strands"}) {
    const Outcome r = drape(headless(kData + "lines_only.obj", {"--as", as}));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(stats(r)["vertices"], 3);
    EXPECT_EQ(stats(r)["triangles"], 0);
    auto exported = drape::io::readObj((r.dir / "out.obj").string());
    ASSERT_TRUE(exported) << exported.error();
    EXPECT_EQ(exported->mesh.strands, (std::vector<std::vector<std::uint32_t>>{{0, 1, 2}}));
  }
}

TEST(MeshCli, SplitCubeWeldsWithOneWarningLine) {
  const std::string path = kData + "split_cube.obj";
  const Outcome r = drape(headless(path));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.errLines(), std::vector<std::string>{"drape: warning: " + path +
                                                   ": 16 coincident vertices welded"});
  EXPECT_EQ(stats(r)["vertices"], 8);
  EXPECT_EQ(stats(r)["triangles"], 12);
}

TEST(MeshCli, UvSeamedCubeStaysEightVertices) {
  const Outcome r = drape(headless(kData + "uv_seam_cube.obj"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(stats(r)["vertices"], 8);
  EXPECT_EQ(stats(r)["triangles"], 12);
}

TEST(MeshCli, ClosedMeshAsCloth) {
  const Outcome r = drape(headless(kData + "hex_prism.obj", {"--as", "cloth"}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(stats(r)["vertices"], 12);
  EXPECT_EQ(stats(r)["constraints"]["pressure"], 0);
}

TEST(MeshCli, PinTopAndPinList) {
  const Outcome top = drape(headless(kData + "blender_grid.obj", {"--pin", "top"}));
  ASSERT_EQ(top.code, 0) << top.err;
  EXPECT_EQ(stats(top)["vertices"], 16);
  EXPECT_EQ(stats(top)["constraints"]["pins"], 4);
  EXPECT_FLOAT_EQ(stats(top)["bounds"]["max"][1].get<float>(), 2.0f);  // held at the top

  const Outcome list = drape(headless(kData + "blender_grid.obj", {"--pin", "0,3,15"}));
  ASSERT_EQ(list.code, 0) << list.err;
  EXPECT_EQ(stats(list)["constraints"]["pins"], 3);

  const Outcome none = drape(headless(kData + "blender_grid.obj", {"--pin", "none"}));
  ASSERT_EQ(none.code, 0) << none.err;
  EXPECT_EQ(stats(none)["constraints"]["pins"], 0);
}

TEST(MeshCli, SetStillApplies) {
  const Outcome r = drape(headless(kData + "maya_groups.obj", {"--set", "iterations=3"}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(stats(r)["iterations"], 3);
  EXPECT_EQ(stats(r)["vertices"], 18);
}

TEST(MeshCli, LoaderErrorsAreOneLine) {
  expectOneError(drape(headless(kData + "no_such.obj")), kData + "no_such.obj");
  expectOneError(drape(headless(kData + "broken/index_zero.obj")),
                 kData + "broken/index_zero.obj:4: vertex index 0");
  expectOneError(drape(headless(kData + "broken/garbage.obj")), kData + "broken/garbage.obj:1:");
  expectOneError(drape(headless(kData + "broken/line_repeats.obj")), "a line repeats vertex 1");
  expectOneError(drape(headless(kData + "broken/line_one_vertex.obj")),
                 "a line needs at least 2 vertices");
  expectOneError(drape(headless(kData + "broken/line_ambiguous.obj")),
                 "neither a seam nor a strand");
  expectOneError(drape(headless(kData + "lines_only.obj", {"--as", "cloth"})), "only strands");
  expectOneError(drape(headless(kData + "uv_seam_cube.obj", {"--as", "strands"})),
                 "has no strands");
  expectOneError(drape(headless(kData + "broken/empty.obj")), "empty");
  expectOneError(drape(headless(kData)), "is a folder");
}

TEST(MeshCli, SceneErrorsAreOneLine) {
  expectOneError(drape(headless(kData + "blender_grid.obj", {"--as", "balloon"})),
                 "blender_grid.obj is not closed, cannot be a balloon");
  expectOneError(drape(headless(kData + "blender_grid.obj", {"--pin", "16"})),
                 "pin vertex 16 is out of range");
  expectOneError(drape(headless(kData + "blender_grid.obj", {"--set", "nonsense=1"})), "nonsense");
}

TEST(MeshCli, FlagMistakesAreOneLine) {
  const std::string grid = kData + "blender_grid.obj";
  expectOneError(drape({"--headless", "--frames", "1", "--mesh", grid, "--scene", "hang"}),
                 "--mesh and --scene cannot be used together");
  expectOneError(drape({"--headless", "--frames", "1", "--as", "cloth"}), "--as needs --mesh");
  expectOneError(drape({"--headless", "--frames", "1", "--pin", "top"}), "--pin needs --mesh");
  expectOneError(drape({"--headless", "--frames", "1", "--mesh", grid, "--as", "jelly"}),
                 "bad value 'jelly' for --as");
  expectOneError(drape({"--headless", "--frames", "1", "--mesh", grid, "--pin", "1,x"}),
                 "bad value '1,x' for --pin");
  expectOneError(drape({"--headless", "--frames", "1", "--mesh", ""}), "--mesh needs a file name");
}

TEST(MeshCli, HelpListsTheFlags) {
  const Outcome r = drape({"--help"});
  ASSERT_EQ(r.code, 0);
  for (const char* flag : {"--mesh", "--as", "--pin"})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
}

// A flat square sheet of n × n quads, `size` file units a side, in the
// file's x–y plane (horizontal once z is up).
std::string sheet(int n, float size) {
  std::string text;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i)
      text += "v " + std::to_string(size * float(i) / float(n)) + " " +
              std::to_string(size * float(j) / float(n)) + " 0\n";
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int a = j * (n + 1) + i + 1;
      text += "f " + std::to_string(a) + " " + std::to_string(a + 1) + " " +
              std::to_string(a + n + 2) + " " + std::to_string(a + n + 1) + "\n";
    }
  return text;
}

void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

TEST(MeshCli, NormalIndicesWithoutNormalsWarnAndLoad) {
  // As some exporters (and tinyobjloader's own test models) write them.
  const fs::path obj = fs::path(testing::TempDir()) / "no_vn.obj";
  writeFile(obj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1//1 2//1 3//1\nf 2//9 4//2 3//2\n");
  const Outcome r = drape(headless(obj.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(stats(r)["triangles"], 2);
  ASSERT_EQ(r.errLines().size(), 1u) << r.err;
  EXPECT_NE(r.err.find("ignored 6 face corners' normal indices"), std::string::npos) << r.err;
}

TEST(MeshCli, ZUpExportsStandUpAndScaleToMetres) {
  // 300 units across in a z-up file: laid flat and scaled to 3 m.
  const fs::path obj = fs::path(testing::TempDir()) / "zup_sheet.obj";
  writeFile(obj, sheet(10, 300.0f));
  const Outcome big = drape(headless(obj.string()));
  ASSERT_EQ(big.code, 0) << big.err;
  EXPECT_NE(big.err.find("424 m across"), std::string::npos) << big.err;
  EXPECT_NE(big.err.find("--scale 0.01"), std::string::npos) << big.err;

  const Outcome placed = drape(
      headless(obj.string(), {"--up", "z", "--scale", "0.01", "--save-scene", "scene.json"}, "0"));
  ASSERT_EQ(placed.code, 0) << placed.err;
  EXPECT_EQ(placed.err, "");
  const nlohmann::json s = stats(placed);
  EXPECT_NEAR(s["bounds"]["max"][0].get<float>(), 3.0f, 1e-5f);
  EXPECT_NEAR(s["bounds"]["max"][1].get<float>(), 0.0f, 1e-5f);   // flat: y = 0 everywhere
  EXPECT_NEAR(s["bounds"]["min"][2].get<float>(), -3.0f, 1e-5f);  // file +y → drape −z
  // The scene file keeps both, and reloads to the same mesh.
  const nlohmann::json scene = nlohmann::json::parse(readAll(placed.dir / "scene.json"));
  EXPECT_EQ(scene["mesh"]["up"], "z");
  EXPECT_EQ(scene["mesh"]["scale"], 0.01);
  // (Beside the run's folder, which the next run clears: the OBJ path is
  // relative, "../zup_sheet.obj".)
  const fs::path saved = fs::path(testing::TempDir()) / "zup_saved";
  fs::create_directories(saved);
  fs::copy_file(placed.dir / "scene.json", saved / "scene.json",
                fs::copy_options::overwrite_existing);
  const Outcome again = drape({"--headless", "--frames", "0", "--scene",
                               (saved / "scene.json").string(), "--stats", "s.json"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(stats(again)["bounds"], s["bounds"]);

  expectOneError(drape(headless(obj.string(), {"--up", "x"})), "bad value 'x' for --up");
  expectOneError(drape(headless(obj.string(), {"--scale", "-2"})), "bad value '-2' for --scale");
  expectOneError(drape({"--headless", "--frames", "1", "--scale", "2"}), "--scale needs --mesh");
}

TEST(MeshCli, PinTopOnAFlatSheetPinsItsFarEdge) {
  const fs::path obj = fs::path(testing::TempDir()) / "flat_sheet.obj";
  writeFile(obj, sheet(8, 2.0f));
  const Outcome r = drape(headless(obj.string(), {"--up", "z", "--pin", "top"}, "60"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(stats(r)["constraints"]["pins"], 9);  // one edge, not all 81
  EXPECT_NE(r.err.find("flat horizontal sheet"), std::string::npos) << r.err;
  // The rest falls to the floor (half a metre below), hanging from that edge.
  EXPECT_LT(stats(r)["bounds"]["min"][1].get<float>(), -0.4f);
  EXPECT_FLOAT_EQ(stats(r)["bounds"]["max"][1].get<float>(), 0.0f);
}

}  // namespace
