#include "io/stats_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "io/output_path.hpp"
#include "sim/sim.hpp"

namespace drape::io {
namespace {

// Percentile by nearest rank over a copy (q in [0, 1]).
double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t rank = std::max<std::size_t>(1, std::size_t(std::ceil(q * double(v.size()))));
  return v[std::min(rank, v.size()) - 1];
}

nlohmann::json vec(const glm::vec3& v) {
  return {v.x, v.y, v.z};
}

// JSON cannot hold NaN or infinity: write null instead.
nlohmann::json num(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

}  // namespace

std::string statsJson(const sim::World& world, const RunInfo& run) {
  using nlohmann::json;
  const sim::Params& p = world.params;
  const sim::StrainStats strain = sim::strainStats(world);
  const sim::Bounds b = sim::bounds(world);
  json j;
  j["scene"] = run.scene;
  j["vertices"] = world.state.x.size();
  j["triangles"] = world.cloth.triangles.size();
  j["edges"] = world.cloth.stretch.size();
  const bool iso = p.bending == sim::BendingModel::Isometric;
  j["constraints"] = {
      {"stretch", world.cloth.stretch.size()},
      {"bend", iso ? world.cloth.isoBend.size() : world.cloth.bend.size()},
      {"pressure", world.cloth.pressureActive ? 1 : 0},
      {"pins", world.pins.size()},
      {"colliders", world.colliders.size()},
  };
  j["frames"] = run.frames;
  j["dt"] = p.dt;
  j["substeps"] = p.substeps;
  j["substeps_taken"] = world.stats.substeps;
  j["iterations"] = p.iterations;
  j["stretch_sweeps"] = p.stretch_sweeps;
  j["solver"] = sim::choiceName(p, "solver");
  j["bending"] = sim::choiceName(p, "bending");
  j["time"] = world.time;
  j["step_ms"] = {
      {"median", percentile(run.stepMs, 0.5)},
      {"p95", percentile(run.stepMs, 0.95)},
      {"max", run.stepMs.empty() ? 0.0 : *std::max_element(run.stepMs.begin(), run.stepMs.end())}};
  j["strain"] = {{"max", num(strain.max)}, {"mean", num(strain.mean)}, {"p99", num(strain.p99)}};
  j["bounds"] = {{"min", vec(b.min)}, {"max", vec(b.max)}};
  if (world.cloth.closed)
    j["volume"] = {{"initial", sim::restVolume(world)}, {"final", num(sim::currentVolume(world))}};
  j["min_collider_distance"] = num(sim::minColliderDistance(world));
  j["pieces"] = world.cloth.pieceCount;
  j["torn_edges"] = world.tornEdges;
  j["seam_gap_max"] = num(sim::seamGapMax(world));
  // null where the mesh is too dense to count them in linear time.
  const std::optional<std::size_t> crossings = sim::countSelfIntersections(world);
  j["self_intersections"] = crossings ? json(*crossings) : json();
  j["rest_crossings"] = world.stats.restCrossings;
  j["self_collision_too_dense"] = world.stats.selfCollisionTooDense;
  j["nan"] = !sim::allFinite(world);
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(sim::stateHash(world)));
  j["state_hash"] = hash;
  j["watchdog"] = run.watchdogTripped;
  // A scene named by a file name that is not UTF-8 (JSON text must be)
  // gets U+FFFD for its odd bytes.
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

Result<void> writeStats(const std::string& path, const sim::World& world, const RunInfo& run) {
  const std::string text = statsJson(world, run) + "\n";
  return writeFileAtomically(path, text.data(), text.size());
}

}  // namespace drape::io
