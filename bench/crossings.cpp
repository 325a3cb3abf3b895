#include "crossings.hpp"

#include <cstdio>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "bench_util.hpp"
#include "io/obj_reader.hpp"
#include "scene/mesh_scene.hpp"
#include "sim/sim.hpp"

namespace drape::bench {
namespace {

using nlohmann::json;

constexpr int kSampleEvery = 20;

// `frames` frames of world `w` from rest, named `scene`: ms per frame, the
// crossings every kSampleEvery frames and at the end, every frame of the
// last quarter (where crossings come and go, the end alone is chance), the
// strain, and the sub-steps the frames took (more while crossings are
// known: crossing_substeps). A frame whose crossings are too dense to count
// (a fan's hub) gives null, not 0, and is left out of the quarter's figures.
json runCrossings(sim::World& w, const std::string& scene, int frames) {
  std::vector<double> ms;
  json samples = json::array();
  long first = -1;
  std::size_t most = 0;
  const int lastQuarter = frames - frames / 4;
  std::size_t quarterSum = 0, quarterMost = 0, quarterFramesWith = 0, quarterUncountable = 0;
  long substeps = 0;
  int framesWithMore = 0;
  for (int f = 1; f <= frames; ++f) {
    const auto t = sim::Clock::now();
    sim::step(w);
    ms.push_back(sim::msSince(t));
    substeps += w.stats.substeps;
    framesWithMore += w.stats.substeps > w.params.substeps ? 1 : 0;
    const bool sample = f % kSampleEvery == 0 || f == frames;
    if (!sample && f <= lastQuarter) continue;
    const std::optional<std::size_t> counted = sim::countSelfIntersections(w);
    const std::size_t n = counted.value_or(0);
    if (f > lastQuarter) {
      quarterSum += n;
      quarterMost = std::max(quarterMost, n);
      quarterFramesWith += n > 0 ? 1 : 0;
      quarterUncountable += counted ? 0 : 1;
    }
    if (!sample) continue;
    samples.push_back(counted ? json(n) : json(nullptr));
    most = std::max(most, n);
    if (n > 0 && first < 0) first = f;
  }
  json out = summary(ms);
  out["scene"] = scene;
  out["frames"] = frames;
  out["substeps_taken"] = {{"mean", double(substeps) / double(frames)},
                           {"frames_with_more", framesWithMore}};
  out["crossings_end"] = samples.back();
  out["crossings_most"] = most;
  out["first_sampled_frame_with_crossings"] = first;
  out["crossings_every_20_frames"] = samples;
  const std::size_t counted = std::size_t(frames - lastQuarter) - quarterUncountable;
  out["crossings_last_quarter"] = {
      {"mean", counted > 0 ? json(double(quarterSum) / double(counted)) : json(nullptr)},
      {"most", quarterMost},
      {"frames_with_any", quarterFramesWith},
      {"frames", frames - lastQuarter},
      {"frames_uncountable", quarterUncountable}};
  const sim::StrainStats strain = sim::strainStats(w);
  out["strain"] = {{"mean", strain.mean}, {"p99", strain.p99}, {"max", strain.max}};
  return out;
}

json runCrossings(const char* scene, int resolution, int frames,
                  const std::vector<std::string>& extra) {
  std::vector<std::string> sets{"resolution=" + std::to_string(resolution), "self_collision=1"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  auto built = buildScene(scene, sets, true);
  json out = runCrossings(built->world, scene, frames);
  out["resolution"] = resolution;
  return out;
}

}  // namespace

int printCrossings(const std::vector<std::string>& extra, int frames,
                   const std::vector<int>& sizes) {
  std::vector<int> folds = sizes.empty() ? std::vector<int>{32, 48, 64, 96, 128} : sizes;
  std::printf("[\n");
  bool firstRow = true;
  auto print = [&](const json& row) {
    std::printf("%s%s", firstRow ? "" : ",\n", row.dump().c_str());
    std::fflush(stdout);
    firstRow = false;
  };
  for (int n : folds) print(runCrossings("fold", n, frames > 0 ? frames : 400, extra));
  for (int n : sizes.empty() ? std::vector<int>{64, 128} : sizes)
    print(runCrossings("drape", n, frames > 0 ? frames : 200, extra));
  std::printf("\n]\n");
  return 0;
}

int printMeshCrossings(const std::string& path, const std::vector<std::string>& extra, int frames) {
  auto obj = io::readObj(path);
  if (!obj) {
    std::fprintf(stderr, "drape_bench: error: %s\n", obj.error().c_str());
    return 2;
  }
  auto prepared = sim::prepareMesh(obj->mesh);
  if (!prepared) {
    std::fprintf(stderr, "drape_bench: error: %s: %s\n", path.c_str(), prepared.error().c_str());
    return 2;
  }
  // The mesh's defaults and the user's settings, then self collision on and
  // off: the two rows differ in that alone.
  sim::Params base;
  scene::meshSceneDefaults(prepared.value(), scene::MeshAs::Cloth, base);
  for (const std::string& set : extra)
    if (auto r = sim::setParamAssignment(base, set); !r) {
      std::fprintf(stderr, "drape_bench: error: %s\n", r.error().c_str());
      return 2;
    }
  scene::MeshSceneOptions options;
  options.name = std::filesystem::path(path).filename().string();
  options.as = scene::MeshAs::Cloth;
  std::printf("[\n");
  for (int self = 1; self >= 0; --self) {
    sim::Params params = base;
    params.self_collision = self;
    auto built = scene::meshScene(prepared.value(), params, options);
    if (!built) {
      std::fprintf(stderr, "drape_bench: error: %s\n", built.error().c_str());
      return 2;
    }
    sim::World& w = built->world;
    json row = runCrossings(w, options.name, frames > 0 ? frames : 200);
    row["self_collision"] = self;
    row["vertices"] = w.vertexCount();
    row["triangles"] = w.cloth.triangles.size();
    row["substeps"] = w.params.substeps;
    std::printf("%s%s", self ? "" : ",\n", row.dump().c_str());
    std::fflush(stdout);
  }
  std::printf("\n]\n");
  return 0;
}

}  // namespace drape::bench
