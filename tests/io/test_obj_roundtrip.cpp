// What io::writeObj writes, io::readObj reads back: the same positions in the
// same order, the same triangles and corner UVs, a normal per vertex. An
// ObjWriter reused over a sequence writes what a fresh one would, through
// tears, and the same text on any thread count, with the renderer's normals;
// a failed write leaves the file that was there.

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <csignal>
#include <cstdio>
#include <iterator>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/obj_reader.hpp"
#include "io/obj_writer.hpp"
#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "sim/mesh.hpp"
#include "sim/step/step.hpp"
#include "sim/tearing.hpp"
#include "sim/thread_team.hpp"

using namespace drape;

namespace {

void expectRoundTrip(const sim::World& world, const std::string& path) {
  ASSERT_TRUE(io::writeObj(path, world));
  auto back = io::readObj(path);
  std::remove(path.c_str());
  ASSERT_TRUE(back) << back.error();
  ASSERT_EQ(back->mesh.positions.size(), world.state.x.size());
  ASSERT_EQ(back->mesh.triangles.size(), world.cloth.triangles.size());
  // Six decimals, as Blender writes them: within half a micrometre.
  for (std::size_t i = 0; i < world.state.x.size(); ++i)
    for (int k = 0; k < 3; ++k)
      ASSERT_NEAR(back->mesh.positions[i][k], world.state.x[i][k], 5.1e-7f) << "vertex " << i;
  for (std::size_t t = 0; t < world.cloth.triangles.size(); ++t)
    ASSERT_EQ(back->mesh.triangles[t], world.cloth.triangles[t]) << "triangle " << t;
  // Shortest round-trip text: the UVs come back exactly.
  EXPECT_EQ(back->mesh.cornerUVs, world.cloth.cornerUVs);
  EXPECT_EQ(back->normals, world.state.x.size());
}

std::string readAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(ObjRoundTrip, IcosphereAtRest) {
  auto world = scene::worldFromMesh(scene::makeIcosphere(2, 0.5f, {0.1f, 0.5f, -0.3f}), {});
  ASSERT_TRUE(world) << world.error();
  expectRoundTrip(world.value(), testing::TempDir() + "/roundtrip_ico.obj");
}

TEST(ObjRoundTrip, GridAfterFallingForAWhile) {
  // Positions after some steps have no short decimal form.
  sim::Params params;
  auto world = scene::worldFromMesh(scene::makeGrid(12, 2.0f, {0.0f, 1.0f, 0.0f}), params);
  ASSERT_TRUE(world) << world.error();
  sim::pinVertex(world.value(), 0);
  for (int i = 0; i < 20; ++i) sim::step(world.value());
  expectRoundTrip(world.value(), testing::TempDir() + "/roundtrip_grid.obj");
}

TEST(ObjRoundTrip, ReadBackPreparesToTheSameMesh) {
  auto world = scene::worldFromMesh(scene::makeIcosphere(3, 0.5f, {0.0f, 0.0f, 0.0f}), {});
  ASSERT_TRUE(world);
  const std::string path = testing::TempDir() + "/roundtrip_prepare.obj";
  ASSERT_TRUE(io::writeObj(path, world.value()));
  auto back = io::readObj(path);
  std::remove(path.c_str());
  ASSERT_TRUE(back) << back.error();
  auto prepared = sim::prepareMesh(back->mesh);
  ASSERT_TRUE(prepared);
  EXPECT_EQ(prepared->mesh.positions.size(), 642u);
  EXPECT_EQ(prepared->mesh.triangles.size(), 1280u);
  EXPECT_TRUE(prepared->report.closed);
  EXPECT_TRUE(prepared->report.repairs().empty());
}

TEST(ObjRoundTrip, GridUVsAndNormalsAreWritten) {
  auto world = scene::worldFromMesh(scene::makeGrid(4, 2.0f, {0.0f, 1.0f, 0.0f}), {});
  ASSERT_TRUE(world);
  ASSERT_EQ(world->cloth.cornerUVs.size(), 3 * world->cloth.triangles.size());
  const std::string path = testing::TempDir() + "/roundtrip_uv.obj";
  ASSERT_TRUE(io::writeObj(path, world.value()));
  const std::string text = readAll(path);
  std::remove(path.c_str());
  // 16 vertices, 16 distinct UVs (one per grid point), flat: every normal +y.
  EXPECT_NE(text.find("\nvt 0 0\n"), std::string::npos);
  EXPECT_NE(text.find("\nvt 0.33333334 0\n"), std::string::npos);
  std::size_t vt = 0, vn = 0;
  for (std::size_t at = text.find("\nvt "); at != std::string::npos;
       at = text.find("\nvt ", at + 1))
    ++vt;
  for (std::size_t at = text.find("\nvn 0.0000 1.0000 0.0000\n"); at != std::string::npos;
       at = text.find("\nvn 0.0000 1.0000 0.0000\n", at + 1))
    ++vn;
  EXPECT_EQ(vt, 16u);
  EXPECT_EQ(vn, 16u);
  EXPECT_NE(text.find("\nf 1/1/1 5/"), std::string::npos);
}

TEST(ObjWriter, ASequenceThroughATearWritesWhatAFreshWriterWould) {
  sim::Params params;
  auto world = scene::worldFromMesh(scene::makeGrid(8, 2.0f, {0.0f, 1.0f, 0.0f}), params);
  ASSERT_TRUE(world);
  sim::pinVertex(world.value(), 0);
  io::ObjWriter sequence;
  std::size_t vertices = world->state.x.size();
  for (int frame = 0; frame < 6; ++frame) {
    sim::step(world.value());
    if (frame == 3) {  // tear the middle apart: new vertices, re-pointed triangles
      for (std::uint32_t v = 24; v < 32; ++v) sim::splitVertex(world.value(), v, {0, 0, 1});
      ASSERT_GT(world->state.x.size(), vertices);
      vertices = world->state.x.size();
    }
    auto reused = sequence.format(world.value());
    ASSERT_TRUE(reused) << reused.error();
    io::ObjWriter fresh;
    auto once = fresh.format(world.value());
    ASSERT_TRUE(once);
    ASSERT_EQ(reused.value()->joined(), once.value()->joined()) << "frame " << frame;
  }
  // The torn cloth still reads back with every corner's UV.
  const std::string path = testing::TempDir() + "/torn.obj";
  expectRoundTrip(world.value(), path);
}

TEST(ObjWriter, TheTextIsTheSameOnAnyThreadCountWithTheRenderersNormals) {
  // 101² vertices: five chunks of vertices, of which the last is short.
  auto world = scene::worldFromMesh(scene::makeGrid(100, 2.0f, {0.0f, 1.0f, 0.0f}), {});
  ASSERT_TRUE(world);
  std::vector<glm::vec3>& x = world->state.x;
  for (std::size_t v = 0; v < x.size(); ++v)  // crumpled, so that no two normals agree
    x[v].y += 0.05f * std::sin(0.37f * float(v)) + 0.02f * std::cos(1.3f * x[v].x * x[v].z);
  io::ObjWriter serial;
  auto once = serial.format(world.value());
  ASSERT_TRUE(once) << once.error();
  const std::string text = once.value()->joined();
  for (int threads : {1, 2, 3}) {
    io::ObjWriter writer;
    auto chunked = writer.format(world.value(), &sim::threadTeam(threads));
    ASSERT_TRUE(chunked) << chunked.error();
    EXPECT_EQ(chunked.value()->joined(), text) << threads << " threads";
  }
  // The vn lines, in vertex order, are the renderer's normals to their four decimals.
  std::vector<glm::vec3> normals;
  sim::computeVertexNormals(x, world->cloth.triangles, normals);
  std::istringstream lines(text);
  std::size_t v = 0;
  double worst = 0.0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("vn ", 0) != 0) continue;
    glm::dvec3 n;
    ASSERT_EQ(std::sscanf(line.c_str(), "vn %lf %lf %lf", &n.x, &n.y, &n.z), 3) << line;
    ASSERT_LT(v, normals.size());
    for (int k = 0; k < 3; ++k) worst = std::max(worst, std::fabs(n[k] - double(normals[v][k])));
    ++v;
  }
  EXPECT_EQ(v, normals.size());
  EXPECT_LE(worst, 0.5e-4 + 1e-7);
}

TEST(ObjWriter, AFailedWriteKeepsTheFileThatWasThere) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(testing::TempDir()) / "obj_atomic";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "cloth.obj").string();
  std::ofstream(path) << "good\n";
  // The file system refuses more than 100 bytes (as a full disk would):
  // the write fails after its temporary file was made.
  auto world = scene::worldFromMesh(scene::makeGrid(4, 2.0f, {0.0f, 1.0f, 0.0f}), {});
  ASSERT_TRUE(world);
  rlimit before{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &before), 0);
  rlimit small = before;
  small.rlim_cur = 100;
  const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  auto r = io::writeObj(path, world.value());
  setrlimit(RLIMIT_FSIZE, &before);
  std::signal(SIGXFSZ, oldHandler);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("cannot write " + path), std::string::npos) << r.error();
  EXPECT_EQ(readAll(path), "good\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  ASSERT_TRUE(io::writeObj(path, world.value()));
  EXPECT_EQ(readAll(path).rfind("# drape: 16 vertices", 0), 0u);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

TEST(ObjWriter, NonFiniteStateIsRefused) {
  auto world = scene::worldFromMesh(scene::makeGrid(4, 2.0f, {0.0f, 1.0f, 0.0f}), {});
  ASSERT_TRUE(world);
  world->state.x[5].y = std::nanf("");
  io::ObjWriter writer;
  auto r = writer.format(world.value());
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("not finite"), std::string::npos) << r.error();
}

}  // namespace
