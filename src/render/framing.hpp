#pragma once
// What a scene shows, for the camera to frame it (Camera::frame).

#include "sim/stats.hpp"
#include "sim/world.hpp"

namespace drape::render {

// One axis-aligned box around the cloth, the colliders other than planes
// (rigid bodies among them) at the world's current time, and below them down
// to the floor when there is one (the lowest plane facing up, which the
// renderer draws as the floor) within twice the box's largest side or 2 m:
// what falls or hangs down then stays in view.
sim::Bounds sceneBounds(const sim::World& world);

}  // namespace drape::render
