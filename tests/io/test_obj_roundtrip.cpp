// What io::writeObj writes, io::readObj reads back: the same positions in the
// same order and the same triangles.

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "io/obj_reader.hpp"
#include "io/obj_writer.hpp"
#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "sim/solver.hpp"

using namespace drape;

namespace {

void expectRoundTrip(const sim::World& world, const std::string& path) {
  ASSERT_TRUE(io::writeObj(path, world));
  auto back = io::readObj(path);
  std::remove(path.c_str());
  ASSERT_TRUE(back) << back.error();
  ASSERT_EQ(back->mesh.positions.size(), world.state.x.size());
  ASSERT_EQ(back->mesh.triangles.size(), world.cloth.triangles.size());
  // %.9g is enough digits for a float to come back exactly when parsed with
  // correct rounding; tinyobjloader parses in double first, so allow an ulp.
  for (std::size_t i = 0; i < world.state.x.size(); ++i)
    for (int k = 0; k < 3; ++k)
      ASSERT_FLOAT_EQ(back->mesh.positions[i][k], world.state.x[i][k]) << "vertex " << i;
  for (std::size_t t = 0; t < world.cloth.triangles.size(); ++t)
    ASSERT_EQ(back->mesh.triangles[t], world.cloth.triangles[t]) << "triangle " << t;
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

}  // namespace
