#pragma once
// The camera a scene opens with: its hint as it is, or, when the hint asks to
// frame (scene::CameraHint::frame), the hint's yaw and pitch with the target
// and distance that fit the scene's bounds (render/framing.hpp) into the
// part of the window the side panel leaves free.

#include "render/camera.hpp"
#include "scene/scenes.hpp"
#include "sim/sim.hpp"

namespace drape::app {

// For a view of `width` × `height` (screen coordinates) whose left
// `freeLeft` the panel covers.
render::Camera cameraFor(const scene::CameraHint& hint, const sim::World& world, float width,
                         float height, float freeLeft);

// The same in a window of `width` × `height` with its side panel, as a hint
// that no longer frames: what a scene file written before any window opens
// keeps.
scene::CameraHint shownCamera(const scene::CameraHint& hint, const sim::World& world, float width,
                              float height);

// Key F: the camera turned to the cloth as it is now, at a distance that
// shows all of it (nothing changes for a world without vertices).
void frameCloth(render::Camera& camera, const sim::World& world);

}  // namespace drape::app
