// Scenes from loaded meshes: cloth or balloon, pins, floor and camera.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "io/obj_reader.hpp"
#include "scene/mesh_scene.hpp"
#include "sim/self/self_collision.hpp"
#include "sim/stats.hpp"
#include "sim/step/step.hpp"

using namespace drape;
using scene::MeshAs;
using scene::MeshPin;

namespace {

sim::TriMesh load(const std::string& name) {
  auto file = io::readObj(std::string(DRAPE_TEST_DATA) + "/obj/" + name);
  EXPECT_TRUE(file) << file.error();
  return file ? file->mesh : sim::TriMesh{};
}

sim::PreparedMesh prepared(const std::string& name) {
  auto p = sim::prepareMesh(load(name));
  EXPECT_TRUE(p) << p.error();
  return p ? p.value() : sim::PreparedMesh{};
}

scene::MeshSceneOptions opts(MeshAs as, MeshPin pin = {}) {
  return {"m.obj", as, std::move(pin)};
}

MeshPin pinList(std::vector<std::uint32_t> v) {
  return {MeshPin::Kind::List, std::move(v)};
}

TEST(MeshScene, ParsesTheTextForms) {
  EXPECT_EQ(scene::parseMeshAs("auto").value(), MeshAs::Auto);
  EXPECT_EQ(scene::parseMeshAs("cloth").value(), MeshAs::Cloth);
  EXPECT_EQ(scene::parseMeshAs("balloon").value(), MeshAs::Balloon);
  EXPECT_FALSE(scene::parseMeshAs("Balloon"));
  EXPECT_FALSE(scene::parseMeshAs(""));
  EXPECT_EQ(scene::parseMeshPin("none").value().kind, MeshPin::Kind::None);
  EXPECT_EQ(scene::parseMeshPin("top").value().kind, MeshPin::Kind::Top);
  auto list = scene::parseMeshPin("0,5,12");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->kind, MeshPin::Kind::List);
  EXPECT_EQ(list->vertices, (std::vector<std::uint32_t>{0, 5, 12}));
  for (const char* bad : {"", ",", "1,", ",1", "1,,2", "-1", "1.5", "1 2", "top,1", "99999999999"})
    EXPECT_FALSE(scene::parseMeshPin(bad)) << bad;
}

TEST(MeshScene, AutoMakesClosedMeshesBalloonsAndOpenOnesCloth) {
  const sim::TriMesh cube = load("blender_cube.obj"), grid = load("blender_grid.obj");
  EXPECT_EQ(scene::resolveMeshAs(cube, opts(MeshAs::Auto)).value(), MeshAs::Balloon);
  EXPECT_EQ(scene::resolveMeshAs(grid, opts(MeshAs::Auto)).value(), MeshAs::Cloth);

  auto balloon = scene::meshScene(cube, {}, opts(MeshAs::Auto));
  ASSERT_TRUE(balloon) << balloon.error();
  EXPECT_TRUE(balloon->world.cloth.pressureActive);
  auto cloth = scene::meshScene(grid, {}, opts(MeshAs::Auto));
  ASSERT_TRUE(cloth) << cloth.error();
  EXPECT_FALSE(cloth->world.cloth.pressureActive);
}

TEST(MeshScene, ClosedMeshAsClothHasNoPressure) {
  auto s = scene::meshScene(load("uv_seam_cube.obj"), {}, opts(MeshAs::Cloth));
  ASSERT_TRUE(s) << s.error();
  EXPECT_TRUE(s->world.cloth.closed);
  EXPECT_FALSE(s->world.cloth.pressureActive);
}

TEST(MeshScene, OpenMeshCannotBeABalloon) {
  const std::string expected = "m.obj is not closed, cannot be a balloon";
  auto resolved = scene::resolveMeshAs(load("blender_grid.obj"), opts(MeshAs::Balloon));
  ASSERT_FALSE(resolved);
  EXPECT_EQ(resolved.error(), expected);
  auto built = scene::meshScene(load("blender_grid.obj"), {}, opts(MeshAs::Balloon));
  ASSERT_FALSE(built);
  EXPECT_EQ(built.error(), expected);
}

TEST(MeshScene, BalloonTakesTheBalloonSceneDefaults) {
  sim::Params p;
  scene::meshSceneDefaults(prepared("hex_prism.obj"), MeshAs::Balloon, p);
  const sim::Params expected = scene::sceneParams(*scene::findScene("balloon"));
  EXPECT_EQ(p.iterations, expected.iterations);
  EXPECT_EQ(p.k_bend, expected.k_bend);
  sim::Params c;
  scene::meshSceneDefaults(prepared("hex_prism.obj"), MeshAs::Cloth, c);
  EXPECT_EQ(c.iterations, sim::Params{}.iterations);
}

// An n × n grid of quads, each split in two, `size` metres a side.
sim::PreparedMesh grid(int n, float size) {
  sim::TriMesh mesh;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j)
      mesh.positions.push_back({size * float(j) / float(n), 0.0f, size * float(i) / float(n)});
  const auto at = [n](int i, int j) { return std::uint32_t(i * (n + 1) + j); };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      mesh.triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      mesh.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  auto p = sim::prepareMesh(mesh);
  EXPECT_TRUE(p) << p.error();
  return p ? p.value() : sim::PreparedMesh{};
}

TEST(MeshScene, ACoarseMeshDefaultsToALayerAThirdOfItsEdgeThick) {
  // Each edge once: a triangle of sides 3, 4, 5 has a mean edge of 4.
  sim::TriMesh triangle;
  triangle.positions = {{0.0f, 0.0f, 0.0f}, {3.0f, 0.0f, 0.0f}, {3.0f, 4.0f, 0.0f}};
  triangle.triangles = {{0, 1, 2}};
  EXPECT_FLOAT_EQ(sim::meanEdgeLength(triangle), 4.0f);
  EXPECT_EQ(sim::meanEdgeLength(sim::TriMesh{}), 0.0f);
  // 10 cm quads: 220 sides of 0.1 m and 100 diagonals of 0.141 m.
  const sim::PreparedMesh coarse = grid(10, 1.0f);
  const float mean = (220.0f * 0.1f + 100.0f * std::sqrt(0.02f)) / 320.0f;
  EXPECT_NEAR(sim::meanEdgeLength(coarse.mesh), mean, 1e-6f);
  for (MeshAs as : {MeshAs::Cloth, MeshAs::Balloon}) {
    sim::Params p;
    scene::meshSceneDefaults(coarse, as, p);
    EXPECT_NEAR(p.thickness, sim::tuning::kSelfThicknessPerEdge * mean, 1e-6f);
  }
  // 1 cm quads keep the global 1 cm; 1 m quads stop at the parameter's top.
  sim::Params fine;
  scene::meshSceneDefaults(grid(20, 0.2f), MeshAs::Cloth, fine);
  EXPECT_EQ(fine.thickness, sim::Params{}.thickness);
  sim::Params huge;
  scene::meshSceneDefaults(grid(4, 4.0f), MeshAs::Cloth, huge);
  EXPECT_FLOAT_EQ(huge.thickness, float(sim::findParam("thickness")->max));
}

TEST(MeshScene, PinTopTakesTheHighestRow) {
  // The curtain runs from y = 0 to y = 2 in four rows of four.
  auto s =
      scene::meshScene(load("blender_grid.obj"), {}, opts(MeshAs::Cloth, {MeshPin::Kind::Top, {}}));
  ASSERT_TRUE(s) << s.error();
  ASSERT_EQ(s->world.pins.size(), 4u);
  for (const sim::Pin& pin : s->world.pins) EXPECT_FLOAT_EQ(s->world.state.x[pin.vertex].y, 2.0f);
}

// A T-shirt's front, 0.9 m across the sleeves: 19 columns of 8 rows, the
// body from y = 0, the sleeves from y = 0.45, every column up to a top that
// falls from the collar (0.7 m) to the sleeves' ends (0.58 m).
sim::TriMesh tShirt() {
  constexpr int kColumns = 19, kRows = 8;
  sim::TriMesh m;
  for (int i = 0; i < kColumns; ++i) {
    const float x = -0.45f + 0.9f * float(i) / float(kColumns - 1);
    const float top = 0.7f - 0.12f * std::abs(x) / 0.45f;
    const float bottom = std::abs(x) <= 0.25f ? 0.0f : 0.45f;
    for (int j = 0; j < kRows; ++j)
      m.positions.push_back({x, bottom + (top - bottom) * float(j) / float(kRows - 1), 0.0f});
  }
  for (int i = 0; i + 1 < kColumns; ++i)
    for (int j = 0; j + 1 < kRows; ++j) {
      const std::uint32_t a = std::uint32_t(i * kRows + j), b = a + kRows;
      m.triangles.push_back({a, b, b + 1});
      m.triangles.push_back({a, b + 1, a + 1});
    }
  return m;
}

TEST(MeshScene, PinTopTakesAShirtsShouldersNotItsCollarAlone) {
  // The collar alone is within 1 % of the height of the top; the pins span
  // the shoulders, at least half the width, and none hangs low.
  auto s = scene::meshScene(tShirt(), {}, opts(MeshAs::Cloth, {MeshPin::Kind::Top, {}}));
  ASSERT_TRUE(s) << s.error();
  const sim::World& w = s->world;
  ASSERT_FALSE(w.pins.empty());
  float lo = 1.0f, hi = -1.0f;
  for (const sim::Pin& pin : w.pins) {
    const glm::vec3 p = w.state.x[pin.vertex];
    lo = std::min(lo, p.x);
    hi = std::max(hi, p.x);
    EXPECT_GE(p.y, 0.7f - 0.25f * 0.7f) << "a pin at " << p.x << ", " << p.y;
  }
  EXPECT_GE(hi - lo, 0.5f * 0.9f) << w.pins.size() << " pins from x = " << lo << " to " << hi;
}

TEST(MeshScene, ABlenderExportTallestAlongZIsToldAboutUpZ) {
  // blender_grid.obj stands along y (Blender's default export turns z-up
  // to y-up); the same sheet kept z-up, as Blender writes it when asked,
  // stands along z.
  auto file = io::readObj(std::string(DRAPE_TEST_DATA) + "/obj/blender_grid.obj");
  ASSERT_TRUE(file) << file.error();
  EXPECT_TRUE(file->fromBlender);
  scene::MeshSceneOptions o = opts(MeshAs::Cloth);
  EXPECT_EQ(scene::upWarning(file->mesh, true, o), "");
  sim::TriMesh zUp = file->mesh;
  for (glm::vec3& p : zUp.positions) p = glm::vec3(p.x, -p.z, p.y);
  const std::string w = scene::upWarning(zUp, true, o);
  EXPECT_NE(w.find("m.obj: "), std::string::npos) << w;
  EXPECT_NE(w.find("--up z"), std::string::npos) << w;
  EXPECT_EQ(scene::upWarning(zUp, false, o), "");  // not from Blender: no guess
  o.zUp = true;
  EXPECT_EQ(scene::upWarning(zUp, true, o), "");  // already turned
  auto maya = io::readObj(std::string(DRAPE_TEST_DATA) + "/obj/maya_groups.obj");
  ASSERT_TRUE(maya) << maya.error();
  EXPECT_FALSE(maya->fromBlender);
}

TEST(MeshScene, PinListUsesTheFilesVertexOrder) {
  // Input vertices 0, 8 and 20 of the split cube all sit at (−1, −1, −1):
  // after welding they are one vertex, pinned once.
  auto s = scene::meshScene(load("split_cube.obj"), {}, opts(MeshAs::Cloth, pinList({0, 8, 20})));
  ASSERT_TRUE(s) << s.error();
  ASSERT_EQ(s->world.pins.size(), 1u);
  EXPECT_EQ(s->world.state.x[s->world.pins[0].vertex], glm::vec3(-1, -1, -1));
  EXPECT_EQ(s->world.state.w[s->world.pins[0].vertex], 0.0f);

  auto corners =
      scene::meshScene(load("blender_grid.obj"), {}, opts(MeshAs::Cloth, pinList({0, 3})));
  ASSERT_TRUE(corners) << corners.error();
  ASSERT_EQ(corners->world.pins.size(), 2u);
  EXPECT_EQ(corners->world.state.x[corners->world.pins[0].vertex], glm::vec3(-1, 2, 0));
  EXPECT_EQ(corners->world.state.x[corners->world.pins[1].vertex], glm::vec3(1, 2, 0));
}

TEST(MeshScene, PinOutOfRangeIsNamed) {
  auto s = scene::meshScene(load("blender_grid.obj"), {}, opts(MeshAs::Cloth, pinList({2, 16})));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error(),
            "m.obj: pin vertex 16 is out of range: the mesh has 16 vertices, numbered from 0");
}

TEST(MeshScene, PinOnAnUnusedVertexIsRefused) {
  sim::TriMesh m = load("missing_mtl.obj");
  m.positions.push_back({5, 5, 5});  // on no triangle: dropped by preparation
  auto s = scene::meshScene(m, {}, opts(MeshAs::Cloth, pinList({4})));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error(), "m.obj: pin vertex 4 is not on any triangle");
}

TEST(MeshScene, FloorSitsBelowTheLowestPoint) {
  // Curtain from y = 0 to 2: 25 % of 2 m is 0.5 m, the minimum.
  auto low = scene::meshScene(load("blender_grid.obj"), {}, opts(MeshAs::Cloth));
  ASSERT_TRUE(low);
  ASSERT_EQ(low->world.colliders.size(), 1u);
  EXPECT_EQ(low->world.colliders[0].kind, sim::ColliderKind::Plane);
  EXPECT_FLOAT_EQ(low->world.colliders[0].center.y, -0.5f);

  // Stretched to 8 m tall and lifted: 25 % of the height is 2 m.
  sim::TriMesh tall = load("blender_grid.obj");
  for (glm::vec3& p : tall.positions) p.y = 4.0f * p.y + 10.0f;
  auto high = scene::meshScene(tall, {}, opts(MeshAs::Cloth));
  ASSERT_TRUE(high);
  EXPECT_FLOAT_EQ(high->world.colliders[0].center.y, 8.0f);
}

// The window frames the mesh and the floor below it (what that box is and
// that it fits the window: tests/gui/test_opening_camera.cpp).
TEST(MeshScene, CameraFramesTheMeshAndFloor) {
  auto s = scene::meshScene(load("blender_cube.obj"), {}, opts(MeshAs::Auto));
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->camera.frame);
  EXPECT_FLOAT_EQ(s->world.colliders.back().center.y, -1.5f);  // the cube spans y in [−1, 1]
}

TEST(MeshScene, PinnedCurtainHangsAndStaysFinite) {
  auto s =
      scene::meshScene(load("blender_grid.obj"), {}, opts(MeshAs::Cloth, {MeshPin::Kind::Top, {}}));
  ASSERT_TRUE(s);
  sim::World& w = s->world;
  const std::vector<glm::vec3> start = w.state.x;
  for (int i = 0; i < 60; ++i) sim::step(w);
  ASSERT_TRUE(sim::allFinite(w));
  for (const sim::Pin& pin : w.pins) EXPECT_EQ(w.state.x[pin.vertex], start[pin.vertex]);
  // The bottom row (y = 0 at rest) cannot fall far: the cloth holds it.
  for (std::size_t i = 0; i < start.size(); ++i) {
    if (start[i].y == 0.0f) {
      EXPECT_GT(w.state.x[i].y, -0.3f);
    }
  }
}

TEST(MeshScene, BalloonKeepsItsVolumeOnTheFloor) {
  sim::Params p;
  scene::meshSceneDefaults(prepared("hex_prism.obj"), MeshAs::Balloon, p);
  auto s = scene::meshScene(load("hex_prism.obj"), p, opts(MeshAs::Auto));
  ASSERT_TRUE(s) << s.error();
  ASSERT_TRUE(s->world.cloth.pressureActive);
  for (int i = 0; i < 120; ++i) sim::step(s->world);
  ASSERT_TRUE(sim::allFinite(s->world));
  EXPECT_GT(sim::currentVolume(s->world), 0.5f * sim::restVolume(s->world));
  EXPECT_GT(sim::minColliderDistance(s->world), -0.05f);
}

}  // namespace
