// Hostile input on the command line: numbers beyond a double, deep nests,
// file names that are not UTF-8, pipes and devices, outputs that would
// replace inputs or each other, runs that used to crash. Each ends with a
// clear one-line message or a finished run, never a crash or a hang.

#include <sys/stat.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <utility>

#include "cli_runner.hpp"

using namespace cli_test;

namespace {

const std::string kGrid = std::string(DRAPE_TEST_DATA) + "/obj/blender_grid.obj";

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string hangScene(const std::string& rest) {
  return R"({"drape_scene": 1, "mesh": {"scene": "hang"})" + rest + "}";
}

}  // namespace

TEST_F(Cli, AbsurdFiniteSizesAreRefusedNamingTheFieldAndTheRange) {
  const std::pair<const char*, const char*> cases[] = {
      {R"(, "colliders": [{"shape": "sphere", "center": [0, 0, 0], "radius": 1e38}])",
       "colliders[0].radius: expected a number > 0 and <= 10000 m"},
      {R"(, "colliders": [{"shape": "box", "center": [0, 0, 0], "half_extents": [1, 1e38, 1]}])",
       "colliders[0].half_extents[1]: expected a number within ±10000 m"},
      {R"(, "colliders": [{"shape": "sphere", "center": [0, -1e38, 0], "radius": 1}])",
       "colliders[0].center[1]: expected a number within ±10000 m"},
      {R"(, "pins": [{"vertex": 0, "anchor": [1e38, 0, 0]}])",
       "pins[0].anchor[0]: expected a number within ±10000 m"},
      {R"(, "pins": [{"vertex": 0, "motion": {"velocity": [0, 1e30, 0]}}])",
       "pins[0].motion.velocity[1]: expected a number within ±1000 m/s"},
      {R"(, "pins": [{"vertex": 0, "motion": {"amplitude": [0, 1e30, 0], "frequency": 1}}])",
       "pins[0].motion.amplitude[1]: expected a number within ±10000 m"},
      {R"(, "pins": [{"vertex": 0, "motion": {"amplitude": [0, 1, 0], "frequency": 1e30}}])",
       "pins[0].motion.frequency: expected a number within ±1000 Hz"},
  };
  for (const auto& [rest, message] : cases) {
    write(path("s.json"), hangScene(rest));
    expectUsageError(drape("--headless --frames 1 --scene " + path("s.json")), message);
  }
}

TEST_F(Cli, MeshesTooLargeOrTooSmallAreRefusedWithTheScaleToUse) {
  write(path("big.obj"), "v 0 0 0\nv 1e38 0 0\nv 0 1e38 0\nf 1 2 3\n");
  write(path("tiny.obj"), "v 0 0 0\nv 1e-30 0 0\nv 0 1e-30 0\nf 1 2 3\n");
  expectUsageError(drape("--headless --frames 1 --mesh " + path("big.obj")),
                   "the mesh is 1.41e+38 m across: expected 0.0001 to 10000 m");
  expectUsageError(drape("--headless --frames 1 --mesh " + path("tiny.obj")),
                   "the mesh is 1.41e-30 m across: expected 0.0001 to 10000 m");
  expectUsageError(drape("--headless --frames 1 --mesh " + path("tiny.obj") + " --scale 1e39"),
                   "expected a number > 0 and <= 1e6");
  // Numbers are decimal everywhere: hexadecimal is refused as --frames refuses it.
  expectUsageError(drape("--headless --frames 1 --mesh " + path("tiny.obj") + " --scale 0x10"),
                   "bad value '0x10' for --scale");
  expectUsageError(drape("--headless --frames 1 --scene hang --set dt=0x1"), "0x1");
}

TEST_F(Cli, ADuplicateKeyOrANulInAPathIsRefused) {
  write(path("twice.json"), hangScene(R"(, "params": {"k_bend": 0.1, "k_bend": 0.2})"));
  expectUsageError(drape("--headless --frames 1 --scene " + path("twice.json")),
                   "the key \"k_bend\" is given twice in one object");
  write(path("nul.json"), R"({"drape_scene": 1, "mesh": {"obj": "a.obj\u0000b.obj"}})");
  expectUsageError(drape("--headless --frames 1 --scene " + path("nul.json")),
                   "mesh.obj: a path cannot hold a NUL byte");
}

TEST_F(Cli, ANumberBeyondADoubleIsAnError) {
  write(path("big.json"), hangScene(R"(, "params": {"dt": 1e400})"));
  expectUsageError(drape("--headless --frames 1 --scene " + path("big.json")), "number overflow");
}

TEST_F(Cli, ADeepNestIsQuotedShort) {
  // 100,000 levels of arrays where a number belongs: refused with a short
  // excerpt, not a recursive dump of the whole value.
  const std::string nest = std::string(100000, '[') + std::string(100000, ']');
  write(path("deep.json"), hangScene(R"(, "params": {"k_bend": )" + nest + "}"));
  Outcome r = drape("--headless --frames 1 --scene " + path("deep.json"));
  expectUsageError(r, "params.k_bend");
  write(path("deep2.json"), R"({"drape_scene": 1, "mesh": {"scene": )" + nest + "}}");
  r = drape("--headless --frames 1 --scene " + path("deep2.json"));
  expectUsageError(r, "mesh.scene");
  EXPECT_LT(r.err.size(), 400u) << r.err;
}

TEST_F(Cli, AKeyWithANewlineStaysOnOneLine) {
  write(path("key.json"), hangScene(R"(, "params": {"dt\nX": 0.01})"));
  expectUsageError(drape("--headless --frames 1 --scene " + path("key.json")), "dt\\nX");
  expectUsageError(drape("--headless --frames 1 --scene '" + path("a\nb.json") + "'"),
                   "a\\nb.json");
}

TEST_F(Cli, AFileNameThatIsNotUtf8) {
  const std::string latin1 = path("caf\xe9.obj");
  fs::copy_file(kGrid, latin1);
  // --stats writes the name with U+FFFD for the odd byte.
  write(path("s.json"), "previous");
  Outcome r = drape("--headless --frames 1 --mesh '" + latin1 + "' --stats " + path("s.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(readJson(path("s.json"))["scene"].get<std::string>().find("\xef\xbf\xbd"),
            std::string::npos);
  // A scene file cannot hold it: refused before the run, the old file kept.
  write(path("scene.json"), "previous");
  r = drape("--headless --frames 1 --mesh '" + latin1 + "' --save-scene " + path("scene.json"));
  expectUsageError(r, "not UTF-8");
  EXPECT_NE(r.err.find("caf\\xe9.obj"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(path("scene.json")), "previous");
}

TEST_F(Cli, PipesAndDevicesAreNotReadAsScenes) {
  ASSERT_EQ(::mkfifo(path("fifo.json").c_str(), 0600), 0);
  expectUsageError(drape("--headless --frames 1 --scene " + path("fifo.json")),
                   "not a regular file");
  expectUsageError(drape("--headless --frames 1 --scene /dev/urandom"), "not a regular file");
  expectUsageError(drape("--headless --frames 1 --mesh " + path("fifo.json")),
                   "not a regular file");
}

TEST_F(Cli, APipeThatNothingReadsIsRefusedBeforeTheRun) {
  ASSERT_EQ(::mkfifo(path("out").c_str(), 0600), 0);
  expectUsageError(drape("--headless --frames 1 --stats " + path("out")),
                   "is a pipe that nothing reads");
  // Devices are written in place.
  EXPECT_EQ(drape("--headless --frames 1 --stats /dev/null").code, 0);
}

TEST_F(Cli, APipeWithAReaderGetsTheWholeOutput) {
  ASSERT_EQ(::mkfifo(path("out").c_str(), 0600), 0);
  // The reader waits in open until drape opens the pipe, before the run,
  // and reads until drape closes it: once, with the whole of the stats.
  std::string read;
  std::thread reader([&] {
    std::ifstream in(path("out"));
    read.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  });
  const Outcome r = drape("--headless --frames 3 --stats " + path("out"));
  reader.join();
  EXPECT_EQ(r.code, 0) << r.err;
  const auto stats = nlohmann::json::parse(read, nullptr, false);
  ASSERT_FALSE(stats.is_discarded()) << read;
  EXPECT_EQ(stats["frames"], 3);
  EXPECT_TRUE(fs::is_fifo(path("out")));  // still the pipe
}

TEST_F(Cli, EmptyOutputPathsAreRefused) {
  expectUsageError(drape("--headless --frames 1 --stats ''"), "--stats needs a file name");
  expectUsageError(drape("--headless --frames 1 --export-obj ''"),
                   "--export-obj needs a file name");
}

TEST_F(Cli, NoOutputReplacesAnotherOrAnInput) {
  expectUsageError(drape("--headless --frames 1 --stats " + path("x") + " --export-obj " +
                         dir_.string() + "/./x"),
                   "name the same file");
  write(path("in.json"), hangScene(""));
  expectUsageError(
      drape("--headless --frames 1 --scene " + path("in.json") + " --stats " + path("in.json")),
      "is the --scene input");
  EXPECT_EQ(slurp(path("in.json")), hangScene(""));
  fs::copy_file(kGrid, path("grid.obj"));
  expectUsageError(drape("--headless --frames 1 --mesh " + path("grid.obj") + " --export-obj " +
                         path("grid.obj")),
                   "is the --mesh input");
  // The OBJ a scene file names is an input too, through a symbolic link as well.
  write(path("mesh.json"), R"({"drape_scene": 1, "mesh": {"obj": "grid.obj"}})");
  fs::create_symlink(path("grid.obj"), path("link.obj"));
  expectUsageError(drape("--headless --frames 1 --scene " + path("mesh.json") + " --export-obj " +
                         path("link.obj")),
                   "the scene file's OBJ input");
  EXPECT_EQ(slurp(path("grid.obj")), slurp(kGrid));
  // A frame of a recording.
  expectUsageError(drape("--headless --frames 1 --record-obj " + path("rec") + " --export-obj " +
                         path("rec/frame_00000.obj")),
                   "--record-obj writes its frames");
  // Mesh colliders, from --collider or a scene file, through a link too.
  fs::copy_file(kGrid, path("ball.obj"));
  fs::create_symlink(path("ball.obj"), path("ball_link.obj"));
  expectUsageError(drape("--headless --frames 1 --scene hang --collider " + path("ball.obj") +
                         " --stats " + path("ball_link.obj")),
                   "is a mesh collider's OBJ input");
  write(path("coll.json"),
        hangScene(R"(, "colliders": [{"shape": "mesh", "center": [0, 0, 0], "obj": "ball.obj"}])"));
  expectUsageError(drape("--headless --frames 1 --scene " + path("coll.json") + " --export-obj " +
                         path("ball.obj")),
                   "is a mesh collider's OBJ input");
  EXPECT_EQ(slurp(path("ball.obj")), slurp(kGrid));
  // A recording into the folder of an input named like one of its frames.
  fs::create_directories(path("rec2"));
  fs::copy_file(kGrid, path("rec2/frame_00000.obj"));
  expectUsageError(drape("--headless --frames 1 --mesh " + path("rec2/frame_00000.obj") +
                         " --record-obj " + path("rec2") + " --overwrite"),
                   "would write a frame over the --mesh input");
  EXPECT_EQ(slurp(path("rec2/frame_00000.obj")), slurp(kGrid));
}

TEST_F(Cli, ADanglingLinkIsWrittenWhereItPoints) {
  fs::create_symlink("target.json", path("link.json"));
  ASSERT_EQ(drape("--headless --frames 1 --stats " + path("link.json")).code, 0);
  EXPECT_TRUE(fs::is_symlink(path("link.json")));
  EXPECT_EQ(readJson(path("target.json"))["frames"], 1);
  // Written again through the link: the link stays, the file is replaced.
  ASSERT_EQ(drape("--headless --frames 2 --stats " + path("link.json")).code, 0);
  EXPECT_TRUE(fs::is_symlink(path("link.json")));
  EXPECT_EQ(readJson(path("target.json"))["frames"], 2);
}

TEST_F(Cli, HugePlaneNormalsAreNormalisedAndSaveBack) {
  write(path("plane.json"), hangScene(R"(, "colliders": [{"shape": "plane", "center": [0, -1, 0],
                       "normal": [1e20, 1e20, 1e20]}])"));
  ASSERT_EQ(drape("--headless --frames 0 --scene " + path("plane.json") + " --save-scene " +
                  path("saved.json"))
                .code,
            0);
  const Outcome r = drape("--headless --frames 1 --scene " + path("saved.json"));
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST_F(Cli, RunsThatUsedToCrashFinish) {
  // A query box beside the spatial hash's block of cells read out of bounds.
  Outcome r = drape(
      "--headless --scene barrel --set k_stretch=1e-45 --set dt=0.25 --set iterations=1 "
      "--frames 40 --stats " +
      path("a.json"));
  EXPECT_EQ(r.code, 0) << r.err;
  r = drape(
      "--headless --scene barrel --set dt=0.1 --set iterations=1 --set k_stretch=0.001 "
      "--set k_bend=1 --set k_pressure=10 --set damping=0 --frames 200 --stats " +
      path("b.json"));
  EXPECT_EQ(r.code, 0) << r.err;
  // A balloon without stretch resistance spreads without end: no crash.
  r = drape(
      "--headless --scene balloon --set k_stretch=0 --set k_pressure=0.05 --frames 300 "
      "--stats " +
      path("c.json"));
  EXPECT_EQ(r.code, 0) << r.err;
  for (const char* name : {"a.json", "b.json", "c.json"})
    EXPECT_FALSE(readJson(path(name))["nan"].get<bool>()) << name;
}

TEST_F(Cli, TheWatchdogSaysItStoppedTheRun) {
  // The explicit solver at one sub-step of 1/60 s, a hundred times its limit.
  const Outcome r = drape(
      "--headless --scene hang --set solver=mass-spring --set substeps=1 --set stable_substeps=0 "
      "--frames 300 --stats " +
      path("s.json"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("stable_substeps=1"), std::string::npos) << r.err;  // the way out
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(readJson(path("s.json"))["watchdog"].get<bool>());
}

TEST_F(Cli, RunningOutOfMemoryIsOneLineAndKeepsTheOutputs) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit";
#endif
  // While setting up: 512² under 90 MB of address space.
  Outcome r =
      drape("--headless --frames 2 --scene drape --set resolution=512", "ulimit -v 90000; ");
  expectUsageError(r, "out of memory while setting up");
  // In the first frame: the scene fits, its self collision does not. The
  // step is rolled back and the outputs are written from frame 0.
  r = drape(
      "--headless --frames 2 --scene drape --set resolution=512 --set self_collision=on "
      "--stats " +
          path("s.json"),
      "ulimit -v 600000; ");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.err.rfind("drape: error: out of memory at frame 1; rolled back to frame 0", 0), 0u)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  const nlohmann::json stats = readJson(path("s.json"));
  EXPECT_EQ(stats["vertices"].get<int>(), 512 * 512);
  EXPECT_TRUE(stats["watchdog"].get<bool>());
  EXPECT_FALSE(stats["nan"].get<bool>());
}

TEST_F(Cli, ASlowRunSaysHowFarItIsAndAQuickOneSaysNothing) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "a run slow by its settings, not by the sanitizer's cost";
#endif
  // Over a second a frame (dt 0.25 s, 100 sub-steps × 100 iterations):
  // lines on stderr, each "frame k of N", with the time a frame takes.
  Outcome r = drape(
      "--headless --scene hang --set dt=0.25 --set substeps=100 --set iterations=100 "
      "--set resolution=48 --frames 20");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("drape: frame "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" of 20, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" s a frame, about "), std::string::npos) << r.err;
  r = drape("--headless --scene hang --frames 60");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST_F(Cli, AReaderThatGoesAwayIsAnErrorNotASignal) {
  // The OBJ (about 300 KB) into a pipe whose reader stops after 10 bytes:
  // one line and exit 1, where SIGPIPE used to kill drape mid-write.
  const std::string err = path("err");
  const std::string cmd = std::string(DRAPE_BIN) +
                          " --headless --scene hang --set resolution=64 --frames 2 "
                          "--export-obj /dev/stdout 2>" +
                          err + " | head -c 10 >/dev/null; exit ${PIPESTATUS[0]}";
  const int status = std::system(("bash -c '" + cmd + "'").c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_EQ(slurp(err), "drape: error: cannot write /dev/stdout: Broken pipe\n");
}

TEST_F(Cli, AFanTooDenseForSelfCollisionRunsWithAWarning) {
  // 60,000 triangles round one hub: self collision gives up on the mesh at
  // once (instead of seconds a frame), says so in one line, and the run
  // goes on without it.
  const int n = 60000;
  {
    std::ofstream obj(path("fan.obj"));
    obj << "v 0 1 0\n";
    for (int i = 0; i < n; ++i) {
      const double a = 6.283185307179586 * i / n;
      obj << "v " << std::cos(a) << " 1 " << std::sin(a) << "\n";
    }
    for (int i = 0; i < n; ++i) obj << "f 1 " << i + 2 << " " << (i + 1) % n + 2 << "\n";
  }
  const Outcome r =
      drape("--headless --mesh " + path("fan.obj") +
            " --as cloth --pin none --set self_collision=1 --frames 3 --stats " + path("s.json"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.rfind("drape: warning: self collision is off for this mesh", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  const nlohmann::json stats = readJson(path("s.json"));
  EXPECT_TRUE(stats["self_collision_too_dense"].get<bool>());
  EXPECT_FALSE(stats["nan"].get<bool>());
}
