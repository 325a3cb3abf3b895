#pragma once
// What the left mouse button does to the cloth, apart from any window system
// so that it can be driven (and tested) with plain numbers and a camera:
//
//   Grab (default)  press on the cloth: the nearest vertex of the triangle
//                   under the cursor is held (sim::startGrab) and follows the
//                   cursor in the plane through it that faces the camera;
//                   release: it is let go with the hand's velocity (thrown).
//   Pin             click on the cloth: pin or unpin that vertex; a click on
//                   a pin's marker (which stands out past the cloth's edge
//                   at a corner) takes that pin.
//   Ctrl + click    the same as Pin, whatever the tool.
//   Tear            grab and pull: a grab that tears (sim::Grab::tear) edges
//                   stretched beyond the `tear` slider's ratio, or 1.5 when
//                   the slider is 0 (tearing off).
//   Cut             drag: every edge the stroke crosses on the screen is cut
//                   (sim::tearEdge, the split that overstretching makes),
//                   also when the stroke starts off the cloth; a cut that
//                   would leave a loose sliver (a piece of one or two
//                   triangles) is not made.
//
// Otherwise a press that misses the cloth (and its pin markers) is not taken:
// the camera orbits instead.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "render/camera.hpp"
#include "sim/sim.hpp"

namespace drape::app {

enum class Tool : std::uint8_t { Grab, Pin, Tear, Cut };

class MouseTools {
 public:
  Tool tool = Tool::Grab;

  // Left button pressed at (x, y), screen coordinates. True when a tool took
  // it (then the camera must not orbit): a press on the cloth or a pin
  // marker, or any press with the Cut tool.
  bool press(double x, double y, bool ctrl, const render::Camera& camera, sim::World& world);
  // Left button released: a held vertex is thrown with the hand's velocity;
  // a stroke ends.
  void release(sim::World& world);
  // The cursor moved (screen coordinates).
  void move(double x, double y) { cursor_ = {float(x), float(y)}; }
  // Once per frame, before the step: the held vertex's target is where the
  // cursor's ray meets the camera-facing plane through the last target. The
  // target is sampled against world.time for the throw velocity. A Tear
  // stroke acts along the cursor's way since the last frame.
  void update(const render::Camera& camera, sim::World& world);
  // Forget the held vertex without touching the world (the scene was
  // replaced, so the vertex index means nothing any more).
  void cancel();

  bool holding() const { return holding_ || stroking_; }
  // The cursor's way since the Cut stroke began (screen coordinates), for
  // drawing it; empty when no stroke is under way.
  const std::vector<glm::vec2>& strokeTrail() const { return trail_; }
  // The vertex a press at the cursor would take; none when off the cloth.
  std::optional<std::uint32_t> vertexUnderCursor(const render::Camera& camera,
                                                 const sim::World& world) const;
  // The hand's velocity (m/s) over the last few simulated frames: the
  // target's displacement divided by the simulated time between them. In
  // simulated time, because that is the time in which the cloth followed
  // the hand; while paused no time passes and nothing is thrown.
  glm::vec3 handVelocity() const;

 private:
  struct Sample {
    double time;
    glm::vec3 target;
  };
  static constexpr std::size_t kSamples = 5;  // ~1/12 s at 60 frames per second

  // Tear where the stroke passes the point (x, y) of the screen.
  void strokeAt(float x, float y, const render::Camera& camera, sim::World& world);
  // The vertex a press at (x, y) takes: a pin marker's in front of the cloth,
  // else the cloth's under the cursor.
  std::optional<std::uint32_t> vertexAt(double x, double y, const render::Camera& camera,
                                        const sim::World& world) const;

  glm::vec2 cursor_{0.0f};
  bool holding_ = false;
  glm::vec3 target_{0.0f};
  std::array<Sample, kSamples> samples_{};
  std::size_t sampleCount_ = 0;

  bool stroking_ = false;
  glm::vec2 strokeCursor_{0.0f};           // where the stroke was last followed to
  bool onCloth_ = false;                   // Cut: the stroke has met the cloth
  glm::vec3 strokePoint_{0.0f};            // Cut: where the stroke last met the cloth
  std::vector<glm::vec2> trail_;           // Cut: the cursor's way
  std::uint32_t lastVertex_ = UINT32_MAX;  // Tear: the last edge torn
  std::uint32_t lastOther_ = UINT32_MAX;
};

}  // namespace drape::app
