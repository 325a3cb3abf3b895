#pragma once
// Mouse control of the orbit camera, apart from any window system so that it
// can be driven (and tested) with plain numbers:
//   left drag            orbit (a later mouse tool takes left drags that start on the cloth)
//   right or middle drag pan
//   wheel                zoom

#include "render/camera.hpp"

namespace drape::app {

enum class MouseButton { Left, Right, Middle };

class CameraControl {
 public:
  // A press starts a drag. Presses that the UI takes must not reach here.
  void press(MouseButton button, double x, double y);
  void release(MouseButton button);
  // Cursor at (x, y), in screen coordinates: moves the camera while dragging.
  void move(double x, double y, render::Camera& camera);
  // Wheel clicks (positive: away from the user, which zooms in).
  void scroll(double clicks, render::Camera& camera);

  bool dragging() const { return mode_ != Mode::None; }

 private:
  enum class Mode { None, Orbit, Pan };
  Mode mode_ = Mode::None;
  MouseButton button_ = MouseButton::Left;
  double lastX_ = 0.0, lastY_ = 0.0;
};

}  // namespace drape::app
