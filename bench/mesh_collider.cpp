#include "mesh_collider.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "bench_util.hpp"
#include "io/obj_reader.hpp"
#include "scene/shapes.hpp"
#include "sim/sim.hpp"

namespace drape::bench {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// The drape scene with its sphere (collider 0) replaced by `sphere` unless
// it is null, `frames` frames from rest: ms per frame, and what the cloth
// ends with: its strain, and its vertices' least distance to the sphere's
// surface (negative: inside) and to the collider (its own distance, which
// for a mesh is to the triangles).
json runDrape(const std::vector<std::string>& extra, int frames,
              std::shared_ptr<const sim::MeshShape> sphere) {
  auto built = buildScene("drape", extra, true);
  sim::World& w = built->world;
  if (sphere) w.colliders[0] = sim::Collider::meshShape(sphere, glm::vec3(0.0f));
  std::vector<double> ms;
  for (int i = 0; i < frames; ++i) {
    const auto t = Clock::now();
    sim::step(w);
    ms.push_back(msSince(t));
  }
  json out = summary(ms);
  out["vertices"] = w.vertexCount();
  const sim::StrainStats strain = sim::strainStats(w);
  out["strain"] = {{"mean", strain.mean}, {"p99", strain.p99}, {"max", strain.max}};
  const sim::Collider& c = w.colliders[0];
  const sim::Pose pose = sim::poseAt(c, w.time);
  double ball = 1e30, collider = 1e30;
  for (const glm::vec3& x : w.state.x) {
    glm::vec3 n;
    ball = std::min(ball, double(glm::length(pose.toLocal(x))) - 0.5);
    collider = std::min(collider, double(sim::signedDistance(c, pose.toLocal(x), n)));
  }
  out["closest_to_ball_m"] = ball;
  out["closest_to_collider_m"] = collider;
  return out;
}

// A latitude–longitude sphere of radius 0.5: `rings` rings of `segments`
// vertices between the poles, 2·segments·rings triangles.
sim::TriMesh uvSphere(int rings, int segments) {
  sim::TriMesh m;
  const float pi = 3.14159265358979f;
  m.positions.push_back({0.0f, 0.5f, 0.0f});
  for (int r = 1; r <= rings; ++r) {
    const float polar = pi * float(r) / float(rings + 1);
    for (int s = 0; s < segments; ++s) {
      const float a = 2.0f * pi * float(s) / float(segments);
      m.positions.push_back(0.5f * glm::vec3(std::sin(polar) * std::cos(a), std::cos(polar),
                                             std::sin(polar) * std::sin(a)));
    }
  }
  m.positions.push_back({0.0f, -0.5f, 0.0f});
  const std::uint32_t south = std::uint32_t(m.positions.size() - 1);
  auto at = [&](int r, int s) { return std::uint32_t(1 + (r - 1) * segments + s % segments); };
  for (int s = 0; s < segments; ++s) {
    m.triangles.push_back({0, at(1, s + 1), at(1, s)});
    m.triangles.push_back({south, at(rings, s), at(rings, s + 1)});
  }
  for (int r = 1; r < rings; ++r)
    for (int s = 0; s < segments; ++s) {
      m.triangles.push_back({at(r, s), at(r, s + 1), at(r + 1, s + 1)});
      m.triangles.push_back({at(r, s), at(r + 1, s + 1), at(r + 1, s)});
    }
  return m;
}

}  // namespace

int printMeshCollider(const std::vector<std::string>& sets, int frames) {
  std::vector<std::string> extra{"resolution=64"};
  extra.insert(extra.end(), sets.begin(), sets.end());
  json out;
  out["frames"] = frames;
  const json analytic = runDrape(extra, frames, nullptr);
  auto ico = sim::makeMeshShape(scene::makeIcosphere(3, 0.5f, glm::vec3(0.0f)), "icosphere", 1.0f);
  if (!ico) {
    std::fprintf(stderr, "drape_bench: error: %s\n", ico.error().c_str());
    return 1;
  }
  const json mesh = runDrape(extra, frames, ico.value());
  out["analytic_sphere_ms_per_frame"] = analytic;
  out["mesh_sphere_1280_ms_per_frame"] = mesh;
  out["mesh_over_analytic"] = mesh["median"].get<double>() / analytic["median"].get<double>();

  // 100,000 triangles through the OBJ reader.
  const sim::TriMesh big = uvSphere(250, 200);
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("drape_bench_sphere_" + std::to_string(getpid()) + ".obj"))
                               .string();
  {
    std::ofstream f(path);
    for (const glm::vec3& p : big.positions) f << "v " << p.x << ' ' << p.y << ' ' << p.z << '\n';
    for (const glm::uvec3& t : big.triangles)
      f << "f " << t.x + 1 << ' ' << t.y + 1 << ' ' << t.z + 1 << '\n';
  }
  auto t = Clock::now();
  auto loaded = io::readMeshShape(path, 1.0f);
  const double loadMs = msSince(t);
  std::filesystem::remove(path);
  if (!loaded) {
    std::fprintf(stderr, "drape_bench: error: %s\n", loaded.error().c_str());
    return 1;
  }
  sim::TriangleBvh tree;
  t = Clock::now();
  tree.build(loaded.value()->vertices, loaded.value()->triangles);
  const double bvhMs = msSince(t);
  out["big_mesh_triangles"] = loaded.value()->triangles.size();
  out["big_mesh_load_ms"] = loadMs;
  out["big_mesh_bvh_build_ms"] = bvhMs;
  out["big_mesh_ms_per_frame"] = runDrape(extra, frames, loaded.value());
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace drape::bench
