#include "app/session.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <new>
#include <stdexcept>

#include <glm/gtc/constants.hpp>

#include "io/obj_reader.hpp"
#include "io/obj_sequence_reader.hpp"
#include "scene/pin_transfer.hpp"
#include "sim/sim.hpp"

namespace drape::app {
namespace {

Result<sim::Params> withSets(sim::Params params, const std::vector<sim::ParamSetting>& settings,
                             const std::vector<std::string>& sets) {
  for (const sim::ParamSetting& s : settings)
    if (auto r = sim::applySetting(params, s); !r) return fail(r.error());
  for (const std::string& s : sets) {
    auto r = sim::setParamAssignment(params, s);
    if (!r) return fail(r.error());
  }
  return params;
}

std::string sceneList() {
  std::string names;
  for (const auto& s : scene::builtinScenes())
    names += std::string(names.empty() ? "" : ", ") + s.name;
  return names;
}

// Take colliders[index] out, keeping the rigid bodies' indices of theirs.
void eraseCollider(sim::World& world, std::size_t index) {
  world.colliders.erase(world.colliders.begin() + std::ptrdiff_t(index));
  for (sim::RigidBody& b : world.bodies)
    if (b.collider != UINT32_MAX && b.collider > index) --b.collider;
}

}  // namespace

Result<Session> Session::create(const std::string& sceneName, const std::vector<std::string>& sets,
                                const std::vector<sim::ParamSetting>& settings) {
  const scene::SceneInfo* info = scene::findScene(sceneName);
  if (!info) return fail("unknown scene '" + sceneName + "' (built-in: " + sceneList() + ")");
  const sim::Params defaults = scene::sceneParams(*info);
  auto params = withSets(defaults, settings, sets);
  if (!params) return fail(params.error());
  auto built = info->build(params.value());
  if (!built) return fail(built.error());
  Session s;
  s.sceneName_ = sceneName;
  s.defaults_ = defaults;
  s.scene_ = std::move(built.value());
  s.watchdog_.reset(s.scene_.world);
  return s;
}

Result<Session> Session::createFromMesh(const std::string& path, scene::MeshSceneOptions options,
                                        const std::vector<std::string>& sets,
                                        const std::vector<sim::ParamSetting>& settings) {
  auto file = io::readObj(path);
  if (!file) return fail(file.error());
  options.name = path;
  const std::size_t vertices = file->mesh.positions.size();
  for (std::size_t k = 0; k < options.seams.size(); ++k)
    for (int e = 0; e < 2; ++e)
      if (options.seams[k][e] >= vertices)
        return fail("mesh.seams[" + std::to_string(k) + "]: vertex " +
                    std::to_string(options.seams[k][e]) + " does not exist (the mesh has " +
                    std::to_string(vertices) + " vertices)");
  file->mesh.seams.insert(file->mesh.seams.end(), options.seams.begin(), options.seams.end());
  const std::string up = scene::upWarning(file->mesh, file->fromBlender, options);
  scene::placeMesh(file->mesh, options);
  // Prepared once (welded, repaired, oriented): for what it becomes, and
  // for every rebuild.
  auto prepared = sim::prepareMesh(file->mesh);
  if (!prepared) return fail(path + ": " + prepared.error());
  auto as = scene::resolveMeshAs(prepared.value(), options);
  if (!as) return fail(as.error());
  options.as = as.value();
  sim::Params defaults;
  scene::meshSceneDefaults(prepared.value(), options.as, defaults);
  auto params = withSets(defaults, settings, sets);
  if (!params) return fail(params.error());
  Session s;
  for (const std::string& w : file->warnings) s.warnings_.push_back(path + ": " + w);
  if (!up.empty()) s.warnings_.push_back(up);
  auto built = scene::meshScene(prepared.value(), params.value(), options, &s.warnings_);
  if (!built) return fail(built.error());
  if (std::string w = scene::sizeWarning(built->world, options); !w.empty())
    s.warnings_.push_back(w);
  s.sceneName_ = std::filesystem::path(path).filename().string();
  s.defaults_ = defaults;
  s.scene_ = std::move(built.value());
  s.scene_.name = s.sceneName_;
  for (const std::string& r : s.scene_.world.cloth.report.repairs())
    s.warnings_.push_back(path + ": " + r);
  s.mesh_ = MeshSource{std::move(prepared.value()), std::move(options)};
  s.watchdog_.reset(s.scene_.world);
  return s;
}

Result<Session> Session::createFromFile(const std::string& path,
                                        const std::vector<std::string>& sets) {
  auto file = scene::readSceneFile(path);
  if (!file) return fail(file.error());
  return createFromDescription(file.value(), sets, path);
}

Result<Session> Session::createFromDescription(const scene::SceneFile& described,
                                               const std::vector<std::string>& sets,
                                               const std::string& name) {
  scene::SceneFile file = described;
  if (auto r = scene::loadMeshColliders(file, io::readMeshShape, name); !r) return fail(r.error());
  auto session =
      file.builtin.empty()
          ? createFromMesh(file.objPath,
                           {file.objPath, file.objAs, {}, file.objZUp, file.objScale, file.seams},
                           sets, file.params)
          : create(file.builtin, sets, file.params);
  if (!session) {
    // The file's seams' own errors name their field; the OBJ's, the file.
    if (session.error().rfind("mesh.seams", 0) == 0) return fail(name + ": " + session.error());
    if (file.builtin.empty()) return fail(name + ": mesh.obj: " + session.error());
    return session;
  }
  Session& s = session.value();
  for (const scene::MeshColliderSource& m : file.meshColliders) {
    std::error_code ec;
    if (!file.colliders || m.collider >= file.colliders->size() ||
        !std::filesystem::is_directory(m.objPath, ec))
      continue;
    auto frames = io::readObjSequence(m.objPath);
    if (!frames)
      return fail(name + ": colliders[" + std::to_string(m.collider) + "].obj: " + frames.error());
    const float fps = m.fps > 0.0f ? m.fps : float(1.0 / double(s.scene_.world.params.dt));
    auto seq = sim::makeMeshSequence(std::move(frames->frames), fps, m.objPath);
    if (!seq)
      return fail(name + ": colliders[" + std::to_string(m.collider) + "].obj: " + seq.error());
    (*file.colliders)[m.collider] = sim::Collider::meshSequence(seq.value());
  }
  if (auto r = scene::applySceneFile(file, s.scene_, name); !r) return fail(r.error());
  for (const sim::Collider& c : file.colliders ? *file.colliders : std::vector<sim::Collider>())
    if (c.mesh)
      for (const std::string& r : c.mesh->repairs) s.warnings_.push_back(c.mesh->source + ": " + r);
  s.file_ = file;
  s.watchdog_.reset(s.scene_.world);
  return session;
}

Result<Session> Session::createBeside(const Session& left, const scene::SceneFile& start,
                                      const std::vector<std::string>& sets) {
  scene::SceneFile own = start;
  own.pins.reset();  // the scene's own pins, on the cloth as the settings make it
  auto right = createFromDescription(own, sets, left.sceneName());
  if (!right || !start.pins) return right;
  if (right->world().vertexCount() == left.world().vertexCount())
    own.pins = start.pins;
  else
    own.pins = scene::transferPins(left.world(), *start.pins, right->world());
  return createFromDescription(own, sets, left.sceneName());
}

const std::string& Session::meshPath() const {
  static const std::string none;
  return mesh_ ? mesh_->options.name : none;
}

Result<void> Session::addMeshColliders(const std::vector<std::string>& objPaths) {
  for (const std::string& path : objPaths)
    if (auto r = addMeshCollider(path, false, 1.0f); !r) return fail("--collider: " + r.error());
  return {};
}

Result<void> Session::addMeshSequenceCollider(const std::string& path) {
  auto frames = io::readObjSequence(path);
  if (!frames) return fail(frames.error());
  // One file per simulated frame.
  const float fps = float(1.0 / double(scene_.world.params.dt));
  auto seq = sim::makeMeshSequence(std::move(frames->frames), fps, frames->folder);
  if (!seq) return fail(frames->folder + ": " + seq.error());
  const sim::Collider c = sim::Collider::meshSequence(seq.value());
  extraColliders_.push_back(c);
  scene_.world.colliders.push_back(c);
  watchdog_.reset(scene_.world);
  return {};
}

Result<void> Session::addMeshCollider(const std::string& path, bool zUp, float scale) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return addMeshSequenceCollider(path);
  auto shape = io::readMeshShape(path, scale);
  if (!shape) return fail(shape.error());
  for (const std::string& r : shape.value()->repairs) warnings_.push_back(path + ": " + r);
  // z-up to y-up, (x, y, z) → (x, z, −y), as scene::placeMesh turns a cloth.
  const glm::quat turn = zUp ? glm::angleAxis(-glm::half_pi<float>(), glm::vec3(1.0f, 0.0f, 0.0f))
                             : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  const sim::Collider c = sim::Collider::meshShape(shape.value(), glm::vec3(0.0f), turn);
  extraColliders_.push_back(c);
  scene_.world.colliders.push_back(c);
  watchdog_.reset(scene_.world);
  return {};
}

void Session::takeAddedColliders(const Session& previous) {
  for (const sim::Collider& c : previous.extraColliders_) {
    extraColliders_.push_back(c);
    scene_.world.colliders.push_back(c);
  }
  watchdog_.reset(scene_.world);
}

bool Session::showsBody(std::size_t index) const {
  for (const sim::RigidBody& b : scene_.world.bodies)
    if (b.collider == index) return true;
  return false;
}

Result<void> Session::removeCollider(std::size_t index) {
  const std::size_t count = scene_.world.colliders.size();
  if (index >= count)
    return fail("no collider " + std::to_string(index) + " (the scene has " +
                std::to_string(count) + ")");
  if (showsBody(index)) return fail("that collider shows a rigid body and goes with it");
  // The world holds the scene's own colliders (less those removed), then the added ones.
  const std::size_t own = count - extraColliders_.size();
  if (index >= own) {
    extraColliders_.erase(extraColliders_.begin() + std::ptrdiff_t(index - own));
  } else {
    std::size_t built = 0;  // its index in the list a rebuild makes
    for (std::size_t seen = 0;; ++built) {
      if (std::find(removedOwn_.begin(), removedOwn_.end(), built) != removedOwn_.end()) continue;
      if (seen++ == index) break;
    }
    removedOwn_.push_back(built);
  }
  eraseCollider(scene_.world, index);
  watchdog_.reset(scene_.world);
  return {};
}

scene::SceneFile Session::describe(const scene::CameraHint& camera) const {
  scene::SceneFile f = scene::describeScene(scene_.world, camera);
  if (mesh_) {
    f.objPath = mesh_->options.name;
    f.objAs = mesh_->options.as;
    f.objZUp = mesh_->options.zUp;
    f.objScale = mesh_->options.scale;
    f.seams = mesh_->options.seams;
  } else {
    f.builtin = sceneName_;
  }
  return f;
}

bool Session::step() {
  const auto t0 = std::chrono::steady_clock::now();
  sim::WatchdogVerdict verdict;
  try {
    sim::step(scene_.world);
    verdict = watchdog_.afterStep(scene_.world);
  } catch (const std::bad_alloc&) {
    verdict = watchdog_.outOfMemory(scene_.world);
  } catch (const std::length_error&) {  // a size no vector can hold
    verdict = watchdog_.outOfMemory(scene_.world);
  }
  if (!verdict.ok) {
    lastError_ = verdict.message;
    return false;
  }
  stepMs_.push_back(
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  ++frames_;
  return true;
}

void Session::restoreWorld(sim::World world) {
  // Move-assigned, the world takes the copy's empty context slot.
  scene_.world = std::move(world);
  watchdog_.reset(scene_.world);
  lastError_.clear();
}

Result<void> Session::reset() {
  auto built = mesh_ ? scene::meshScene(mesh_->mesh, scene_.world.params, mesh_->options)
                     : scene::findScene(sceneName_)->build(scene_.world.params);
  if (!built) return fail(built.error());
  built->name = sceneName_;
  if (file_)
    if (auto r = scene::applySceneFile(*file_, built.value(), sceneName_); !r) return r;
  std::vector<std::size_t> removed = removedOwn_;
  std::sort(removed.rbegin(), removed.rend());
  for (std::size_t i : removed)
    if (i < built->world.colliders.size()) eraseCollider(built->world, i);
  const sim::Params params = scene_.world.params;
  scene_ = std::move(built.value());
  for (const sim::Collider& c : extraColliders_) scene_.world.colliders.push_back(c);
  scene_.world.params = params;
  frames_ = 0;
  stepMs_.clear();
  lastError_.clear();
  watchdog_.reset(scene_.world);
  return {};
}

Result<void> Session::reloadMesh(scene::MeshSceneOptions options) {
  if (!meshOptions()) return reset();
  // Placed anew from the file: another up axis or scale changes the mesh,
  // its defaults (the thickness follows the edges) and its floor.
  // The same file: the scene file's seams still sew it.
  options.seams = mesh_->options.seams;
  auto next = createFromMesh(mesh_->options.name, std::move(options), settings());
  if (!next) return fail(next.error());
  next->takeAddedColliders(*this);
  next->removedOwn_ = removedOwn_;
  next->label_ = label_;
  if (auto r = next->reset(); !r) return r;
  *this = std::move(next.value());
  return {};
}

std::vector<std::string> Session::settings() const {
  std::vector<std::string> changed;
  for (const sim::ParamDesc& d : sim::paramTable()) {
    const std::string value = sim::formatParam(scene_.world.params, d);
    if (value != sim::formatParam(defaults_, d))
      changed.push_back(std::string(d.name) + "=" + value);
  }
  return changed;
}

Result<void> Session::switchScene(const std::string& name, bool keepSettings) {
  // Another scene comes with its own colliders only: one loaded for this
  // scene would sit wherever it happens to be in the next.
  auto next = create(name, keepSettings ? settings() : std::vector<std::string>());
  if (!next) return fail(next.error());
  *this = std::move(next.value());
  return {};
}

Result<void> Session::applyParams(const sim::Params& edited) {
  const sim::Params before = scene_.world.params;
  scene_.world.params = edited;
  if (!sim::needsRebuild(before, edited)) return {};
  auto r = reset();
  if (!r) scene_.world.params = before;
  return r;
}

}  // namespace drape::app
