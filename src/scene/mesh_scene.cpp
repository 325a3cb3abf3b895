#include "scene/mesh_scene.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "sim/sim.hpp"

namespace drape::scene {
namespace {

constexpr std::uint32_t kDropped = std::numeric_limits<std::uint32_t>::max();

// Why a mesh cannot be a balloon, or empty when it can.
std::string balloonProblem(const std::string& name, bool closed, bool pressureOk) {
  if (!closed) return name + " is not closed, cannot be a balloon";
  if (!pressureOk)
    return name + " cannot be a balloon: its surface is not orientable or encloses no volume";
  return {};
}

Result<MeshAs> resolve(const MeshSceneOptions& o, bool closed, bool pressureOk, bool faces,
                       bool strands) {
  // Strands alone are ropes; beside faces they are ropes beside the cloth
  // or balloon the faces make.
  if (o.as == MeshAs::Strands && !strands)
    return fail(o.name + " has no strands (lines whose vertices are on no face)");
  if (!faces) {
    if (o.as == MeshAs::Cloth || o.as == MeshAs::Balloon)
      return fail(o.name + " has no faces, only strands: it loads --as strands");
    return MeshAs::Strands;
  }
  const MeshAs as = o.as == MeshAs::Auto ? (closed && pressureOk ? MeshAs::Balloon : MeshAs::Cloth)
                    : o.as == MeshAs::Strands ? MeshAs::Cloth
                                              : o.as;
  if (as == MeshAs::Balloon)
    if (std::string why = balloonProblem(o.name, closed, pressureOk); !why.empty())
      return fail(why);
  return as;
}

// "top" on a mesh standing up: the vertices within 1 % of the height of the
// highest point, or, where those span less than half the width (a shirt's
// collar stands above its shoulders), the top of each of kTopSlices slices
// across the width whose top lies in the upper quarter of the height: the
// shoulders and the collar, not the sleeves' ends hanging down.
void pinTopBand(sim::World& world, const sim::Bounds& b) {
  const std::vector<glm::vec3>& x = world.state.x;
  const float height = b.max.y - b.min.y, band = 0.01f * height;
  // Across: the wider of x and z.
  const int across = b.max.x - b.min.x >= b.max.z - b.min.z ? 0 : 2;
  const float lo = b.min[across], width = b.max[across] - lo;
  float spanLo = std::numeric_limits<float>::max(), spanHi = -spanLo;
  for (const glm::vec3& p : x)
    if (p.y >= b.max.y - band) {
      spanLo = std::min(spanLo, p[across]);
      spanHi = std::max(spanHi, p[across]);
    }
  if (spanHi - spanLo >= 0.5f * width) {
    for (std::uint32_t i = 0; i < x.size(); ++i)
      if (x[i].y >= b.max.y - band) sim::pinVertex(world, i);
    return;
  }
  constexpr int kTopSlices = 16;
  auto slice = [&](const glm::vec3& p) {
    return std::clamp(int(float(kTopSlices) * (p[across] - lo) / width), 0, kTopSlices - 1);
  };
  std::vector<float> top(kTopSlices, -std::numeric_limits<float>::max());
  for (const glm::vec3& p : x)
    top[std::size_t(slice(p))] = std::max(top[std::size_t(slice(p))], p.y);
  for (std::uint32_t i = 0; i < x.size(); ++i) {
    const float t = top[std::size_t(slice(x[i]))];
    if (t >= b.max.y - 0.25f * height && x[i].y >= t - band) sim::pinVertex(world, i);
  }
}

Result<void> applyPins(sim::World& world, const MeshSceneOptions& o,
                       std::vector<std::string>* warnings) {
  const std::vector<glm::vec3>& x = world.state.x;
  if (o.pin.kind == MeshPin::Kind::Top) {
    const sim::Bounds b = sim::bounds(world);
    const glm::vec3 lo = b.min, hi = b.max;
    const float width = std::max(hi.x - lo.x, hi.z - lo.z);
    if (hi.y - lo.y < 0.01f * width) {
      // Flat and horizontal: the top is every vertex. Its far edge (−z, away
      // from the default camera) instead.
      const float band = 0.01f * (hi.z - lo.z);
      for (std::uint32_t i = 0; i < x.size(); ++i)
        if (x[i].z <= lo.z + band) sim::pinVertex(world, i);
      if (warnings)
        warnings->push_back(o.name +
                            ": the mesh is a flat horizontal sheet; --pin top pinned its far "
                            "edge (lowest z) instead of every vertex");
    } else {
      pinTopBand(world, b);
    }
  } else if (o.pin.kind == MeshPin::Kind::List) {
    const std::vector<std::uint32_t>& map = world.cloth.inputToVertex;
    for (std::uint32_t input : o.pin.vertices) {
      if (input >= map.size())
        return fail(o.name + ": pin vertex " + std::to_string(input) +
                    " is out of range: the mesh has " + std::to_string(map.size()) +
                    " vertices, numbered from 0");
      if (map[input] == kDropped)
        return fail(o.name + ": pin vertex " + std::to_string(input) + " is not on any triangle");
      sim::pinVertex(world, map[input]);
    }
  }
  return {};
}

}  // namespace

Result<MeshAs> parseMeshAs(const std::string& text) {
  if (text == "auto") return MeshAs::Auto;
  if (text == "cloth") return MeshAs::Cloth;
  if (text == "balloon") return MeshAs::Balloon;
  if (text == "strands") return MeshAs::Strands;
  return fail("expected auto, cloth, balloon or strands");
}

Result<MeshPin> parseMeshPin(const std::string& text) {
  MeshPin pin;
  if (text == "none") return pin;
  if (text == "top") {
    pin.kind = MeshPin::Kind::Top;
    return pin;
  }
  pin.kind = MeshPin::Kind::List;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::uint32_t index = 0;
    const char* first = text.data() + start;
    const char* last = text.data() + end;
    const auto r = std::from_chars(first, last, index);
    if (first == last || r.ec != std::errc() || r.ptr != last)
      return fail("expected top, none or vertex indices such as 0,5,12");
    pin.vertices.push_back(index);
    start = end + 1;
  }
  return pin;
}

const char* meshAsName(MeshAs as) {
  switch (as) {
    case MeshAs::Cloth:
      return "cloth";
    case MeshAs::Balloon:
      return "balloon";
    case MeshAs::Strands:
      return "strands";
    case MeshAs::Auto:
      break;
  }
  return "auto";
}

void placeMesh(sim::TriMesh& mesh, const MeshSceneOptions& options) {
  for (glm::vec3& p : mesh.positions) {
    if (options.zUp) p = glm::vec3(p.x, p.z, -p.y);
    p *= options.scale;
  }
}

std::string upWarning(const sim::TriMesh& mesh, bool fromBlender, const MeshSceneOptions& options) {
  if (!fromBlender || options.zUp || mesh.positions.empty()) return {};
  glm::vec3 lo = mesh.positions.front(), hi = lo;
  for (const glm::vec3& p : mesh.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  const glm::vec3 size = hi - lo;
  if (size.z <= size.y || size.z < size.x) return {};
  return options.name +
         ": a Blender export, tallest along z: if z is its up axis, --up z (the Scene panel's "
         "up) stands it upright";
}

std::string sizeWarning(const sim::World& world, const MeshSceneOptions& options) {
  if (world.state.x.empty()) return {};
  const sim::Bounds b = sim::bounds(world);
  const float size = glm::length(b.max - b.min);
  if (size <= 50.0f && size >= 0.01f) return {};
  // A power of ten that brings it to about 2 m.
  const float scale = std::pow(10.0f, std::round(std::log10(2.0f / size)));
  char text[200];
  std::snprintf(text, sizeof text,
                ": the mesh is %.3g m across (drape works in metres); --scale %g makes it %.3g m",
                double(size), double(options.scale * scale), double(size * scale));
  return options.name + text;
}

Result<MeshAs> resolveMeshAs(const sim::PreparedMesh& prepared, const MeshSceneOptions& options) {
  const sim::MeshReport& r = prepared.report;
  // The same test buildCloth applies before it turns pressure on.
  const bool pressureOk =
      r.orientable && sim::sixVolume(prepared.mesh.positions, prepared.mesh.triangles) > 0.0f;
  return resolve(options, r.closed, pressureOk, !prepared.mesh.triangles.empty(),
                 !prepared.strands.empty());
}

Result<MeshAs> resolveMeshAs(const sim::TriMesh& mesh, const MeshSceneOptions& options) {
  auto prepared = sim::prepareMesh(mesh);
  if (!prepared) return fail(options.name + ": " + prepared.error());
  return resolveMeshAs(prepared.value(), options);
}

void meshSceneDefaults(const sim::PreparedMesh& mesh, MeshAs resolved, sim::Params& params) {
  if (resolved == MeshAs::Balloon)
    if (const SceneInfo* balloon = findScene("balloon")) balloon->defaults(params);
  // Within the parameter's range (a mesh of 30 cm edges: 10 cm).
  const float most = float(sim::findParam("thickness")->max);
  params.thickness = std::max(params.thickness, std::min(most, sim::tuning::kSelfThicknessPerEdge *
                                                                   sim::meanEdgeLength(mesh.mesh)));
}

Result<Scene> meshScene(const sim::TriMesh& mesh, const sim::Params& params,
                        const MeshSceneOptions& options, std::vector<std::string>* warnings) {
  auto prepared = sim::prepareMesh(mesh);
  if (!prepared) return fail(options.name + ": " + prepared.error());
  return meshScene(prepared.value(), params, options, warnings);
}

Result<Scene> meshScene(const sim::PreparedMesh& mesh, const sim::Params& params,
                        const MeshSceneOptions& options, std::vector<std::string>* warnings) {
  Scene scene{options.name, worldFromPrepared(mesh, params), {}};
  sim::World& w = scene.world;
  auto as = resolve(options, w.cloth.closed, w.cloth.pressureActive, !mesh.mesh.triangles.empty(),
                    !mesh.strands.empty());
  if (!as) return fail(as.error());
  if (as.value() == MeshAs::Cloth) w.cloth.pressureActive = false;
  if (auto r = applyPins(w, options, warnings); !r) return fail(r.error());

  const sim::Bounds b = sim::bounds(w);
  const float floorY = b.min.y - std::max(0.5f, 0.25f * (b.max.y - b.min.y));
  w.colliders.push_back(sim::Collider::plane({0.0f, floorY, 0.0f}, {0.0f, 1.0f, 0.0f}));

  // The viewer frames the mesh and the floor below it, so that the mesh
  // stays in view when it falls.
  scene.camera = framedFrom(scene.camera.yaw, scene.camera.pitch);
  return scene;
}

}  // namespace drape::scene
