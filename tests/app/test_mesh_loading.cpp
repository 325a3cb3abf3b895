// Loading an OBJ into the running app (file browser, drop on the window):
// a broken file leaves the current scene exactly as it was and says why; a
// good one replaces it. The drop callback's path filter is tested directly,
// since Xvfb has no drag source to drop with.

#include <string>

#include <gtest/gtest.h>

#include "app/mesh_loading.hpp"
#include "app/window_input.hpp"
#include "app/window_state.hpp"

namespace drape::app {
namespace {

const std::string kData = std::string(DRAPE_TEST_DATA) + "/obj/";

Session hang() {
  auto s = Session::create("hang", {"resolution=10"});
  EXPECT_TRUE(s) << s.error();
  return std::move(s.value());
}

TEST(MeshLoading, ABrokenFileKeepsTheSceneAndSaysWhy) {
  for (const char* name :
       {"garbage.obj", "index_out_of_range.obj", "empty.obj", "nan_coordinate.obj"}) {
    Session s = hang();
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(s.step());
    const std::vector<glm::vec3> before = s.world().state.x;
    const double time = s.world().time;
    auto r = loadMeshScene(s, kData + "broken/" + name, {});
    ASSERT_FALSE(r) << name;
    EXPECT_NE(r.error().find(name), std::string::npos) << r.error();
    EXPECT_EQ(s.sceneName(), "hang");
    EXPECT_EQ(s.world().state.x, before);
    EXPECT_EQ(s.world().time, time);
    EXPECT_EQ(s.framesStepped(), 5);
    EXPECT_TRUE(s.step());  // and it goes on
  }
}

TEST(MeshLoading, AMissingFileKeepsTheScene) {
  Session s = hang();
  auto r = loadMeshScene(s, kData + "no_such_file.obj", {});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("no_such_file.obj"), std::string::npos) << r.error();
  EXPECT_EQ(s.sceneName(), "hang");
}

TEST(MeshLoading, ThePanelsUpAndScalePlaceTheMesh) {
  // blender_grid.obj: a vertical 2 m square in x–y, from y = 0 to 2. Loaded
  // from the panel with up = z and scale 0.5, it lies in x–z, 1 m across.
  ui::PanelState panel;
  panel.loadAs = 1;  // cloth
  panel.loadUp = 1;  // z
  panel.loadScale = 0.5f;
  const scene::MeshSceneOptions o = panelMeshOptions(panel, kData + "blender_grid.obj");
  EXPECT_EQ(o.as, scene::MeshAs::Cloth);
  EXPECT_TRUE(o.zUp);
  EXPECT_EQ(o.scale, 0.5f);
  Session s = hang();
  ASSERT_TRUE(loadMeshScene(s, kData + "blender_grid.obj", o));
  glm::vec3 lo(1e9f), hi(-1e9f);
  for (const glm::vec3& p : s.world().state.x) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  EXPECT_NEAR(hi.x - lo.x, 1.0f, 1e-5f);
  EXPECT_NEAR(hi.y - lo.y, 0.0f, 1e-5f);  // flat: its old y is now depth
  EXPECT_NEAR(hi.z - lo.z, 1.0f, 1e-5f);
}

TEST(MeshLoading, AGoodFileReplacesTheScene) {
  Session s = hang();
  scene::MeshSceneOptions o;
  o.pin.kind = scene::MeshPin::Kind::Top;
  ASSERT_TRUE(loadMeshScene(s, kData + "blender_grid.obj", o));
  EXPECT_EQ(s.sceneName(), "blender_grid.obj");
  EXPECT_FALSE(s.world().pins.empty());
  EXPECT_EQ(s.framesStepped(), 0);
  EXPECT_TRUE(s.step());
}

TEST(DroppedMesh, TheFirstObjAmongTheDroppedPaths) {
  const char* paths[] = {"/tmp/notes.txt", "/tmp/Cloth.OBJ", "/tmp/b.obj"};
  auto r = droppedMesh(3, paths);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r.value(), "/tmp/Cloth.OBJ");
}

TEST(DroppedMesh, NoObjIsAnErrorNamingTheFile) {
  const char* paths[] = {"/home/u/picture.png"};
  auto r = droppedMesh(1, paths);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("picture.png"), std::string::npos) << r.error();
  EXPECT_NE(r.error().find(".obj"), std::string::npos) << r.error();
  EXPECT_FALSE(droppedMesh(0, nullptr));
}

TEST(DropCallback, ADropIsQueuedForTheFrameLoop) {
  WindowInput input;
  const std::string broken = kData + "broken/garbage.obj";
  const char* paths[] = {broken.c_str()};
  takeDrop(input, 1, paths);
  EXPECT_TRUE(input.dropped);
  EXPECT_EQ(input.droppedPath, broken);
  const char* others[] = {"/tmp/x.stl"};
  takeDrop(input, 1, others);
  EXPECT_TRUE(input.dropped);
  EXPECT_TRUE(input.droppedPath.empty());
  EXPECT_FALSE(input.dropError.empty());
  // What the frame loop then does with the broken file: the scene stays.
  Session s = hang();
  EXPECT_FALSE(loadMeshScene(s, broken, {}));
  EXPECT_EQ(s.sceneName(), "hang");
}

}  // namespace
}  // namespace drape::app
