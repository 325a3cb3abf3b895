// Every built-in scene opens framed: seen through the camera it opens with,
// the eight corners of its bounds (the cloth, the colliders and the floor
// below them) lie inside the part of the window the side panel leaves free,
// at least 5 % of its width and height from each edge, and fill at least 60 %
// of its width or its height. For the default window, a small one and a
// narrow one; and for a mesh loaded from a file.

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "app/mesh_loading.hpp"
#include "app/opening_camera.hpp"
#include "app/session.hpp"
#include "render/framing.hpp"
#include "ui/panel.hpp"

namespace drape::app {
namespace {

struct Window {
  float width, height;
};
constexpr Window kWindows[] = {{1280.0f, 720.0f}, {640.0f, 360.0f}, {700.0f, 900.0f}};

// Where a world point shows, in screen coordinates (origin top left, y down).
glm::vec2 project(const render::Camera& c, const glm::vec3& p, const Window& w) {
  const glm::vec4 clip = c.viewProjection() * glm::vec4(p, 1.0f);
  EXPECT_GT(clip.w, 0.0f) << "behind the eye";
  return {(clip.x / clip.w + 1.0f) * 0.5f * w.width, (1.0f - clip.y / clip.w) * 0.5f * w.height};
}

void expectFramed(const Session& s, const Window& w) {
  const std::string what =
      s.sceneName() + " in " + std::to_string(int(w.width)) + "x" + std::to_string(int(w.height));
  const float panel = ui::panelWidth(w.width);
  const render::Camera c = cameraFor(s.camera(), s.world(), w.width, w.height, panel);
  EXPECT_EQ(c.yaw, s.camera().yaw) << what;  // seen from the scene's own direction
  EXPECT_EQ(c.pitch, s.camera().pitch) << what;
  const sim::Bounds b = render::sceneBounds(s.world());
  glm::vec2 lo(1e9f), hi(-1e9f);
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner{(i & 1) ? b.max.x : b.min.x, (i & 2) ? b.max.y : b.min.y,
                           (i & 4) ? b.max.z : b.min.z};
    const glm::vec2 p = project(c, corner, w);
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  const float freeWidth = w.width - panel;
  EXPECT_GE(lo.x, panel + 0.05f * freeWidth) << what;
  EXPECT_LE(hi.x, w.width - 0.05f * freeWidth) << what;
  EXPECT_GE(lo.y, 0.05f * w.height) << what;
  EXPECT_LE(hi.y, 0.95f * w.height) << what;
  EXPECT_GE(std::max((hi.x - lo.x) / freeWidth, (hi.y - lo.y) / w.height), 0.6f) << what;
}

TEST(OpeningCamera, EveryBuiltinSceneOpensFramed) {
  for (const scene::SceneInfo& info : scene::builtinScenes()) {
    auto s = Session::create(info.name, {});
    ASSERT_TRUE(s) << s.error();
    EXPECT_TRUE(s->camera().frame) << info.name;
    for (const Window& w : kWindows) expectFramed(*s, w);
  }
}

TEST(OpeningCamera, TheBoundsHoldTheClothTheCollidersAndTheFloorBelow) {
  auto s = Session::create("drape", {});
  ASSERT_TRUE(s) << s.error();
  const sim::Bounds b = render::sceneBounds(s->world());
  // The 2 m cloth at y = 1, the sphere of radius 0.5 at the origin, the floor at y = −1.
  EXPECT_FLOAT_EQ(b.min.x, -1.0f);
  EXPECT_FLOAT_EQ(b.max.x, 1.0f);
  EXPECT_FLOAT_EQ(b.min.z, -1.0f);
  EXPECT_FLOAT_EQ(b.max.z, 1.0f);
  EXPECT_FLOAT_EQ(b.min.y, -1.0f);
  EXPECT_FLOAT_EQ(b.max.y, 1.0f);

  // The barrel's drum holds the cloth, its back wall reaches 0.85 m from
  // the axis; no plane faces up, so nothing below it counts.
  auto barrel = Session::create("barrel", {});
  ASSERT_TRUE(barrel) << barrel.error();
  const sim::Bounds d = render::sceneBounds(barrel->world());
  EXPECT_FLOAT_EQ(d.max.y, 0.85f);
  EXPECT_FLOAT_EQ(d.min.y, -0.85f);
}

TEST(OpeningCamera, AMeshOpensFramedWithItsFloor) {
  auto s = Session::create("hang", {});
  ASSERT_TRUE(s) << s.error();
  ASSERT_TRUE(loadMeshScene(s.value(), std::string(DRAPE_TEST_DATA) + "/obj/blender_cube.obj", {}));
  const sim::Bounds b = render::sceneBounds(s->world());
  // The cube from −1 to 1, its floor 0.5 m below.
  EXPECT_FLOAT_EQ(b.min.y, -1.5f);
  EXPECT_FLOAT_EQ(b.max.y, 1.0f);
  for (const Window& w : kWindows) expectFramed(s.value(), w);
}

TEST(OpeningCamera, AWrittenCameraIsKept) {
  auto s = Session::create("hang", {});
  ASSERT_TRUE(s) << s.error();
  const scene::CameraHint written{{1.0f, 2.0f, 3.0f}, 7.0f, 0.2f, 0.3f, false};
  const render::Camera c = cameraFor(written, s->world(), 1280.0f, 720.0f, 320.0f);
  EXPECT_EQ(c.target, written.target);
  EXPECT_EQ(c.distance, written.distance);
  EXPECT_EQ(c.yaw, written.yaw);
  EXPECT_EQ(c.pitch, written.pitch);
  // And a framed one, once written, frames no more: the same camera.
  const scene::CameraHint shown = shownCamera(s->camera(), s->world(), 1280.0f, 720.0f);
  EXPECT_FALSE(shown.frame);
  const render::Camera framed = cameraFor(s->camera(), s->world(), 1280.0f, 720.0f, 320.0f);
  EXPECT_EQ(shown.target, framed.target);
  EXPECT_EQ(shown.distance, framed.distance);
}

}  // namespace
}  // namespace drape::app
