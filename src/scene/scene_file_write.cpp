// Writing scene files: fields in a fixed order, numbers in their shortest
// exact form, so files diff well and reload bit for bit.

#include <cstdlib>
#include <filesystem>
#include <regex>

#include <nlohmann/json.hpp>

#include "scene/scene_file.hpp"
#include "scene/scene_file_detail.hpp"
#include "sim/sim.hpp"

namespace drape::scene {
namespace {

using Json = nlohmann::ordered_json;

double exact(float v) {
  return std::strtod(detail::floatText(v).c_str(), nullptr);
}

Json vec3(const glm::vec3& v) {
  return Json::array({exact(v.x), exact(v.y), exact(v.z)});
}

Json motion(const sim::Motion& m) {
  Json j = Json::object();
  if (m.velocity != glm::vec3(0.0f)) j["velocity"] = vec3(m.velocity);
  if (m.angularVelocity != glm::vec3(0.0f)) j["angular_velocity"] = vec3(m.angularVelocity);
  if (m.pivot != glm::vec3(0.0f)) j["pivot"] = vec3(m.pivot);
  if (m.amplitude != glm::vec3(0.0f)) j["amplitude"] = vec3(m.amplitude);
  if (m.frequency != 0.0f) j["frequency"] = exact(m.frequency);
  return j;
}

Json collider(const sim::Collider& c, const MeshColliderSource* source) {
  Json j;
  j["shape"] = sim::colliderKindName(c.kind);
  if (source) {
    j["obj"] = source->objPath;
    if (source->scale != 1.0f) j["scale"] = exact(source->scale);
    if (source->fps > 0.0f) j["fps"] = exact(source->fps);
  }
  j["center"] = vec3(c.center);
  j["orientation"] = Json::array({exact(c.orientation.w), exact(c.orientation.x),
                                  exact(c.orientation.y), exact(c.orientation.z)});
  switch (c.kind) {
    case sim::ColliderKind::Sphere:
      j["radius"] = exact(c.size.x);
      break;
    case sim::ColliderKind::Box:
      j["half_extents"] = vec3(c.size);
      break;
    case sim::ColliderKind::Capsule:
      j["radius"] = exact(c.size.x);
      j["half_length"] = exact(c.size.y);
      break;
    case sim::ColliderKind::Mesh:
    case sim::ColliderKind::Plane:
      break;
  }
  if (!c.motion.isStatic()) j["motion"] = motion(c.motion);
  return j;
}

// A setting as JSON of its parameter's type.
Json paramValue(const sim::ParamSetting& s) {
  const sim::ParamDesc& d = *s.desc;
  switch (d.type) {
    case sim::ParamType::Enum:
      return d.choices[std::size_t(s.value)];
    case sim::ParamType::Int:
      return int(s.value);
    case sim::ParamType::Switch:
      return s.value != 0.0;
    case sim::ParamType::Vec3:
      return vec3(s.vec);
    case sim::ParamType::Float:
      break;
  }
  return exact(float(s.value));
}

// dump(2) puts each number of an array on its own line; vectors and
// quaternions read better on one.
std::string compactNumberArrays(const std::string& text) {
  static const std::regex array(R"(\[\s*(-?[0-9][0-9.eE+-]*(?:\s*,\s*-?[0-9][0-9.eE+-]*)*)\s*\])");
  static const std::regex gap(R"(\s*,\s*)");
  std::string out;
  auto last = text.cbegin();
  for (std::sregex_iterator it(text.begin(), text.end(), array), end; it != end; ++it) {
    out.append(last, (*it)[0].first);
    out += "[" + std::regex_replace((*it)[1].str(), gap, ", ") + "]";
    last = (*it)[0].second;
  }
  out.append(last, text.cend());
  return out;
}

}  // namespace

SceneFile describeScene(const sim::World& world, const CameraHint& camera) {
  SceneFile f;
  for (const sim::ParamDesc& d : sim::paramTable())
    f.params.push_back(sim::settingOf(world.params, d));
  std::vector<PinSpec> pins;
  for (const sim::Pin& p : world.pins) pins.push_back({p.vertex, p.anchor, p.motion, p.start});
  f.pins = std::move(pins);
  // Colliders that show rigid bodies follow their bodies, and sequences a
  // built-in scene makes in memory (the garment's mannequin) come with it;
  // the file holds only the others.
  std::vector<sim::Collider> colliders;
  for (std::size_t i = 0; i < world.colliders.size(); ++i) {
    bool showsBody = false;
    for (const sim::RigidBody& b : world.bodies) showsBody = showsBody || b.collider == i;
    const sim::Collider& c = world.colliders[i];
    if (showsBody || generatedSequence(c)) continue;
    if (c.kind == sim::ColliderKind::Mesh && c.mesh)
      f.meshColliders.push_back(
          {colliders.size(), c.mesh->source, c.mesh->scale, c.sequence ? c.sequence->fps : 0.0f});
    colliders.push_back(c);
  }
  f.colliders = std::move(colliders);
  f.camera = camera;
  return f;
}

std::string sceneFileText(const SceneFile& f) {
  Json j;
  j["drape_scene"] = kSceneFileVersion;
  if (!f.builtin.empty())
    j["mesh"] = {{"scene", f.builtin}};
  else
    j["mesh"] = {{"obj", f.objPath}, {"as", meshAsName(f.objAs)}};
  if (f.objZUp) j["mesh"]["up"] = "z";
  if (f.objScale != 1.0f) j["mesh"]["scale"] = exact(f.objScale);
  if (!f.seams.empty()) {
    Json seams = Json::array();
    for (const glm::uvec2& seam : f.seams) seams.push_back({seam[0], seam[1]});
    j["mesh"]["seams"] = seams;
  }
  Json params = Json::object();
  for (const sim::ParamSetting& s : f.params) params[s.desc->name] = paramValue(s);
  j["params"] = params;
  if (f.pins) {
    Json pins = Json::array();
    for (const PinSpec& p : *f.pins) {
      Json pin;
      pin["vertex"] = p.vertex;
      if (p.anchor) pin["anchor"] = vec3(*p.anchor);
      if (!p.motion.isStatic()) pin["motion"] = motion(p.motion);
      if (p.start != 0.0) pin["start"] = p.start;
      pins.push_back(pin);
    }
    j["pins"] = pins;
  }
  if (f.colliders) {
    Json colliders = Json::array();
    for (std::size_t i = 0; i < f.colliders->size(); ++i) {
      const MeshColliderSource* source = nullptr;
      for (const MeshColliderSource& m : f.meshColliders)
        if (m.collider == i) source = &m;
      colliders.push_back(collider((*f.colliders)[i], source));
    }
    j["colliders"] = colliders;
  }
  if (f.camera)
    j["camera"] = {{"target", vec3(f.camera->target)},
                   {"distance", exact(f.camera->distance)},
                   {"yaw", exact(f.camera->yaw)},
                   {"pitch", exact(f.camera->pitch)}};
  return compactNumberArrays(j.dump(2)) + "\n";
}

Result<std::string> sceneFileTextFor(const std::string& path, SceneFile file) {
  namespace fs = std::filesystem;
  std::vector<std::string*> paths;
  if (!file.objPath.empty()) paths.push_back(&file.objPath);
  for (MeshColliderSource& m : file.meshColliders) paths.push_back(&m.objPath);
  for (std::string* obj : paths) {
    if (!isValidUtf8(*obj))
      return fail(printable(path) + ": cannot save the scene: the mesh's file name " +
                  printable(*obj) +
                  " is not UTF-8, which a scene file cannot hold; rename the OBJ file");
    std::error_code ec;
    const fs::path folder = fs::absolute(fs::path(path), ec).parent_path();
    const fs::path rel = fs::relative(fs::absolute(*obj, ec), folder, ec);
    if (!ec && !rel.empty()) *obj = rel.string();
  }
  return sceneFileText(file);
}

}  // namespace drape::scene
