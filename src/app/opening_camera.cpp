#include "app/opening_camera.hpp"

#include "render/framing.hpp"
#include "ui/panel.hpp"

namespace drape::app {

render::Camera cameraFor(const scene::CameraHint& hint, const sim::World& world, float width,
                         float height, float freeLeft) {
  render::Camera c;
  c.target = hint.target;
  c.distance = hint.distance;
  c.yaw = hint.yaw;
  c.pitch = hint.pitch;
  c.setViewport(width, height, freeLeft);
  if (hint.frame) {
    const sim::Bounds b = render::sceneBounds(world);
    c.frame(b.min, b.max);
  }
  return c;
}

scene::CameraHint shownCamera(const scene::CameraHint& hint, const sim::World& world, float width,
                              float height) {
  const render::Camera c = cameraFor(hint, world, width, height, ui::panelWidth(width));
  return {c.target, c.distance, c.yaw, c.pitch, false};
}

}  // namespace drape::app
