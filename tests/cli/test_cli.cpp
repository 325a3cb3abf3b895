// The command line is a contract: exit codes, one-line errors, the stats
// JSON and the exported OBJ.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace fs = std::filesystem;
using cli_test::Cli;
using cli_test::drape;
using cli_test::expectUsageError;
using cli_test::Outcome;
using cli_test::readJson;

TEST_F(Cli, HelpAndVersionAndListExitZero) {
  Outcome h = drape("--help");
  EXPECT_EQ(h.code, 0);
  for (const char* flag : {"--scene", "--set", "--frames", "--headless", "--stats", "--export-obj",
                           "--size", "--list-scenes", "--list-params", "--version"})
    EXPECT_NE(h.out.find(flag), std::string::npos) << flag;
  Outcome v = drape("--version");
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind("drape ", 0), 0u);
  Outcome l = drape("--list-scenes");
  EXPECT_EQ(l.code, 0);
  for (const char* scene : {"hang", "drape", "balloon", "tear", "fold"})
    EXPECT_NE(l.out.find(scene), std::string::npos) << scene;
}

// README.md's parameter table is what --list-params prints from the table
// the program uses, so the two never disagree.
TEST_F(Cli, TheReadmesParameterTableIsTheProgramsOwn) {
  const Outcome list = drape("--list-params");
  ASSERT_EQ(list.code, 0) << list.err;
  const std::string readme = cli_test::slurp(std::string(DRAPE_SOURCE) + "/README.md");
  const std::size_t start = readme.find("| name | default | range | meaning |");
  ASSERT_NE(start, std::string::npos);
  const std::size_t end = readme.find("\n\n", start);
  EXPECT_EQ(readme.substr(start, end + 1 - start), list.out)
      << "README.md's table differs: paste `drape --list-params` into it";
  // Every parameter has its row.
  for (const char* name : {"dt", "k_stretch", "self_collision", "gravity", "resolution"})
    EXPECT_NE(list.out.find(std::string("| `") + name + "` |"), std::string::npos) << name;
}

TEST_F(Cli, StatsHaveTheContractKeys) {
  Outcome r = drape("--headless --frames 20 --stats " + path("s.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = readJson(path("s.json"));
  for (const char* key : {"scene", "vertices", "triangles", "edges", "constraints", "frames", "dt",
                          "iterations", "stretch_sweeps", "step_ms", "strain", "bounds", "nan",
                          "min_collider_distance", "pieces", "torn_edges", "self_intersections"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["scene"], "hang");
  EXPECT_EQ(j["vertices"], 48 * 48);
  EXPECT_EQ(j["triangles"], 2 * 47 * 47);
  EXPECT_EQ(j["edges"], 2 * 48 * 47 + 47 * 47);
  EXPECT_EQ(j["constraints"]["stretch"], j["edges"]);
  EXPECT_EQ(j["constraints"]["bend"], 2 * 48 * 47 + 47 * 47 - 4 * 47);
  EXPECT_EQ(j["frames"], 20);
  EXPECT_EQ(j["iterations"], 1);  // the default: 8 sub-steps of 1, of 4 sweeps of the edges
  EXPECT_EQ(j["stretch_sweeps"], 4);
  EXPECT_NEAR(j["dt"].get<double>(), 1.0 / 60.0, 1e-7);
  for (const char* k : {"median", "p95", "max"}) EXPECT_GT(j["step_ms"][k].get<double>(), 0.0);
  EXPECT_LE(j["step_ms"]["median"].get<double>(), j["step_ms"]["max"].get<double>());
  EXPECT_GE(j["strain"]["max"].get<double>(), j["strain"]["p99"].get<double>());
  EXPECT_GE(j["strain"]["p99"].get<double>(), j["strain"]["mean"].get<double>());
  EXPECT_EQ(j["nan"], false);
  EXPECT_EQ(j["pieces"], 1);
  EXPECT_EQ(j["torn_edges"], 0);
  EXPECT_EQ(j["self_intersections"], 0);
  // The cloth fell from y = 1 but its pinned corners stayed.
  EXPECT_LT(j["bounds"]["min"][1].get<double>(), 0.9);
  EXPECT_NEAR(j["bounds"]["max"][1].get<double>(), 1.0, 1e-4);
}

// The state hash tells runs apart bit for bit: the same scene twice, and
// on one thread or two, hashes alike; another k_bend does not.
TEST_F(Cli, StateHashIsTheRunsBits) {
  auto hash = [&](const std::string& extra) {
    const Outcome r = drape("--headless --frames 30 --scene drape --set resolution=24 " + extra +
                            " --stats " + path("h.json"));
    EXPECT_EQ(r.code, 0) << r.err;
    const std::string h = readJson(path("h.json"))["state_hash"].get<std::string>();
    EXPECT_EQ(h.size(), 16u);
    return h;
  };
  const std::string first = hash("--set threads=1");
  EXPECT_EQ(hash("--set threads=1"), first);
  EXPECT_EQ(hash("--set threads=2"), first);
  EXPECT_NE(hash("--set threads=1 --set k_bend=0.3"), first);
}

// --explain-step prints the plan of the next step, after --frames N: the
// solver, the sub-steps and the stages, and why where a part is off.
TEST_F(Cli, ExplainStepPrintsThePlan) {
  Outcome r = drape("--scene balloon --explain-step");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("the step of frame 0:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("solver      xpbd"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("levels      0 (off: a balloon stretches)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("stages      pressure, stretch"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("air         drag 1, lift 0.5"), std::string::npos) << r.out;
  r = drape("--scene hang --set drag=0 --set lift=0 --set damping=1 --explain-step");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("air         off"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("damping     1 of the non-rigid motion"), std::string::npos) << r.out;
  r = drape("--scene fold --frames 6 --set solver=mass-spring --explain-step");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("the step of frame 6:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("raised to the springs' stability limit"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("self        on"), std::string::npos) << r.out;
  EXPECT_EQ(drape("--scene nowhere --explain-step").code, 2);
}

TEST_F(Cli, SetChangesTheRun) {
  Outcome r = drape(
      "--headless --frames 3 --set resolution=10 --set iterations=7 --set solver=xpbd "
      "--set gravity=0,-1,0 --stats " +
      path("s.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = readJson(path("s.json"));
  EXPECT_EQ(j["vertices"], 100);
  EXPECT_EQ(j["iterations"], 7);
  EXPECT_EQ(j["solver"], "xpbd");
}

TEST_F(Cli, BalloonStatsReportVolume) {
  Outcome r = drape("--scene balloon --headless --frames 30 --stats " + path("s.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = readJson(path("s.json"));
  EXPECT_EQ(j["vertices"], 642);
  EXPECT_EQ(j["triangles"], 1280);
  EXPECT_EQ(j["constraints"]["pressure"], 1);
  const double v0 = j["volume"]["initial"], v1 = j["volume"]["final"];
  EXPECT_NEAR(v1 / v0, 1.0, 0.1);
}

TEST_F(Cli, ExportObjAtFrameZeroIsTheInitialGrid) {
  Outcome r = drape("--headless --frames 0 --set resolution=5 --export-obj " + path("m.obj"));
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream f(path("m.obj"));
  std::string line;
  int v = 0, faces = 0;
  double firstX = 0, firstY = 0, firstZ = 0;
  while (std::getline(f, line)) {
    std::istringstream ss(line);
    std::string tag;
    ss >> tag;
    if (tag == "v") {
      double x, y, z;
      ss >> x >> y >> z;
      if (v == 0) firstX = x, firstY = y, firstZ = z;
      ++v;
    } else if (tag == "f") {
      // Corners are v/vt/vn: the vertex index comes first.
      std::string corner[3];
      ASSERT_TRUE(bool(ss >> corner[0] >> corner[1] >> corner[2])) << line;
      for (const std::string& c : corner) {
        const int v = std::stoi(c.substr(0, c.find('/')));
        EXPECT_GE(v, 1) << line;
        EXPECT_LE(v, 25) << line;
      }
      ++faces;
    }
  }
  EXPECT_EQ(v, 25);
  EXPECT_EQ(faces, 32);
  // Vertex 0 is the pinned corner (x, z) = (−1, −1) at y = 1, in input order.
  EXPECT_DOUBLE_EQ(firstX, -1.0);
  EXPECT_DOUBLE_EQ(firstY, 1.0);
  EXPECT_DOUBLE_EQ(firstZ, -1.0);
}

TEST_F(Cli, SameRunTwiceGivesIdenticalObj) {
  ASSERT_EQ(drape("--headless --frames 40 --scene drape --set resolution=16 --export-obj " +
                  path("a.obj"))
                .code,
            0);
  ASSERT_EQ(drape("--headless --frames 40 --scene drape --set resolution=16 --export-obj " +
                  path("b.obj"))
                .code,
            0);
  std::ifstream a(path("a.obj")), b(path("b.obj"));
  std::stringstream sa, sb;
  sa << a.rdbuf();
  sb << b.rdbuf();
  EXPECT_EQ(sa.str(), sb.str());
  EXPECT_GT(sa.str().size(), 1000u);
}

TEST_F(Cli, TearSceneRipsApartAndReportsIt) {
  Outcome r =
      drape("--scene tear --set resolution=24 --headless --frames 600 --stats " + path("s.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = readJson(path("s.json"));
  EXPECT_GE(j["pieces"].get<int>(), 2);
  EXPECT_GT(j["torn_edges"].get<int>(), 0);
  EXPECT_GT(j["vertices"].get<int>(), 24 * 24);  // split vertices were added
  EXPECT_EQ(j["nan"], false);
}

TEST_F(Cli, FoldSceneStaysUntangledWithSelfCollisionOnly) {
  Outcome on = drape("--scene fold --headless --frames 150 --stats " + path("on.json"));
  Outcome off = drape("--scene fold --set self_collision=0 --headless --frames 150 --stats " +
                      path("off.json"));
  ASSERT_EQ(on.code, 0) << on.err;
  ASSERT_EQ(off.code, 0) << off.err;
  EXPECT_EQ(readJson(path("on.json"))["self_intersections"], 0);
  EXPECT_GT(readJson(path("off.json"))["self_intersections"].get<int>(), 0);
}

TEST_F(Cli, BadInputIsRefusedWithOneLineAndExitTwo) {
  expectUsageError(drape("--scene nowhere --headless --frames 1"), "unknown scene 'nowhere'");
  expectUsageError(drape("--set bogus=1 --headless --frames 1"), "unknown parameter 'bogus'");
  expectUsageError(drape("--set dt=-0.1 --headless --frames 1"), "dt");
  expectUsageError(drape("--set iterations=0 --headless --frames 1"), "iterations");
  expectUsageError(drape("--set solver=magic --headless --frames 1"), "pbd, xpbd");
  expectUsageError(drape("--set dt --headless --frames 1"), "KEY=VALUE");
  expectUsageError(drape("--frames -3 --headless"), "--frames");
  expectUsageError(drape("--frames many --headless"), "--frames");
  expectUsageError(drape("--size 12by7"), "--size");
  expectUsageError(drape("--no-such-flag"), "no-such-flag");
  expectUsageError(drape("--headless"), "--frames");
}

TEST_F(Cli, UnwritableOutputsAreRefusedBeforeTheRun) {
  expectUsageError(drape("--headless --frames 1 --stats " + path("missing/dir/s.json")), "--stats");
  expectUsageError(drape("--headless --frames 1 --export-obj " + dir_.string()), "--export-obj");
  expectUsageError(drape("--headless --frames 1 --export-obj /proc/drape.obj"), "--export-obj");
  EXPECT_FALSE(fs::exists(path("missing")));
}

TEST_F(Cli, WindowWithoutDisplayFailsCleanly) {
  // DISPLAY is unset for these tests: the window cannot open.
  Outcome r = drape("--frames 1");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("drape: error: ", 0), 0u) << r.err;
}
