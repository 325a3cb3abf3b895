#include "app/side_by_side.hpp"

#include <cmath>

#include "app/window_state.hpp"
#include "ui/panel.hpp"
#include "ui/viewport_overlay.hpp"

namespace drape::app {

Result<void> SideBySide::start(Session& left, const std::vector<std::string>& sets,
                               const scene::CameraHint& hint,
                               const render::ShaderSources& shaders) {
  sim::Params check = left.params();
  for (const std::string& set : sets)
    if (auto r = sim::setParamAssignment(check, set); !r) return fail("side by side: " + r.error());
  if (!renderer_) {
    auto created = render::Renderer::create(shaders);
    if (!created) return fail(created.error());
    renderer_.emplace(std::move(created.value()));
  }
  const scene::SceneFile start = left.describe(hint);
  auto leftCopy = Session::createFromDescription(start, {}, left.sceneName());
  if (!leftCopy) return fail(leftCopy.error());
  auto right = Session::createBeside(leftCopy.value(), start, sets);
  if (!right) return fail("side by side: " + right.error());
  left = std::move(leftCopy.value());
  right_ = std::move(right.value());
  sets_ = sets;
  stopped_ = false;
  renderer_->setScene(right_->world());
  return {};
}

Result<void> SideBySide::step() {
  if (!right_ || stopped_ || right_->step()) return {};
  stopped_ = true;
  return fail("right side stopped: " + right_->lastError());
}

Result<void> SideBySide::applyParams(const sim::Params& edited) {
  if (!right_) return {};
  sim::Params params = edited;
  for (const std::string& set : sets_) (void)sim::setParamAssignment(params, set);
  return right_->applyParams(params);
}

void SideBySide::sceneReplaced() {
  if (right_ && renderer_) renderer_->setScene(right_->world());
}

double SideBySide::stepMs() const {
  return right_ ? recentStepMs(right_->stepMs()) : -1.0;
}

float SideBySide::split(int winW) {
  const float panel = ui::panelWidth(float(winW));
  return panel + 0.5f * (float(winW) - panel);
}

void SideBySide::draw(render::Renderer& leftRenderer, const sim::World& leftWorld,
                      render::Camera camera, const render::ViewOptions& leftView,
                      const render::ViewOptions& view, std::uint32_t hovered, int winW, int winH,
                      int fbW, int fbH) {
  // Screen coordinates to framebuffer pixels (they differ on HiDPI screens).
  const float at = split(winW);
  const int splitPx = int(std::lround(at * float(fbW) / float(winW)));
  leftRenderer.draw(leftWorld, camera, fbW, fbH, leftView, hovered, {0, 0, splitPx, fbH});
  camera.setViewport(float(winW) - at, float(winH), 0.0f);
  renderer_->draw(right_->world(), camera, fbW, fbH, view, render::kNoVertex,
                  {splitPx, 0, fbW - splitPx, fbH});
}

void SideBySide::drawLabels(const Session& left, int winW, int winH) const {
  if (!right_) return;
  ui::drawSideBySideLabels(ui::panelWidth(float(winW)), split(winW), float(winH),
                           compareLabel(true, {}, left.stepMs(), false).c_str(),
                           compareLabel(false, sets_, right_->stepMs(), stopped_).c_str());
}

render::PixelRect SideBySide::edgeArea() const {
  return right_ && renderer_ ? renderer_->edgeArea() : render::PixelRect{};
}

}  // namespace drape::app
