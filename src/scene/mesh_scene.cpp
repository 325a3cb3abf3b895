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
      const float band = 0.01f * (hi.y - lo.y);
      for (std::uint32_t i = 0; i < x.size(); ++i)
        if (x[i].y >= hi.y - band) sim::pinVertex(world, i);
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
