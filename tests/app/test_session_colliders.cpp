// Colliders edited in the running app: an OBJ added as a static mesh
// collider (the Scene panel's "as collider", a drop) placed as a cloth from
// the same file would be, kept through rebuilds (not into another built-in
// scene), written to scene files; colliders removed from the world and from
// every rebuild, the rigid bodies keeping theirs; and how the panel names
// them, a run of alike ones in one row.

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/mesh_loading.hpp"
#include "app/session.hpp"
#include "app/window_state.hpp"
#include "scene/scene_file.hpp"
#include "sim/stats.hpp"

namespace drape::app {
namespace {

const std::string kData = std::string(DRAPE_TEST_DATA) + "/obj/";

Session scene(const std::string& name) {
  auto s = Session::create(name, {"resolution=10"});
  EXPECT_TRUE(s) << s.error();
  return std::move(s.value());
}

std::vector<std::string> labels(const Session& s) {
  std::vector<std::string> out;
  for (const ui::ColliderRow& r : colliderRows(s)) out.push_back(r.label);
  return out;
}

// The world box of a mesh collider's vertices at its pose.
sim::Bounds meshBounds(const sim::Collider& c) {
  const sim::Pose pose = sim::poseAt(c, 0.0);
  sim::Bounds b{glm::vec3(1e9f), glm::vec3(-1e9f)};
  for (const glm::vec3& v : c.mesh->vertices) {
    b.min = glm::min(b.min, pose.toWorld(v));
    b.max = glm::max(b.max, pose.toWorld(v));
  }
  return b;
}

TEST(ColliderLabel, KindAndShortFileName) {
  EXPECT_EQ(colliderLabel(sim::Collider::sphere({}, 1.0f)), "sphere");
  EXPECT_EQ(colliderLabel(sim::Collider::plane({}, {0, 1, 0})), "plane");
  EXPECT_EQ(colliderLabel(sim::Collider::box({}, glm::vec3(1.0f))), "box");
  EXPECT_EQ(colliderLabel(sim::Collider::capsule({}, 0.1f, 0.5f)), "capsule");
  auto shape = std::make_shared<sim::MeshShape>();
  shape->source = "/some/folder/statue.obj";
  EXPECT_EQ(colliderLabel(sim::Collider::meshShape(shape, {})), "mesh statue.obj");
  shape->source = "a_file_name_far_too_long_for_the_panel.obj";
  EXPECT_EQ(colliderLabel(sim::Collider::meshShape(shape, {})),
            "mesh a_file_name_far_too_long_...");
  EXPECT_EQ(colliderLabel(sim::Collider::meshShape(nullptr, {})), "mesh");
}

TEST(SessionColliders, AnObjAddedAsColliderKeepsTheClothAndStays) {
  Session s = scene("hang");
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(s.step());
  const std::vector<glm::vec3> cloth = s.world().state.x;
  ASSERT_EQ(labels(s), std::vector<std::string>{"plane"});
  ASSERT_TRUE(loadMeshCollider(s, kData + "blender_cube.obj", {}));
  EXPECT_EQ(labels(s), (std::vector<std::string>{"plane", "mesh blender_cube.obj"}));
  EXPECT_EQ(s.sceneName(), "hang");
  EXPECT_EQ(s.world().state.x, cloth);  // the cloth goes on where it was
  EXPECT_EQ(s.framesStepped(), 5);
  EXPECT_TRUE(s.step());
  ASSERT_TRUE(s.reset());
  EXPECT_EQ(labels(s), (std::vector<std::string>{"plane", "mesh blender_cube.obj"}));
  // A new cloth from a file keeps it (a collider, then the cloth to drape on it).
  ASSERT_TRUE(loadMeshScene(s, kData + "blender_grid.obj", {}));
  EXPECT_EQ(labels(s).back(), "mesh blender_cube.obj");
}

TEST(SessionColliders, ABuiltInSceneComesWithItsOwnCollidersOnly) {
  Session s = scene("hang");
  ASSERT_TRUE(loadMeshCollider(s, kData + "blender_cube.obj", {}));
  ASSERT_TRUE(s.addMeshColliders({kData + "split_cube.obj"}));
  ASSERT_EQ(labels(s).size(), 3u);
  ASSERT_TRUE(s.switchScene("drape"));
  EXPECT_EQ(labels(s), (std::vector<std::string>{"sphere", "plane"}));
  ASSERT_TRUE(s.reset());
  EXPECT_EQ(labels(s), (std::vector<std::string>{"sphere", "plane"}));
  ASSERT_TRUE(s.switchScene("hang", true));
  EXPECT_EQ(labels(s), std::vector<std::string>{"plane"});
}

TEST(SessionColliders, ABrokenFileLeavesTheCollidersAsTheyWere) {
  Session s = scene("drape");
  const std::size_t before = s.world().colliders.size();
  for (const char* name : {"broken/garbage.obj", "broken/empty.obj", "no_such_file.obj"}) {
    auto r = loadMeshCollider(s, kData + name, {});
    ASSERT_FALSE(r) << name;
    EXPECT_NE(r.error().find(std::string(name).substr(std::string(name).find('/') + 1)),
              std::string::npos)
        << r.error();
    EXPECT_EQ(s.world().colliders.size(), before);
  }
  EXPECT_TRUE(s.step());
}

TEST(SessionColliders, UpAndScalePlaceTheColliderWhereTheClothWouldBe) {
  // blender_grid.obj: a vertical 2 m square from y = 0 to 2; with up = z and
  // scale 0.5 the cloth lies flat, 1 m across. The collider lies there too.
  ui::PanelState panel;
  panel.loadAs = ui::kLoadCollider;
  panel.loadUp = 1;
  panel.loadScale = 0.5f;
  const scene::MeshSceneOptions o = panelMeshOptions(panel, kData + "blender_grid.obj");
  Session s = scene("hang");
  ASSERT_TRUE(loadMeshCollider(s, kData + "blender_grid.obj", o));
  const sim::Bounds placed = meshBounds(s.world().colliders.back());
  Session cloth = scene("hang");
  ASSERT_TRUE(loadMeshScene(cloth, kData + "blender_grid.obj", panelMeshOptions(panel, "", 1)));
  const sim::Bounds wanted = sim::bounds(cloth.world());
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(placed.min[k], wanted.min[k], 1e-5f) << k;
    EXPECT_NEAR(placed.max[k], wanted.max[k], 1e-5f) << k;
  }
  // Without them, where the file puts it, as --collider does.
  Session plain = scene("hang");
  ASSERT_TRUE(plain.addMeshColliders({kData + "blender_grid.obj"}));
  ASSERT_TRUE(loadMeshCollider(plain, kData + "blender_grid.obj", {}));
  const sim::Bounds cli = meshBounds(plain.world().colliders[1]);
  const sim::Bounds window = meshBounds(plain.world().colliders[2]);
  EXPECT_EQ(cli.min, window.min);
  EXPECT_EQ(cli.max, window.max);
}

TEST(SessionColliders, RemovedCollidersStayRemovedThroughReset) {
  Session s = scene("drape");  // a sphere and a floor
  ASSERT_TRUE(loadMeshCollider(s, kData + "blender_cube.obj", {}));
  ASSERT_TRUE(loadMeshCollider(s, kData + "split_cube.obj", {}));
  ASSERT_EQ(labels(s), (std::vector<std::string>{"sphere", "plane", "mesh blender_cube.obj",
                                                 "mesh split_cube.obj"}));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(s.step());
  const std::vector<glm::vec3> cloth = s.world().state.x;
  ASSERT_TRUE(s.removeCollider(0));  // the scene's own sphere
  EXPECT_EQ(s.world().state.x, cloth);
  ASSERT_TRUE(s.removeCollider(1));  // an added one
  EXPECT_EQ(labels(s), (std::vector<std::string>{"plane", "mesh split_cube.obj"}));
  EXPECT_TRUE(s.step());
  ASSERT_TRUE(s.reset());
  EXPECT_EQ(labels(s), (std::vector<std::string>{"plane", "mesh split_cube.obj"}));
  ASSERT_TRUE(s.removeCollider(0));  // the floor, after a reset
  ASSERT_TRUE(s.reset());
  EXPECT_EQ(labels(s), std::vector<std::string>{"mesh split_cube.obj"});
  EXPECT_FALSE(s.removeCollider(1));  // out of range
  ASSERT_TRUE(s.removeCollider(0));
  ASSERT_TRUE(s.reset());
  EXPECT_TRUE(labels(s).empty());
  // Another scene starts with all of its own.
  ASSERT_TRUE(s.switchScene("drape"));
  EXPECT_EQ(labels(s), (std::vector<std::string>{"sphere", "plane"}));
}

TEST(SessionColliders, TheRigidBodiesKeepTheirCollidersWhenOthersGo) {
  Session s = scene("stripes");
  for (const ui::ColliderRow& row : colliderRows(s)) {
    EXPECT_EQ(row.removable, !s.showsBody(row.first));
    if (!row.removable) {
      EXPECT_EQ(row.count, 1u);  // each body its own row
    }
  }
  const std::size_t count = s.world().colliders.size();
  std::size_t fixed = count;  // a static collider before a body's
  for (std::size_t i = 0; i < count; ++i) {
    if (s.showsBody(i)) {
      EXPECT_FALSE(s.removeCollider(i));
      if (fixed == count && i > 0 && !s.showsBody(i - 1)) fixed = i - 1;
    }
  }
  ASSERT_LT(fixed, count);
  ASSERT_TRUE(s.removeCollider(fixed));
  for (Session* each : {&s, &s}) {
    for (const sim::RigidBody& b : each->world().bodies) {
      ASSERT_LT(b.collider, each->world().colliders.size());
      const sim::Collider& c = each->world().colliders[b.collider];
      EXPECT_EQ(c.kind, sim::ColliderKind::Box);
      EXPECT_EQ(c.size, b.halfExtents);
      EXPECT_EQ(c.center, b.x);
    }
    EXPECT_EQ(each->world().colliders.size(), count - 1);
    ASSERT_TRUE(each->step());
    ASSERT_TRUE(each->reset());
  }
}

TEST(SessionColliders, TheBarrelsTurningBoxesAreOneRowRemovedTogether) {
  // 16 staves and 3 ribs turning alike, a wall, an invisible front plane:
  // three rows, not 21.
  Session s = scene("barrel");
  const std::size_t all = s.world().colliders.size();
  ASSERT_EQ(all, 21u);
  const std::vector<ui::ColliderRow> rows = colliderRows(s);
  EXPECT_EQ(labels(s), (std::vector<std::string>{"19 boxes (turning)", "box", "plane"}));
  std::size_t next = 0;
  for (const ui::ColliderRow& row : rows) {
    EXPECT_EQ(row.first, next);
    EXPECT_TRUE(row.removable);
    next += row.count;
  }
  EXPECT_EQ(next, all);
  // The row's Remove: its colliders one after another at its first index.
  for (std::size_t i = 0; i < rows[0].count; ++i) ASSERT_TRUE(s.removeCollider(rows[0].first));
  EXPECT_EQ(labels(s), (std::vector<std::string>{"box", "plane"}));
  EXPECT_TRUE(s.step());
  ASSERT_TRUE(s.reset());
  EXPECT_EQ(labels(s), (std::vector<std::string>{"box", "plane"}));
}

TEST(SessionColliders, SceneFilesHoldTheCollidersAsTheyAre) {
  // An added mesh collider, turned from z-up and scaled, is written with its
  // file, scale and orientation and reads back in the same place; a removed
  // one is not written.
  Session s = scene("drape");
  ASSERT_TRUE(s.removeCollider(0));  // the sphere
  scene::MeshSceneOptions o;
  o.zUp = true;
  o.scale = 0.5f;
  ASSERT_TRUE(loadMeshCollider(s, kData + "blender_grid.obj", o));
  const scene::SceneFile file = s.describe({});
  const std::string text = scene::sceneFileText(file);
  EXPECT_EQ(text.find("\"sphere\""), std::string::npos) << text;
  EXPECT_NE(text.find("blender_grid.obj"), std::string::npos) << text;
  EXPECT_NE(text.find("\"scale\": 0.5"), std::string::npos) << text;
  auto parsed = scene::parseSceneFile(text, "saved");
  ASSERT_TRUE(parsed) << parsed.error();
  auto again = Session::createFromDescription(parsed.value(), {}, "saved");
  ASSERT_TRUE(again) << again.error();
  ASSERT_EQ(labels(again.value()), (std::vector<std::string>{"plane", "mesh blender_grid.obj"}));
  const sim::Bounds a = meshBounds(s.world().colliders.back());
  const sim::Bounds b = meshBounds(again->world().colliders.back());
  EXPECT_EQ(a.min, b.min);
  EXPECT_EQ(a.max, b.max);
  // Removed from a session made from a scene file: gone after a reset too.
  ASSERT_TRUE(again->removeCollider(1));
  ASSERT_TRUE(again->reset());
  EXPECT_EQ(labels(again.value()), std::vector<std::string>{"plane"});
}

}  // namespace
}  // namespace drape::app
