#include "deforming.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "bench_util.hpp"
#include "sim/sim.hpp"

namespace drape::bench {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// A latitude–longitude sphere of `radius` about the origin: 2·segments·rings
// triangles.
sim::TriMesh ball(float radius, int rings, int segments) {
  sim::TriMesh m;
  const float pi = 3.14159265358979f;
  m.positions.push_back({0.0f, radius, 0.0f});
  for (int r = 1; r <= rings; ++r) {
    const float polar = pi * float(r) / float(rings + 1);
    for (int s = 0; s < segments; ++s) {
      const float a = 2.0f * pi * float(s) / float(segments);
      m.positions.push_back(radius * glm::vec3(std::sin(polar) * std::cos(a), std::cos(polar),
                                               std::sin(polar) * std::sin(a)));
    }
  }
  m.positions.push_back({0.0f, -radius, 0.0f});
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

int printDeformingCollider(const std::vector<std::string>& sets, int frames) {
  std::vector<std::string> extra{"resolution=64", "self_collision=on"};
  extra.insert(extra.end(), sets.begin(), sets.end());
  std::vector<sim::TriMesh> keys;
  for (int f = 0; f <= 120; ++f) {
    const float s = 0.5f - 0.5f * std::cos(2.0f * 3.14159265f * float(f) / 120.0f);
    keys.push_back(ball(0.35f + 0.2f * s, 70, 72));
  }
  const sim::TriMesh first = keys.front();
  auto seq = sim::makeMeshSequence(std::move(keys), 60.0f, "breathing ball");
  if (!seq) {
    std::fprintf(stderr, "drape_bench: error: %s\n", seq.error().c_str());
    return 1;
  }
  json out;
  out["frames"] = frames;
  out["triangles"] = first.triangles.size();
  // The surface between two frames, as a sub-step makes it (the grid's
  // frames already made), and a frame's grid made afresh.
  sim::MeshShape shape;
  std::vector<double> update, grid;
  {
    // The first frame: its distance grid is made on this first use.
    const auto t = Clock::now();
    seq.value()->shapeAt(0.0, shape);
    grid.push_back(msSince(t));
  }
  for (int i = 0; i < 40; ++i) {
    const auto t = Clock::now();
    seq.value()->shapeAt((double(i) + 0.5) / 60.0, shape);
    update.push_back(msSince(t));
  }
  std::vector<double> rebuild;
  for (int i = 0; i < 5; ++i) {
    const auto t = Clock::now();
    auto full = sim::makeMeshShape(first, "ball", 1.0f);
    rebuild.push_back(msSince(t));
    if (!full) return 1;
  }
  out["surface_update_ms"] = summary(update);
  out["first_frame_grid_ms"] = summary(grid);
  out["full_rebuild_ms"] = summary(rebuild);

  auto built = buildScene("drape", extra, true);
  sim::World& w = built->world;
  w.colliders[0] = sim::Collider::meshSequence(seq.value());
  std::vector<double> ms;
  for (int i = 0; i < frames; ++i) {
    const auto t = Clock::now();
    sim::step(w);
    ms.push_back(msSince(t));
  }
  json run = summary(ms);
  run["vertices"] = w.vertexCount();
  run["substeps"] = w.params.substeps;
  const sim::StrainStats strain = sim::strainStats(w);
  run["strain"] = {{"mean", strain.mean}, {"p99", strain.p99}, {"max", strain.max}};
  const auto crossings = sim::countSelfIntersections(w);
  run["crossings"] = crossings ? json(*crossings) : json(nullptr);
  run["min_collider_distance_m"] = sim::minColliderDistance(w);
  out["drape_ms_per_frame"] = run;
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace drape::bench
