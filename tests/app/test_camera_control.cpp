// Mouse → camera mapping, driven with plain numbers (no window).

#include <gtest/gtest.h>

#include "app/camera_control.hpp"

namespace drape::app {
namespace {

render::Camera camera() {
  render::Camera c;
  c.setViewport(1280.0f, 720.0f, 320.0f);
  return c;
}

TEST(CameraControl, LeftDragOrbitsOnlyWhileHeld) {
  CameraControl control;
  render::Camera c = camera();
  const render::Camera before = c;
  control.move(100, 100, c);  // no button: nothing happens
  EXPECT_EQ(c.yaw, before.yaw);
  control.press(MouseButton::Left, 100, 100);
  control.move(140, 110, c);
  EXPECT_LT(c.yaw, before.yaw);      // dragging right turns the scene with the cursor
  EXPECT_GT(c.pitch, before.pitch);  // dragging down looks more from above
  EXPECT_EQ(c.target, before.target);
  control.release(MouseButton::Left);
  const float yaw = c.yaw;
  control.move(300, 300, c);
  EXPECT_EQ(c.yaw, yaw);
}

TEST(CameraControl, RightAndMiddleDragPan) {
  for (MouseButton b : {MouseButton::Right, MouseButton::Middle}) {
    CameraControl control;
    render::Camera c = camera();
    const render::Camera before = c;
    control.press(b, 500, 400);
    control.move(520, 400, c);
    EXPECT_EQ(c.yaw, before.yaw);
    EXPECT_EQ(c.distance, before.distance);
    EXPECT_NE(c.target, before.target);
    control.release(b);
    EXPECT_FALSE(control.dragging());
  }
}

TEST(CameraControl, ReleasingAnotherButtonKeepsTheDrag) {
  CameraControl control;
  control.press(MouseButton::Left, 0, 0);
  control.press(MouseButton::Right, 0, 0);  // ignored: one drag at a time
  control.release(MouseButton::Right);
  EXPECT_TRUE(control.dragging());
  control.release(MouseButton::Left);
  EXPECT_FALSE(control.dragging());
}

TEST(CameraControl, WheelZoomsByAConstantRatio) {
  CameraControl control;
  render::Camera c = camera();
  const float d = c.distance;
  control.scroll(1.0, c);
  EXPECT_NEAR(c.distance, 0.9f * d, 1e-5f);
  control.scroll(-1.0, c);
  EXPECT_NEAR(c.distance, d, 1e-5f);
}

}  // namespace
}  // namespace drape::app
