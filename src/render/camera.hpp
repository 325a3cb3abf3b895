#pragma once
// An orbit camera: it looks at `target` from `distance` away, turned by `yaw`
// about +y (0 looks along −z) and raised by `pitch` above the horizon.
//
// The window may be partly covered by a side panel on the left. The
// projection keeps the full window but moves its centre to the middle of the
// free part, so what the camera looks at sits in the middle of what is seen:
//
//   +--------+--------------------------+
//   | panel  |            x             |   x: projection centre
//   +--------+--------------------------+
//   0     freeLeft                    width

#include <limits>

#include <glm/glm.hpp>

namespace drape::render {

struct Ray {
  glm::vec3 origin;
  glm::vec3 direction;  // unit length
};

class Camera {
 public:
  glm::vec3 target{0.0f};
  float distance = 5.0f;  // m
  float yaw = 0.6f;       // rad
  float pitch = 0.35f;    // rad
  float fovY = 0.75f;     // rad, vertical field of view
  // The floor's height (m), which the mouse's moves keep the eye above: a
  // view from under the floor shows the cloth through nothing. −∞: none.
  float floorY = -std::numeric_limits<float>::infinity();

  // Window size in screen coordinates (those of mouse positions) and the
  // left edge of the part that the panel leaves free.
  void setViewport(float width, float height, float freeLeft);

  glm::vec3 eye() const;
  // Unit direction of view, from the eye towards the target.
  glm::vec3 forward() const;
  glm::mat4 view() const;
  glm::mat4 projection() const;
  glm::mat4 viewProjection() const { return projection() * view(); }
  float viewportHeight() const { return height_; }

  // The ray through a point of the window (screen coordinates, origin at the
  // top left, y down), from the eye.
  Ray ray(float screenX, float screenY) const;

  // Mouse-driven moves, in screen pixels.
  void orbit(float dxPixels, float dyPixels);
  void pan(float dxPixels, float dyPixels);
  // Multiply the distance by `factor` (< 1 moves closer).
  void zoom(float factor);
  // Raise the eye above the floor (floorY) if it is not: the pitch first,
  // then, for a target at or under the floor, the target.
  void keepAboveFloor();
  // Look at the box [lo, hi] from the current direction (yaw and pitch
  // kept), at its centre, from just far enough that all eight corners
  // project inside the free part of the window, at least `margin` of its
  // width and height from each edge (the toolbar and the status line lie
  // over the top and bottom 6 % of a 720-pixel window).
  static constexpr float kFrameMargin = 0.1f;
  void frame(const glm::vec3& lo, const glm::vec3& hi, float margin = kFrameMargin);
  // The free part of the window: its left edge and width, in screen
  // coordinates.
  float freeLeft() const { return freeLeft_; }
  float freeWidth() const { return width_ - freeLeft_; }

 private:
  float width_ = 1280.0f, height_ = 720.0f, freeLeft_ = 0.0f;
};

}  // namespace drape::render
