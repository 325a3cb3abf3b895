#include "app/camera_control.hpp"

#include <cmath>

namespace drape::app {

void CameraControl::press(MouseButton button, double x, double y) {
  if (mode_ != Mode::None) return;  // one drag at a time; other buttons wait
  mode_ = button == MouseButton::Left ? Mode::Orbit : Mode::Pan;
  button_ = button;
  lastX_ = x;
  lastY_ = y;
}

void CameraControl::release(MouseButton button) {
  if (button == button_) mode_ = Mode::None;
}

void CameraControl::move(double x, double y, render::Camera& camera) {
  const float dx = float(x - lastX_), dy = float(y - lastY_);
  lastX_ = x;
  lastY_ = y;
  if (mode_ == Mode::Orbit) camera.orbit(dx, dy);
  if (mode_ == Mode::Pan) camera.pan(dx, dy);
}

void CameraControl::scroll(double clicks, render::Camera& camera) {
  // 10% closer per click, the same ratio at every distance.
  camera.zoom(float(std::pow(0.9, clicks)));
}

}  // namespace drape::app
