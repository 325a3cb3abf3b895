#include "render/framing.hpp"

#include <algorithm>
#include <limits>

#include "sim/mesh_shape.hpp"

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

sim::Bounds sceneBounds(const sim::World& world) {
  constexpr float kBig = std::numeric_limits<float>::max();
  sim::Bounds b{glm::vec3(kBig), glm::vec3(-kBig)};
  for (const glm::vec3& p : world.state.x) include(b, p);
  float floor = kBig;
  for (const sim::Collider& c : world.colliders) {
    const sim::Pose pose = sim::poseAt(c, world.time);
    if (c.kind != sim::ColliderKind::Plane)
      includeCollider(b, c, pose);
    else if ((pose.rotation * glm::vec3(0, 1, 0)).y > 0.9f)
      floor = std::min(floor, pose.position.y);
  }
  if (b.min.x > b.max.x) return {};  // nothing but planes
  const glm::vec3 size = b.max - b.min;
  const float reach = kMaxFloorDrop * std::max({size.x, size.y, size.z, 1.0f});
  if (floor < b.min.y && floor >= b.min.y - reach) b.min.y = floor;
  return b;
}

}  // namespace drape::render
