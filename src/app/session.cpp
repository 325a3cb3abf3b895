#include "app/session.hpp"

#include <chrono>

#include "sim/solver.hpp"

namespace drape::app {
namespace {

Result<sim::Params> paramsFor(const scene::SceneInfo& info, const std::vector<std::string>& sets) {
  sim::Params params = scene::sceneParams(info);
  for (const std::string& s : sets) {
    auto r = sim::setParamAssignment(params, s);
    if (!r) return fail(r.error());
  }
  return params;
}

std::string sceneList() {
  std::string names;
  for (const auto& s : scene::builtinScenes()) names += std::string(names.empty() ? "" : ", ") + s.name;
  return names;
}

}  // namespace

Result<Session> Session::create(const std::string& sceneName, const std::vector<std::string>& sets) {
  const scene::SceneInfo* info = scene::findScene(sceneName);
  if (!info) return fail("unknown scene '" + sceneName + "' (built-in: " + sceneList() + ")");
  auto params = paramsFor(*info, sets);
  if (!params) return fail(params.error());
  auto built = info->build(params.value());
  if (!built) return fail(built.error());
  Session s;
  s.sceneName_ = sceneName;
  s.sets_ = sets;
  s.scene_ = std::move(built.value());
  return s;
}

void Session::step() {
  const auto t0 = std::chrono::steady_clock::now();
  sim::step(scene_.world);
  stepMs_.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  ++frames_;
}

Result<void> Session::reset() {
  const scene::SceneInfo* info = scene::findScene(sceneName_);
  auto built = info->build(scene_.world.params);
  if (!built) return fail(built.error());
  const sim::Params params = scene_.world.params;
  scene_ = std::move(built.value());
  scene_.world.params = params;
  frames_ = 0;
  stepMs_.clear();
  return {};
}

Result<void> Session::switchScene(const std::string& name) {
  auto next = create(name, sets_);
  if (!next) return fail(next.error());
  *this = std::move(next.value());
  return {};
}

Result<void> Session::applyParams(const sim::Params& edited) {
  const sim::Params before = scene_.world.params;
  scene_.world.params = edited;
  bool rebuild = false;
  for (const sim::ParamDesc& d : sim::paramTable())
    if (d.rebuild && sim::formatParam(before, d) != sim::formatParam(edited, d)) rebuild = true;
  if (!rebuild) return {};
  auto r = reset();
  if (!r) scene_.world.params = before;
  return r;
}

}  // namespace drape::app
