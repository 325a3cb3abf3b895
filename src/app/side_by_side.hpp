#pragma once
// Side by side: a second copy of the scene with some settings changed,
// stepped beside the first and drawn by its own renderer in the right part
// of the window, under the same camera.

#include <optional>
#include <string>
#include <vector>

#include "app/session.hpp"
#include "render/renderer.hpp"
#include "render/shader_files.hpp"
#include "sim/sim.hpp"

namespace drape::app {

class SideBySide {
 public:
  bool active() const { return right_.has_value(); }
  // Both copies afresh from the same description of `left` (which is
  // replaced by its copy, so that they start together), `sets` on the right.
  Result<void> start(Session& left, const std::vector<std::string>& sets,
                     const scene::CameraHint& hint, const render::ShaderSources& shaders);
  void stop() { right_.reset(); }
  // One step of the right copy. When its watchdog stops it, it says so once
  // and waits for a restart.
  Result<void> step();
  // A parameter edit made on the left, under the right's own settings.
  Result<void> applyParams(const sim::Params& edited);
  // The right copy's world was replaced: the renderer follows.
  void sceneReplaced();
  // The right copy's recent step time, ms (−1 when inactive).
  double stepMs() const;
  // Where the right part starts, in screen coordinates, for a window `winW`
  // wide whose side panel takes the left.
  static float split(int winW);
  // The left view in its part of the framebuffer, then the right copy in
  // its own, seen by `camera` (the left's).
  void draw(render::Renderer& leftRenderer, const sim::World& leftWorld, render::Camera camera,
            const render::ViewOptions& leftView, const render::ViewOptions& view,
            std::uint32_t hovered, int winW, int winH, int fbW, int fbH);
  // Each side's label over its view.
  void drawLabels(const Session& left, int winW, int winH) const;
  // Where the right copy's last draw put edges (render::Renderer::edgeArea).
  render::PixelRect edgeArea() const;

 private:
  std::optional<Session> right_;
  std::vector<std::string> sets_;
  std::optional<render::Renderer> renderer_;
  bool stopped_ = false;  // its watchdog fired: it waits for a restart
};

}  // namespace drape::app
