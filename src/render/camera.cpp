#include "render/camera.hpp"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace drape::render {
namespace {

constexpr float kOrbitRadPerPixel = 0.008f;
constexpr float kMaxPitch = 1.54f;  // just short of straight down/up, where yaw degenerates
constexpr float kMinDistance = 0.05f, kMaxDistance = 500.0f;

}  // namespace

void Camera::setViewport(float width, float height, float freeLeft) {
  width_ = std::max(width, 1.0f);
  height_ = std::max(height, 1.0f);
  freeLeft_ = std::clamp(freeLeft, 0.0f, width_ - 1.0f);
}

glm::vec3 Camera::eye() const {
  const glm::vec3 back(std::sin(yaw) * std::cos(pitch), std::sin(pitch),
                       std::cos(yaw) * std::cos(pitch));
  return target + distance * back;
}

glm::vec3 Camera::forward() const {
  return glm::normalize(target - eye());
}

glm::mat4 Camera::view() const {
  return glm::lookAt(eye(), target, glm::vec3(0, 1, 0));
}

glm::mat4 Camera::projection() const {
  // Near and far follow the distance so that depth precision stays useful
  // from close-ups to the whole floor.
  const float nearPlane = std::max(0.01f, 0.02f * distance);
  const float farPlane = 100.0f + 20.0f * distance;
  const glm::mat4 p = glm::perspective(fovY, width_ / height_, nearPlane, farPlane);
  // Shift in NDC by the free area's centre: ((freeLeft + width) / 2) / width
  // mapped to [−1, 1] is freeLeft / width.
  const float shift = freeLeft_ / width_;
  return glm::translate(glm::mat4(1.0f), glm::vec3(shift, 0.0f, 0.0f)) * p;
}

Ray Camera::ray(float screenX, float screenY) const {
  const glm::vec2 ndc(2.0f * screenX / width_ - 1.0f, 1.0f - 2.0f * screenY / height_);
  const glm::mat4 inv = glm::inverse(viewProjection());
  glm::vec4 nearPoint = inv * glm::vec4(ndc, -1.0f, 1.0f);
  glm::vec4 farPoint = inv * glm::vec4(ndc, 1.0f, 1.0f);
  nearPoint /= nearPoint.w;
  farPoint /= farPoint.w;
  return {eye(), glm::normalize(glm::vec3(farPoint - nearPoint))};
}

void Camera::orbit(float dxPixels, float dyPixels) {
  yaw -= dxPixels * kOrbitRadPerPixel;
  pitch = std::clamp(pitch + dyPixels * kOrbitRadPerPixel, -kMaxPitch, kMaxPitch);
  keepAboveFloor();
}

void Camera::keepAboveFloor() {
  if (!std::isfinite(floorY)) return;
  // A little above it, more when far (the near plane follows the distance).
  const float lowest = floorY + 0.01f + 0.02f * distance;
  const float s = (lowest - target.y) / distance;
  if (s <= -1.0f) return;
  const float most = std::sin(kMaxPitch);
  if (s > most) target.y = lowest - distance * most;
  pitch = std::clamp(std::max(pitch, std::asin(std::min(s, most))), -kMaxPitch, kMaxPitch);
}

void Camera::pan(float dxPixels, float dyPixels) {
  // World length of one pixel at the target's depth, so the target follows
  // the cursor.
  const float perPixel = 2.0f * distance * std::tan(0.5f * fovY) / height_;
  const glm::vec3 forward = glm::normalize(target - eye());
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0, 1, 0)));
  const glm::vec3 up = glm::cross(right, forward);
  target += perPixel * (-dxPixels * right + dyPixels * up);
  keepAboveFloor();
}

void Camera::zoom(float factor) {
  distance = std::clamp(distance * factor, kMinDistance, kMaxDistance);
  keepAboveFloor();
}

void Camera::frame(const glm::vec3& lo, const glm::vec3& hi, float margin) {
  target = 0.5f * (lo + hi);
  // A point at r from the target, seen from the eye at distance d behind it
  // along `forward`, lies at depth d − r·forward and projects at
  // (r·right, r·up) / depth in tangents of the view, whose free area reaches
  // ±tanX across (the projection centres it, see projection()) and ±tanY up
  // and down. It fits when d ≥ r·forward + |r·right| / tanX and
  // d ≥ r·forward + |r·up| / tanY.
  const float keep = std::clamp(1.0f - 2.0f * margin, 0.05f, 1.0f);
  const float tanY = keep * std::tan(0.5f * fovY);
  const float tanX = keep * (width_ - freeLeft_) / height_ * std::tan(0.5f * fovY);
  const glm::vec3 f = forward();
  const glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0, 1, 0)));
  const glm::vec3 up = glm::cross(right, f);
  float d = kMinDistance;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner{(i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z};
    const glm::vec3 r = corner - target;
    const float ahead = glm::dot(r, f);
    // Nor may the near plane at 0.02·d (projection()) cut it.
    d = std::max({d, ahead + std::abs(glm::dot(r, right)) / tanX,
                  ahead + std::abs(glm::dot(r, up)) / tanY, (ahead + 0.01f) / 0.98f});
  }
  distance = std::clamp(d, kMinDistance, kMaxDistance);
}

}  // namespace drape::render
