#include "scene/garment_scene.hpp"

#include <memory>
#include <utility>

#include "scene/mannequin.hpp"
#include "scene/shirt_pattern.hpp"

namespace drape::scene {
namespace {

constexpr float kBodyCell = 0.022f;  // the mannequin's surface: 9,936 triangles
constexpr float kShirtSpacing = 0.02f;
constexpr float kShirtGap = 0.035f;  // each panel's distance from the chest
constexpr float kBodyFps = 30.0f;    // the motion's frames: 5 s, then held
constexpr float kBodySeconds = 5.0f;

}  // namespace

void garmentDefaults(sim::Params& p) {
  p.self_collision = 1;
  p.friction = 0.5f;
  // Sewn before the panels fall far: 0.28 m closed in 3 frames (1 cm of fall).
  p.seam_close_time = 0.05f;
  // Three passes hold the seams against the moving arms (one leaves crossings).
  p.iterations = 3;
}

// garment: a T-shirt of two flat panels, front and back, sewn at the
// shoulders, along the sleeves and down the sides around a mannequin that
// then raises its arms and turns (an OBJ sequence of its own making, as a
// deforming collider); floor at y = 0.
Result<Scene> buildGarment(const sim::Params& params) {
  const MannequinSize size;
  ShirtPanels shirt = makeShirtPanels(size, kShirtSpacing, kShirtGap);
  shirt.mesh.seams = shirt.seams;
  auto world = worldFromMesh(shirt.mesh, params);
  if (!world) return fail(world.error());
  const sim::TriMesh rest = makeMannequin(size, kBodyCell);
  auto body =
      sim::makeMeshSequence(mannequinFrames(rest, size, kBodyFps, kBodySeconds), kBodyFps, "");
  if (!body) return fail(body.error());
  Scene scene{"garment", std::move(world.value()), {}};
  // The floor first: a scene file saved from this scene lists it, and the
  // mannequin, made here, follows it when the file is read.
  scene.world.colliders.push_back(sim::Collider::plane({0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}));
  scene.world.colliders.push_back(sim::Collider::meshSequence(body.value()));
  scene.camera = framedFrom(0.5f, 0.2f);
  return scene;
}

}  // namespace drape::scene
