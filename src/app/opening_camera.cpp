#include "app/opening_camera.hpp"

#include <limits>
#include <vector>

#include "render/framing.hpp"
#include "ui/panel.hpp"

namespace drape::app {

void frameCloth(render::Camera& camera, const sim::World& world) {
  const std::vector<glm::vec3>& x = world.state.x;
  if (x.empty()) return;
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (const glm::vec3& p : x) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  camera.frame(lo, hi);
}

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
