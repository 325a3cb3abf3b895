// A session built from a mesh file: warnings, reset and rebuilds come from
// the loaded mesh (with the Scene panel's pin, up and scale where they
// changed), and switching to a built-in scene leaves it behind.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "app/session.hpp"
#include "app/window_state.hpp"
#include "sim/stats.hpp"

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

TEST(MeshSession, ResetTakesThePanelsChangedPinUpAndScale) {
  // Loaded unpinned, y-up, at scale 1 (the panel shows so); the panel then
  // says pin top, up z, scale 0.5: the reset's mesh is pinned, lies flat
  // (the vertical 2 m square turned from z-up) and is 1 m across, with the
  // user's iterations kept.
  auto s = app::Session::createFromMesh(kData + "blender_grid.obj", {}, {"iterations=4"});
  ASSERT_TRUE(s) << s.error();
  ui::PanelState panel;
  const app::MeshPanel shown = app::showMeshOptions(panel, *s->meshOptions());
  EXPECT_FALSE(app::changedMeshOptions(*s->meshOptions(), panel, shown));
  panel.loadPin = 1;
  auto changed = app::changedMeshOptions(*s->meshOptions(), panel, shown);
  ASSERT_TRUE(changed);
  ASSERT_TRUE(s->reloadMesh(*changed));
  EXPECT_EQ(s->world().pins.size(), 4u);
  panel.loadUp = 1;
  panel.loadScale = 0.5f;
  changed = app::changedMeshOptions(*s->meshOptions(), panel, shown);
  ASSERT_TRUE(changed);
  EXPECT_TRUE(changed->zUp);
  ASSERT_TRUE(s->reloadMesh(*changed));
  const sim::Bounds b = sim::bounds(s->world());
  EXPECT_NEAR(b.max.x - b.min.x, 1.0f, 1e-5f);
  EXPECT_NEAR(b.max.y - b.min.y, 0.0f, 1e-5f);  // flat: turned from z-up
  EXPECT_NEAR(b.max.z - b.min.z, 1.0f, 1e-5f);
  EXPECT_FALSE(s->world().pins.empty());  // the flat sheet's far edge
  EXPECT_EQ(s->params().iterations, 4);
  EXPECT_EQ(s->sceneName(), "blender_grid.obj");
  // Unchanged since shown: nothing to apply.
  EXPECT_FALSE(app::changedMeshOptions(*s->meshOptions(), panel,
                                       {panel.loadPin, panel.loadUp, panel.loadScale}));
}

TEST(MeshSession, AZUpBlenderFileIsToldAboutUpZ) {
  // A 1 m × 2 m sheet standing along z, as Blender writes it with z up.
  const std::string path = (std::filesystem::temp_directory_path() / "drape_z_up.obj").string();
  {
    std::ofstream f(path);
    f << "# Blender 4.1.0\no Plane\nv -0.5 0 0\nv 0.5 0 0\nv 0.5 0 2\nv -0.5 0 2\nf 1 2 3 4\n";
  }
  auto s = app::Session::createFromMesh(path, {}, {});
  ASSERT_TRUE(s) << s.error();
  ASSERT_EQ(s->warnings().size(), 1u);
  EXPECT_NE(s->warnings()[0].find("--up z"), std::string::npos) << s->warnings()[0];
  scene::MeshSceneOptions up;
  up.zUp = true;
  auto upright = app::Session::createFromMesh(path, up, {});
  ASSERT_TRUE(upright) << upright.error();
  EXPECT_TRUE(upright->warnings().empty());
  const sim::Bounds b = sim::bounds(upright->world());
  EXPECT_NEAR(b.max.y - b.min.y, 2.0f, 1e-6f);
  std::filesystem::remove(path);
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
