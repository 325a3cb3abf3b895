// Reading scene files: every field checked for type and range, every
// message naming the file and the field.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "scene/scene_file.hpp"
#include "scene/scene_file_detail.hpp"
#include "sim/sim.hpp"

namespace drape::scene {
namespace {

using Json = nlohmann::json;
using sim::kMostAngularSpeed;
using sim::kMostFrequency;
using sim::kMostLength;
using sim::kMostScale;
using sim::kMostSpeed;
using sim::kMostTime;

// The largest scene file read (a million pins take about 60 MB).
constexpr std::uintmax_t kMostSceneFileBytes = std::uintmax_t(64) << 20;

// A field error: thrown inside the parser only and turned into a Result at
// its boundary, so each check is one line.
struct FieldError {
  std::string field, message;
};

[[noreturn]] void refuse(const std::string& field, const std::string& message) {
  throw FieldError{field, message};
}

// A value as an error message quotes it: at most two levels deep and about
// 60 characters (a value can be a 200 KB nest of arrays), strings cut and
// made printable.
void excerptInto(const Json& j, int depth, std::string& out) {
  constexpr std::size_t kMost = 60;
  if (j.is_array() || j.is_object()) {
    out += j.is_array() ? '[' : '{';
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!first) out += ", ";
      first = false;
      if (depth >= 2 || out.size() > kMost) {
        out += "...";
        break;
      }
      if (j.is_object()) out += "\"" + printable(it.key(), 24) + "\": ";
      excerptInto(*it, depth + 1, out);
    }
    out += j.is_array() ? ']' : '}';
    return;
  }
  if (j.is_string()) {
    out += "\"" + printable(j.get_ref<const std::string&>(), 40) + "\"";
    return;
  }
  out += j.dump();
}

std::string excerpt(const Json& j) {
  std::string out;
  excerptInto(j, 0, out);
  return out;
}

const char* typeName(const Json& j) {
  if (j.is_null()) return "null";
  if (j.is_boolean()) return "true/false";
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_array()) return "an array";
  return "an object";
}

void checkKeys(const Json& object, const std::string& field,
               std::initializer_list<const char*> known) {
  if (!object.is_object())
    refuse(field, std::string("expected an object, got ") + typeName(object));
  for (const auto& item : object.items()) {
    bool ok = false;
    for (const char* k : known) ok = ok || item.key() == k;
    if (ok) continue;
    std::string list;
    for (const char* k : known) list += std::string(list.empty() ? "" : ", ") + k;
    const std::string key = printable(item.key(), 40);
    refuse(field.empty() ? key : field + "." + key, "unknown field (known here: " + list + ")");
  }
}

std::string join(const std::string& field, const char* key) {
  return field.empty() ? key : field + "." + key;
}

const Json& required(const Json& object, const std::string& field, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) refuse(join(field, key), "missing (required)");
  return *it;
}

double number(const Json& j, const std::string& field) {
  if (!j.is_number()) refuse(field, std::string("expected a number, got ") + typeName(j));
  const double v = j.get<double>();
  if (!std::isfinite(v) || std::abs(v) > double(std::numeric_limits<float>::max()))
    refuse(field, "expected a finite number");
  return v;
}

float positive(const Json& j, const std::string& field) {
  const double v = number(j, field);
  if (!(float(v) > 0.0f)) refuse(field, "expected a number > 0, got " + excerpt(j));
  return float(v);
}

std::string limitText(double most) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", most);
  return text;
}

// A number within ±most (scene_file.hpp: the limits), in `unit`.
double within(const Json& j, const std::string& field, double most, const char* unit) {
  const double v = number(j, field);
  if (std::abs(v) > most)
    refuse(field,
           "expected a number within ±" + limitText(most) + " " + unit + ", got " + excerpt(j));
  return v;
}

// A size: > 0 and at most `most`.
float size(const Json& j, const std::string& field, double most, const char* unit) {
  const double v = number(j, field);
  if (!(float(v) > 0.0f) || v > most)
    refuse(field,
           "expected a number > 0 and <= " + limitText(most) + " " + unit + ", got " + excerpt(j));
  return float(v);
}

// A path: a string with no NUL byte (the file system would cut it there).
std::string pathString(const Json& j, const std::string& field, const char* what) {
  if (!j.is_string() || j.get_ref<const std::string&>().empty())
    refuse(field, std::string("expected the path of ") + what + ", got " + excerpt(j));
  const std::string& path = j.get_ref<const std::string&>();
  if (path.find('\0') != std::string::npos) refuse(field, "a path cannot hold a NUL byte");
  return path;
}

glm::vec3 vec3(const Json& j, const std::string& field) {
  if (!j.is_array() || j.size() != 3)
    refuse(field,
           std::string("expected [x, y, z], got ") + (j.is_array() ? excerpt(j) : typeName(j)));
  return {float(number(j[0], field + "[0]")), float(number(j[1], field + "[1]")),
          float(number(j[2], field + "[2]"))};
}

glm::vec3 vec3Or(const Json& object, const std::string& field, const char* key,
                 glm::vec3 fallback) {
  auto it = object.find(key);
  return it == object.end() ? fallback : vec3(*it, join(field, key));
}

// A vector whose components lie within ±most.
glm::vec3 vec3Within(const Json& j, const std::string& field, double most, const char* unit) {
  const glm::vec3 v = vec3(j, field);
  for (int k = 0; k < 3; ++k)
    within(j[std::size_t(k)], field + "[" + std::to_string(k) + "]", most, unit);
  return v;
}

glm::vec3 vec3WithinOr(const Json& object, const std::string& field, const char* key,
                       glm::vec3 fallback, double most, const char* unit) {
  auto it = object.find(key);
  return it == object.end() ? fallback : vec3Within(*it, join(field, key), most, unit);
}

// A parameter's JSON value as a setting of its type, checked against its range.
sim::ParamSetting paramSetting(const sim::ParamDesc& d, const Json& j, const std::string& field) {
  const std::string expected = "expected " + sim::describeRange(d);
  sim::ParamSetting s{&d};
  switch (d.type) {
    case sim::ParamType::Enum: {
      if (!j.is_string()) refuse(field, expected + ", got " + typeName(j));
      s.value = double(sim::choiceIndex(d, j.get<std::string>()));
      break;
    }
    case sim::ParamType::Vec3:
      s.vec = vec3(j, field);
      break;
    case sim::ParamType::Switch:
      if (j.is_boolean()) {
        s.value = j.get<bool>() ? 1.0 : 0.0;
        break;
      }
      [[fallthrough]];  // 1 or 0
    case sim::ParamType::Int:
    case sim::ParamType::Float:
      if (!j.is_number()) refuse(field, expected + ", got " + typeName(j));
      s.value = j.get<double>();
      break;
  }
  sim::Params check;
  if (!sim::applySetting(check, s)) refuse(field, expected + ", got " + excerpt(j));
  return s;
}

std::vector<sim::ParamSetting> readParams(const Json& params) {
  if (!params.is_object())
    refuse("params", std::string("expected an object, got ") + typeName(params));
  std::vector<sim::ParamSetting> settings;
  for (const auto& item : params.items()) {
    const std::string field = "params." + printable(item.key(), 40);
    const sim::ParamDesc* d = sim::findParam(item.key());
    if (!d) refuse(field, "unknown parameter (see drape --help and the README's parameter table)");
    settings.push_back(paramSetting(*d, item.value(), field));
  }
  // A fabric preset first, whatever the key order: the file's own values
  // of what it sets then override it, as --set after --set material does.
  std::stable_partition(settings.begin(), settings.end(), [](const sim::ParamSetting& s) {
    return std::string(s.desc->name) == "material";
  });
  return settings;
}

sim::Motion readMotion(const Json& j, const std::string& field) {
  checkKeys(j, field, {"velocity", "angular_velocity", "pivot", "amplitude", "frequency"});
  sim::Motion m;
  m.velocity = vec3WithinOr(j, field, "velocity", m.velocity, kMostSpeed, "m/s");
  m.angularVelocity =
      vec3WithinOr(j, field, "angular_velocity", m.angularVelocity, kMostAngularSpeed, "rad/s");
  m.pivot = vec3WithinOr(j, field, "pivot", m.pivot, kMostLength, "m");
  m.amplitude = vec3WithinOr(j, field, "amplitude", m.amplitude, kMostLength, "m");
  if (auto it = j.find("frequency"); it != j.end()) {
    m.frequency = float(within(*it, field + ".frequency", kMostFrequency, "Hz"));
    if (m.frequency < 0.0f)
      refuse(field + ".frequency",
             "expected a number >= 0 and <= " + limitText(kMostFrequency) + " Hz");
  }
  return m;
}

std::vector<PinSpec> readPins(const Json& pins) {
  if (!pins.is_array()) refuse("pins", std::string("expected an array, got ") + typeName(pins));
  std::vector<PinSpec> out;
  for (std::size_t i = 0; i < pins.size(); ++i) {
    const std::string field = "pins[" + std::to_string(i) + "]";
    const Json& p = pins[i];
    checkKeys(p, field, {"vertex", "anchor", "motion", "start"});
    const Json& v = required(p, field, "vertex");
    if (!v.is_number_integer() || v.get<long long>() < 0 ||
        v.get<long long>() > std::numeric_limits<std::uint32_t>::max())
      refuse(field + ".vertex", "expected a vertex index (a whole number >= 0), got " + excerpt(v));
    PinSpec spec;
    spec.vertex = std::uint32_t(v.get<long long>());
    if (auto it = p.find("anchor"); it != p.end())
      spec.anchor = vec3Within(*it, field + ".anchor", kMostLength, "m");
    if (auto it = p.find("motion"); it != p.end()) spec.motion = readMotion(*it, field + ".motion");
    if (auto it = p.find("start"); it != p.end()) {
      spec.start = number(*it, field + ".start");
      if (spec.start < 0.0 || spec.start > kMostTime)
        refuse(field + ".start", "expected a time >= 0 and <= " + limitText(kMostTime) + " s");
    }
    out.push_back(spec);
  }
  return out;
}

sim::Collider readCollider(const Json& c, const std::string& field, std::size_t index,
                           SceneFile& file) {
  checkKeys(c, field,
            {"shape", "center", "orientation", "normal", "radius", "half_extents", "half_length",
             "obj", "scale", "fps", "motion"});
  const Json& shape = required(c, field, "shape");
  const std::string kind = shape.is_string() ? shape.get<std::string>() : "";
  const glm::vec3 center =
      vec3Within(required(c, field, "center"), field + ".center", kMostLength, "m");
  sim::Collider out;
  if (kind == "plane") {
    out = sim::Collider::plane(center, glm::vec3(0, 1, 0));
    if (auto it = c.find("normal"); it != c.end()) {
      const glm::vec3 n = vec3(*it, field + ".normal");
      if (!(glm::length(glm::dvec3(n)) > 1e-6))
        refuse(field + ".normal", "expected a non-zero vector");
      out = sim::Collider::plane(center, n);
    }
  } else if (kind == "sphere") {
    out = sim::Collider::sphere(
        center, size(required(c, field, "radius"), field + ".radius", kMostLength, "m"));
  } else if (kind == "box") {
    const glm::vec3 h = vec3(required(c, field, "half_extents"), field + ".half_extents");
    if (!(h.x > 0.0f && h.y > 0.0f && h.z > 0.0f))
      refuse(field + ".half_extents", "expected three numbers > 0");
    vec3Within(required(c, field, "half_extents"), field + ".half_extents", kMostLength, "m");
    out = sim::Collider::box(center, h);
  } else if (kind == "capsule") {
    out = sim::Collider::capsule(
        center, size(required(c, field, "radius"), field + ".radius", kMostLength, "m"),
        size(required(c, field, "half_length"), field + ".half_length", kMostLength, "m"));
  } else if (kind == "mesh") {
    MeshColliderSource source{
        index, pathString(required(c, field, "obj"), field + ".obj", "an OBJ file"), 1.0f};
    if (auto it = c.find("scale"); it != c.end())
      source.scale = size(*it, field + ".scale", kMostScale, "");
    if (auto it = c.find("fps"); it != c.end())
      source.fps = size(*it, field + ".fps", kMostFrequency, "Hz");
    file.meshColliders.push_back(source);
    out = sim::Collider::meshShape(nullptr, center);
  } else {
    refuse(field + ".shape",
           "expected one of plane, sphere, box, capsule, mesh, got " + excerpt(shape));
  }
  const char* unused[] = {kind == "sphere" || kind == "capsule" ? "" : "radius",
                          kind == "box" ? "" : "half_extents",
                          kind == "capsule" ? "" : "half_length",
                          kind == "plane" ? "" : "normal",
                          kind == "mesh" ? "" : "obj",
                          kind == "mesh" ? "" : "scale",
                          kind == "mesh" ? "" : "fps"};
  for (const char* key : unused)
    if (*key && c.contains(key)) refuse(join(field, key), "not used by a " + kind);
  if (auto it = c.find("orientation"); it != c.end()) {
    const std::string f = field + ".orientation";
    if (!it->is_array() || it->size() != 4)
      refuse(f, "expected a unit quaternion [w, x, y, z], got " + excerpt(*it));
    const glm::quat q(float(number((*it)[0], f + "[0]")), float(number((*it)[1], f + "[1]")),
                      float(number((*it)[2], f + "[2]")), float(number((*it)[3], f + "[3]")));
    if (std::abs(glm::length(q) - 1.0f) > 1e-3f)
      refuse(f, "expected a unit quaternion [w, x, y, z] (length 1), got " + excerpt(*it));
    out.orientation = q;
  }
  if (auto it = c.find("motion"); it != c.end()) out.motion = readMotion(*it, field + ".motion");
  return out;
}

std::vector<sim::Collider> readColliders(const Json& colliders, SceneFile& file) {
  if (!colliders.is_array())
    refuse("colliders", std::string("expected an array, got ") + typeName(colliders));
  std::vector<sim::Collider> out;
  for (std::size_t i = 0; i < colliders.size(); ++i)
    out.push_back(readCollider(colliders[i], "colliders[" + std::to_string(i) + "]", i, file));
  return out;
}

CameraHint readCamera(const Json& j) {
  checkKeys(j, "camera", {"target", "distance", "yaw", "pitch"});
  CameraHint c;
  c.target = vec3Or(j, "camera", "target", c.target);
  if (auto it = j.find("distance"); it != j.end()) c.distance = positive(*it, "camera.distance");
  if (auto it = j.find("yaw"); it != j.end()) c.yaw = float(number(*it, "camera.yaw"));
  if (auto it = j.find("pitch"); it != j.end()) c.pitch = float(number(*it, "camera.pitch"));
  return c;
}

// Seams: pairs of the OBJ's vertices, 0-based in its vertex order. Whether
// they exist is known once the OBJ is read (the session checks it).
std::vector<glm::uvec2> readSeams(const Json& seams) {
  if (!seams.is_array())
    refuse("mesh.seams", std::string("expected an array of [i, j], got ") + typeName(seams));
  std::vector<glm::uvec2> out;
  for (std::size_t k = 0; k < seams.size(); ++k) {
    const std::string field = "mesh.seams[" + std::to_string(k) + "]";
    const Json& pair = seams[k];
    if (!pair.is_array() || pair.size() != 2)
      refuse(field, "expected [i, j], two vertex indices, got " + excerpt(pair));
    glm::uvec2 seam;
    for (int e = 0; e < 2; ++e) {
      const Json& v = pair[std::size_t(e)];
      if (!v.is_number_integer() || v.get<long long>() < 0 ||
          v.get<long long>() > std::numeric_limits<std::uint32_t>::max())
        refuse(field, "expected a vertex index (a whole number >= 0), got " + excerpt(v));
      seam[e] = std::uint32_t(v.get<long long>());
    }
    if (seam[0] == seam[1]) refuse(field, "joins vertex " + std::to_string(seam[0]) + " to itself");
    out.push_back(seam);
  }
  return out;
}

void readMesh(const Json& mesh, SceneFile& out) {
  checkKeys(mesh, "mesh", {"scene", "obj", "as", "up", "scale", "seams"});
  const bool hasScene = mesh.contains("scene"), hasObj = mesh.contains("obj");
  if (hasScene == hasObj)
    refuse("mesh", "expected either \"scene\" (a built-in scene) or \"obj\" (an OBJ file)");
  if (hasScene) {
    const Json& s = mesh["scene"];
    if (!s.is_string() || !findScene(s.get<std::string>())) {
      std::string names;
      for (const SceneInfo& info : builtinScenes())
        names += std::string(names.empty() ? "" : ", ") + info.name;
      refuse("mesh.scene", "expected a built-in scene (" + names + "), got " + excerpt(s));
    }
    for (const char* key : {"as", "up", "scale", "seams"})
      if (mesh.contains(key)) refuse(join("mesh", key), "only used with \"obj\"");
    out.builtin = s.get<std::string>();
    return;
  }
  out.objPath = pathString(mesh["obj"], "mesh.obj", "an OBJ file");
  if (auto it = mesh.find("as"); it != mesh.end()) {
    auto as = it->is_string() ? parseMeshAs(it->get<std::string>()) : fail("expected a string");
    if (!as) refuse("mesh.as", as.error() + ", got " + excerpt(*it));
    out.objAs = as.value();
  }
  if (auto it = mesh.find("up"); it != mesh.end()) {
    if (!it->is_string() || (*it != "y" && *it != "z"))
      refuse("mesh.up", "expected \"y\" or \"z\", got " + excerpt(*it));
    out.objZUp = *it == "z";
  }
  if (auto it = mesh.find("scale"); it != mesh.end())
    out.objScale = size(*it, "mesh.scale", kMostScale, "");
  if (auto it = mesh.find("seams"); it != mesh.end()) out.seams = readSeams(*it);
}

}  // namespace

Result<SceneFile> parseSceneFile(const std::string& text, const std::string& name) {
  Json j;
  // The keys of each open object, to refuse a key given twice (the parser
  // would keep the last one silently).
  std::vector<std::vector<std::string>> open;
  std::string duplicate;
  auto watch = [&](int, Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::object_start) {
      open.emplace_back();
    } else if (event == Json::parse_event_t::object_end) {
      if (!open.empty()) open.pop_back();
    } else if (event == Json::parse_event_t::key && !open.empty()) {
      const std::string& key = parsed.get_ref<const std::string&>();
      std::vector<std::string>& keys = open.back();
      if (duplicate.empty() && std::find(keys.begin(), keys.end(), key) != keys.end())
        duplicate = key;
      keys.push_back(key);
    }
    return true;
  };
  try {
    j = Json::parse(text, watch);
  } catch (const Json::exception& e) {
    // A syntax error, or a number beyond a double (1e400).
    std::string what = e.what();
    if (const auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    return fail(name + ": not valid JSON: " + printable(what, 100));
  }
  if (!duplicate.empty())
    return fail(name + ": the key \"" + printable(duplicate, 40) +
                "\" is given twice in one object");
  SceneFile out;
  try {
    checkKeys(j, "", {"drape_scene", "mesh", "params", "pins", "colliders", "camera"});
    const Json& version = required(j, "", "drape_scene");
    if (!version.is_number_integer() || version.get<long long>() != kSceneFileVersion)
      refuse("drape_scene", "expected the format version " + std::to_string(kSceneFileVersion) +
                                ", got " + excerpt(version));
    readMesh(required(j, "", "mesh"), out);
    if (auto it = j.find("params"); it != j.end()) out.params = readParams(*it);
    if (auto it = j.find("pins"); it != j.end()) out.pins = readPins(*it);
    if (auto it = j.find("colliders"); it != j.end()) out.colliders = readColliders(*it, out);
    if (auto it = j.find("camera"); it != j.end()) out.camera = readCamera(*it);
  } catch (const FieldError& e) {
    return fail(name + ": " + (e.field.empty() ? "" : e.field + ": ") + e.message);
  }
  return out;
}

Result<SceneFile> readSceneFile(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) return fail(path + ": is a folder, not a scene file");
  // Pipes and devices could block or never end.
  if (fs::exists(status) && !fs::is_regular_file(status))
    return fail(path + ": is not a regular file");
  if (fs::exists(status) && fs::file_size(path, ec) > kMostSceneFileBytes)
    return fail(path + ": larger than " + std::to_string(kMostSceneFileBytes >> 20) +
                " MB; not a scene file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(path + ": cannot open the scene file (missing or unreadable)");
  std::stringstream ss;
  ss << in.rdbuf();
  auto file = parseSceneFile(ss.str(), path);
  if (!file) return file;
  if (!file->objPath.empty() && fs::path(file->objPath).is_relative())
    file->objPath = (fs::path(path).parent_path() / file->objPath).lexically_normal().string();
  for (MeshColliderSource& m : file->meshColliders)
    if (fs::path(m.objPath).is_relative())
      m.objPath = (fs::path(path).parent_path() / m.objPath).lexically_normal().string();
  return file;
}

Result<void> loadMeshColliders(SceneFile& file, MeshShapeLoader load, const std::string& name) {
  if (!file.colliders) return {};
  for (const MeshColliderSource& m : file.meshColliders) {
    if (m.collider >= file.colliders->size()) continue;
    sim::Collider& c = (*file.colliders)[m.collider];
    if (c.kind != sim::ColliderKind::Mesh || c.mesh) continue;
    std::error_code ec;
    if (std::filesystem::is_directory(m.objPath, ec)) continue;  // an OBJ sequence: the app's
    auto shape = load(m.objPath, m.scale);
    if (!shape)
      return fail(name + ": colliders[" + std::to_string(m.collider) + "].obj: " + shape.error());
    c.mesh = shape.value();
  }
  return {};
}

Result<void> applySceneFile(const SceneFile& file, Scene& scene, const std::string& name) {
  sim::World& world = scene.world;
  if (file.pins) {
    for (std::size_t i = 0; i < file.pins->size(); ++i)
      if ((*file.pins)[i].vertex >= world.vertexCount())
        return fail(name + ": pins[" + std::to_string(i) + "].vertex: " +
                    std::to_string((*file.pins)[i].vertex) + " is out of range (the cloth has " +
                    std::to_string(world.vertexCount()) + " vertices)");
    sim::unpinAll(world);
    for (const PinSpec& p : *file.pins) {
      sim::pinVertex(world, p.vertex, p.motion);
      sim::Pin& pin = world.pins.back();
      if (p.anchor) pin.anchor = *p.anchor;
      pin.start = p.start;
    }
  }
  if (file.colliders) {
    for (std::size_t i = 0; i < file.colliders->size(); ++i)
      if ((*file.colliders)[i].kind == sim::ColliderKind::Mesh && !(*file.colliders)[i].mesh)
        return fail(name + ": colliders[" + std::to_string(i) + "].obj: the mesh is not loaded");
    // The file's colliders, then those that show the scene's rigid bodies,
    // then the sequences the built-in scene made in memory.
    std::vector<sim::Collider> colliders = *file.colliders;
    for (sim::RigidBody& b : world.bodies) {
      if (b.collider >= world.colliders.size()) continue;
      colliders.push_back(world.colliders[b.collider]);
      b.collider = std::uint32_t(colliders.size() - 1);
    }
    for (const sim::Collider& c : world.colliders)
      if (generatedSequence(c)) colliders.push_back(c);
    world.colliders = std::move(colliders);
  }
  if (file.camera) scene.camera = *file.camera;
  return {};
}

bool looksLikeSceneFile(const std::string& s) {
  return s.find('/') != std::string::npos || s.find('.') != std::string::npos;
}

}  // namespace drape::scene
