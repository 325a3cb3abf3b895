// A session built from a mesh file: warnings, reset and rebuilds come from
// the loaded mesh, and switching to a built-in scene leaves it behind.

#include <gtest/gtest.h>

#include <string>

#include "app/session.hpp"

using namespace drape;

namespace {

const std::string kData = std::string(DRAPE_TEST_DATA) + "/obj/";

TEST(MeshSession, WarnsOncePerRepairNamingTheFile) {
  const std::string path = kData + "split_cube.obj";
  auto s = app::Session::createFromMesh(path, {}, {});
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(s->sceneName(), "split_cube.obj");
  EXPECT_EQ(s->warnings(), std::vector<std::string>{path + ": 16 coincident vertices welded"});
  EXPECT_EQ(s->world().vertexCount(), 8u);
  EXPECT_TRUE(s->world().cloth.pressureActive);  // closed: a balloon by default
}

TEST(MeshSession, ResetRebuildsTheSameMesh) {
  scene::MeshSceneOptions o;
  o.pin.kind = scene::MeshPin::Kind::Top;
  auto s = app::Session::createFromMesh(kData + "blender_grid.obj", o, {"iterations=4"});
  ASSERT_TRUE(s) << s.error();
  const std::vector<glm::vec3> start = s->world().state.x;
  for (int i = 0; i < 10; ++i) s->step();
  ASSERT_NE(s->world().state.x, start);
  ASSERT_TRUE(s->reset());
  EXPECT_EQ(s->world().state.x, start);
  EXPECT_EQ(s->world().pins.size(), 4u);
  EXPECT_EQ(s->params().iterations, 4);
  EXPECT_EQ(s->framesStepped(), 0);
  EXPECT_EQ(s->sceneName(), "blender_grid.obj");
}

TEST(MeshSession, RebuildingParametersKeepTheMesh) {
  auto s = app::Session::createFromMesh(kData + "hex_prism.obj", {}, {});
  ASSERT_TRUE(s) << s.error();
  sim::Params edited = s->params();
  edited.resolution = 7;  // a rebuild parameter; meshes have their own resolution
  ASSERT_TRUE(s->applyParams(edited));
  EXPECT_EQ(s->world().vertexCount(), 12u);
  EXPECT_TRUE(s->world().cloth.pressureActive);
}

TEST(MeshSession, BalloonTakesTheBalloonDefaultsBeforeSets) {
  const sim::Params balloon = scene::sceneParams(*scene::findScene("balloon"));
  auto s = app::Session::createFromMesh(kData + "blender_cube.obj", {}, {});
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(s->params().iterations, balloon.iterations);
  auto set = app::Session::createFromMesh(kData + "blender_cube.obj", {}, {"iterations=3"});
  ASSERT_TRUE(set) << set.error();
  EXPECT_EQ(set->params().iterations, 3);
  scene::MeshSceneOptions cloth;
  cloth.as = scene::MeshAs::Cloth;
  auto c = app::Session::createFromMesh(kData + "blender_cube.obj", cloth, {});
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->params().iterations, sim::Params{}.iterations);
  EXPECT_FALSE(c->world().cloth.pressureActive);
}

TEST(MeshSession, SwitchingToABuiltInSceneLeavesTheMesh) {
  auto s = app::Session::createFromMesh(kData + "blender_cube.obj", {}, {});
  ASSERT_TRUE(s) << s.error();
  ASSERT_TRUE(s->switchScene("hang"));
  EXPECT_EQ(s->sceneName(), "hang");
  EXPECT_TRUE(s->warnings().empty());
  ASSERT_TRUE(s->reset());
  EXPECT_GT(s->world().vertexCount(), 8u);
}

TEST(MeshSession, ErrorsNameTheFile) {
  auto missing = app::Session::createFromMesh(kData + "nope.obj", {}, {});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find(kData + "nope.obj"), std::string::npos);
  auto badSet = app::Session::createFromMesh(kData + "blender_cube.obj", {}, {"k_bend=7"});
  ASSERT_FALSE(badSet);
  EXPECT_NE(badSet.error().find("k_bend"), std::string::npos);
}

}  // namespace
