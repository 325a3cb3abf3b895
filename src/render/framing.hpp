#pragma once
// What a scene shows, for the camera to frame it (Camera::frame), and where
// it shows on the screen, for anti-aliasing (Renderer::edgeArea).

#include <glm/glm.hpp>

#include "render/pixel_rect.hpp"
#include "sim/sim.hpp"

namespace drape::render {

// One axis-aligned box around the cloth and the colliders other than planes
// (rigid bodies among them) at the world's current time; min above max when
// there is nothing but planes.
sim::Bounds geometryBounds(const sim::World& world);

// The same box, and below it down to the floor when there is one (the lowest
// plane facing up, which the renderer draws as the floor) within twice the
// box's largest side or 2 m: what falls or hangs down then stays in view.
// An empty box ({0, 0}) when there is nothing but planes.
sim::Bounds sceneBounds(const sim::World& world);

// The pixels of `area` (a viewport, which `viewProj` maps onto) that the box
// `b` covers, and with `shadow` its flattening onto the floor, one pixel
// wider on each side; empty for an empty box, all of `area` when a corner
// lies behind the eye.
PixelRect projectedArea(const sim::Bounds& b, const glm::mat4& viewProj, const glm::mat4* shadow,
                        const PixelRect& area);

}  // namespace drape::render
