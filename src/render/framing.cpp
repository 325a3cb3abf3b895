#include "render/framing.hpp"

#include <algorithm>
#include <limits>

#include "sim/sim.hpp"

namespace drape::render {
namespace {

constexpr float kMaxFloorDrop = 2.0f;  // in box sides, or metres when more

void include(sim::Bounds& b, const glm::vec3& p) {
  b.min = glm::min(b.min, p);
  b.max = glm::max(b.max, p);
}

// The world box of a collider that is not a plane, at `pose`.
void includeCollider(sim::Bounds& b, const sim::Collider& c, const sim::Pose& pose) {
  switch (c.kind) {
    case sim::ColliderKind::Plane:
      break;
    case sim::ColliderKind::Sphere:
      include(b, pose.position - glm::vec3(c.size.x));
      include(b, pose.position + glm::vec3(c.size.x));
      break;
    case sim::ColliderKind::Box:
      for (int i = 0; i < 8; ++i)
        include(b, pose.toWorld(glm::vec3((i & 1) ? c.size.x : -c.size.x,
                                          (i & 2) ? c.size.y : -c.size.y,
                                          (i & 4) ? c.size.z : -c.size.z)));
      break;
    case sim::ColliderKind::Capsule:
      for (const float end : {-c.size.y, c.size.y}) {
        const glm::vec3 p = pose.toWorld(glm::vec3(0.0f, end, 0.0f));
        include(b, p - glm::vec3(c.size.x));
        include(b, p + glm::vec3(c.size.x));
      }
      break;
    case sim::ColliderKind::Mesh:
      if (c.mesh)
        for (const glm::vec3& v : c.mesh->vertices) include(b, pose.toWorld(v));
      break;
  }
}

}  // namespace

sim::Bounds geometryBounds(const sim::World& world) {
  constexpr float kBig = std::numeric_limits<float>::max();
  sim::Bounds b{glm::vec3(kBig), glm::vec3(-kBig)};
  for (const glm::vec3& p : world.state.x) include(b, p);
  for (const sim::Collider& c : world.colliders)
    if (c.kind != sim::ColliderKind::Plane) includeCollider(b, c, sim::poseAt(c, world.time));
  return b;
}

sim::Bounds sceneBounds(const sim::World& world) {
  sim::Bounds b = geometryBounds(world);
  if (b.min.x > b.max.x) return {};  // nothing but planes
  float floor = std::numeric_limits<float>::max();
  for (const sim::Collider& c : world.colliders) {
    const sim::Pose pose = sim::poseAt(c, world.time);
    if (c.kind == sim::ColliderKind::Plane && (pose.rotation * glm::vec3(0, 1, 0)).y > 0.9f)
      floor = std::min(floor, pose.position.y);
  }
  const glm::vec3 size = b.max - b.min;
  const float reach = kMaxFloorDrop * std::max({size.x, size.y, size.z, 1.0f});
  if (floor < b.min.y && floor >= b.min.y - reach) b.min.y = floor;
  return b;
}

PixelRect projectedArea(const sim::Bounds& b, const glm::mat4& viewProj, const glm::mat4* shadow,
                        const PixelRect& area) {
  if (b.min.x > b.max.x) return {};
  glm::vec2 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (int i = 0; i < 16; ++i) {
    if (i >= 8 && !shadow) break;
    glm::vec4 p((i & 1) ? b.max.x : b.min.x, (i & 2) ? b.max.y : b.min.y,
                (i & 4) ? b.max.z : b.min.z, 1.0f);
    if (i >= 8) p = *shadow * p;
    const glm::vec4 clip = viewProj * p;
    if (clip.w < 1e-6f) return area;
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    lo = glm::min(lo, ndc);
    hi = glm::max(hi, ndc);
  }
  auto pixel = [&](float ndc, int origin, int size) {
    return float(origin) + (0.5f * ndc + 0.5f) * float(size);
  };
  const glm::vec2 a(pixel(lo.x, area.x, area.width), pixel(lo.y, area.y, area.height));
  const glm::vec2 z(pixel(hi.x, area.x, area.width), pixel(hi.y, area.y, area.height));
  // Clamped before the conversion, so that a box far off the screen stays
  // within int.
  const glm::vec2 from = glm::clamp(glm::floor(a) - 1.0f, glm::vec2(area.x, area.y),
                                    glm::vec2(area.x + area.width, area.y + area.height));
  const glm::vec2 to = glm::clamp(glm::ceil(z) + 1.0f, glm::vec2(area.x, area.y),
                                  glm::vec2(area.x + area.width, area.y + area.height));
  return intersect({int(from.x), int(from.y), int(to.x - from.x), int(to.y - from.y)}, area);
}

}  // namespace drape::render
