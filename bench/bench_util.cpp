#include "bench_util.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "scene/shapes.hpp"
#include "sim/sim.hpp"

namespace drape::bench {

std::unique_ptr<scene::Scene> buildScene(const char* sceneName,
                                         const std::vector<std::string>& sets, bool collisions) {
  const scene::SceneInfo* info = scene::findScene(sceneName);
  sim::Params params = scene::sceneParams(*info);
  for (const std::string& s : sets) {
    auto r = sim::setParamAssignment(params, s);
    if (!r) {
      std::fprintf(stderr, "drape_bench: error: %s\n", r.error().c_str());
      std::exit(2);
    }
  }
  auto built = info->build(params);
  if (!built) {
    std::fprintf(stderr, "drape_bench: error: %s\n", built.error().c_str());
    std::exit(2);
  }
  if (!collisions) built->world.colliders.clear();
  return std::make_unique<scene::Scene>(std::move(*built));
}

sim::World clampedStrip(int along, int across, float kBend, const std::vector<std::string>& sets) {
  sim::Params params;
  for (const std::string& s : sets)
    if (auto r = sim::setParamAssignment(params, s); !r) {
      std::fprintf(stderr, "drape_bench: error: %s\n", r.error().c_str());
      std::exit(2);
    }
  params.k_bend = kBend;
  auto world = scene::worldFromMesh(
      scene::makeSheet(along, across, {0.0f, 1.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.2f}),
      params);
  if (!world) {
    std::fprintf(stderr, "drape_bench: error: %s\n", world.error().c_str());
    std::exit(2);
  }
  sim::World& w = world.value();
  for (int j = 0; j < across; ++j)
    for (int i = 0; i < 2; ++i) sim::pinVertex(w, std::uint32_t(j * along + i));
  return std::move(w);
}

float stripTip(const sim::World& w, int along, int across) {
  float tip = 0.0f;
  for (int j = 0; j < across; ++j) tip += w.state.x[std::size_t(j * along + along - 1)].y;
  return tip / float(across);
}

std::vector<std::string> w1Sets(int n) {
  return {"resolution=" + std::to_string(n),
          "dt=0.0166666667",
          "substeps=1",
          "iterations=10",
          "stretch_sweeps=1",
          "k_stretch=1",
          "k_bend=0.01",
          "solver=pbd",
          "tethers=0",
          "drag=0",
          "lift=0",
          "bending=dihedral"};
}

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const std::size_t rank = std::max<std::size_t>(1, std::size_t(q * double(v.size()) + 0.999999));
  return v[std::min(rank, v.size()) - 1];
}

nlohmann::json summary(const std::vector<double>& v) {
  return {{"min", *std::min_element(v.begin(), v.end())},
          {"median", percentile(v, 0.5)},
          {"p95", percentile(v, 0.95)}};
}

}  // namespace drape::bench
