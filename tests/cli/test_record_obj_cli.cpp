// --record-obj through the real binary: one OBJ per frame, the last equal to
// --export-obj byte for byte, every file read back by drape's own loader,
// recording that changes nothing in the run, and the folder refusals.

#include <algorithm>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "io/obj_reader.hpp"

using namespace cli_test;

namespace {

std::size_t countLines(const std::string& text, const std::string& tag) {
  std::size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) n += line.rfind(tag + " ", 0) == 0 ? 1 : 0;
  return n;
}

std::vector<std::string> filesIn(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_F(Cli, RecordObjWritesEveryFrameAndTheLastIsTheExport) {
  const std::string out = path("out");
  Outcome r = cli_test::drape("--headless --scene tear --frames 120 --record-obj " + out +
                              " --export-obj " + path("last.obj"));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::vector<std::string> names = filesIn(out);
  ASSERT_EQ(names.size(), 120u);
  EXPECT_EQ(names.front(), "frame_00000.obj");
  EXPECT_EQ(names.back(), "frame_00119.obj");
  EXPECT_EQ(slurp(out + "/frame_00119.obj"), slurp(path("last.obj")));

  // Every file parses, with the counts its header states; the tear adds
  // vertices on the way, and the UVs stay one per corner of the grid.
  std::size_t firstVertices = 0, lastVertices = 0;
  for (const std::string& name : names) {
    const std::string file = out + "/" + name;
    const std::string text = slurp(file);
    auto back = drape::io::readObj(file);
    ASSERT_TRUE(back) << back.error();
    EXPECT_TRUE(back->warnings.empty()) << name << ": " << back->warnings.front();
    EXPECT_EQ(back->mesh.positions.size(), countLines(text, "v")) << name;
    EXPECT_EQ(back->normals, back->mesh.positions.size()) << name;
    EXPECT_EQ(back->mesh.triangles.size(), countLines(text, "f")) << name;
    EXPECT_EQ(back->mesh.cornerUVs.size(), 3 * back->mesh.triangles.size()) << name;
    const std::string header = "# drape: " + std::to_string(back->mesh.positions.size()) +
                               " vertices, " + std::to_string(back->mesh.triangles.size()) +
                               " triangles\n";
    EXPECT_EQ(text.rfind(header, 0), 0u) << name;
    if (name == names.front()) firstVertices = back->mesh.positions.size();
    lastVertices = back->mesh.positions.size();
  }
  EXPECT_EQ(firstVertices, 48u * 48u);
  EXPECT_GT(lastVertices, firstVertices);  // torn: split vertices were added
}

TEST_F(Cli, RecordingChangesNothingInTheRun) {
  // Frame N − 1 of a recorded run is the export of a run of N frames
  // without any recording.
  ASSERT_EQ(
      cli_test::drape("--headless --scene drape --set resolution=16 --frames 40 --record-obj " +
                      path("seq"))
          .code,
      0);
  ASSERT_EQ(
      cli_test::drape("--headless --scene drape --set resolution=16 --frames 25 --export-obj " +
                      path("e25.obj"))
          .code,
      0);
  const std::string recorded = slurp(path("seq/frame_00024.obj"));
  EXPECT_GT(recorded.size(), 1000u);
  EXPECT_EQ(recorded, slurp(path("e25.obj")));
}

TEST_F(Cli, RecordObjRefusesAFolderWithFilesUnlessOverwrite) {
  fs::create_directories(path("busy"));
  std::ofstream(path("busy/notes.txt")) << "keep me\n";
  expectUsageError(cli_test::drape("--headless --frames 3 --record-obj " + path("busy")),
                   "--overwrite");
  EXPECT_EQ(filesIn(path("busy")), std::vector<std::string>{"notes.txt"});

  Outcome r = cli_test::drape("--headless --frames 3 --overwrite --record-obj " + path("busy"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(filesIn(path("busy")), (std::vector<std::string>{"frame_00000.obj", "frame_00001.obj",
                                                             "frame_00002.obj", "notes.txt"}));
  EXPECT_EQ(slurp(path("busy/notes.txt")), "keep me\n");
}

TEST_F(Cli, RecordObjRefusesWhatIsNotAWritableFolder) {
  std::ofstream(path("file.txt")) << "x\n";
  expectUsageError(cli_test::drape("--headless --frames 3 --record-obj " + path("file.txt")),
                   "is not a folder");
  expectUsageError(cli_test::drape("--headless --frames 3 --record-obj /proc/drape-meshes"),
                   "--record-obj /proc/drape-meshes");
  expectUsageError(cli_test::drape("--headless --frames 3 --record-obj ''"),
                   "--record-obj needs a folder");
}

TEST_F(Cli, RecordObjKeepsTheUVsOfALoadedMesh) {
  // A cube with a UV layout of 14 coordinates over 8 positions, as cloth.
  Outcome r = cli_test::drape("--headless --frames 2 --mesh " + std::string(DRAPE_TEST_DATA) +
                              "/obj/uv_seam_cube.obj --as cloth --record-obj " + path("cube"));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = slurp(path("cube/frame_00001.obj"));
  EXPECT_EQ(countLines(text, "v"), 8u);
  EXPECT_EQ(countLines(text, "vt"), 14u);
  EXPECT_EQ(countLines(text, "vn"), 8u);
  EXPECT_EQ(countLines(text, "f"), 12u);
}
