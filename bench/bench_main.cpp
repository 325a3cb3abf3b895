// drape_bench: fixed workloads on the same scenes users see, timed step by
// step, reported as JSON (median and p95 ms per step and per phase, and the
// strain the run ended with, so speed is never bought with a stretchier cloth).
//
//   drape_bench [--warmup N] [--steps N] [--only NAME] [--set KEY=VALUE]...
//
// W1(N): the hang cloth at resolution N, dt = 1/60 s, 1 substep, 10
// iterations, k_stretch 1, k_bend 0.01, stretch on every edge, dihedral
// bending on every interior edge, no collisions.
//
// fold: the fold scene (37² vertices dropped onto the floor, folding onto
// itself) with self collision on; phase_ms.self_collision is the detection.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scene/scenes.hpp"
#include "sim/solver.hpp"
#include "sim/stats.hpp"

using namespace drape;
using nlohmann::json;

namespace {

struct Workload {
  std::string name;
  const char* scene;
  std::vector<std::string> sets;
  bool collisions;
};

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const std::size_t rank = std::max<std::size_t>(1, std::size_t(q * double(v.size()) + 0.999999));
  return v[std::min(rank, v.size()) - 1];
}

json summary(const std::vector<double>& v) {
  return {{"median", percentile(v, 0.5)}, {"p95", percentile(v, 0.95)}};
}

json runWorkload(const Workload& wl, int warmup, int steps) {
  const scene::SceneInfo* info = scene::findScene(wl.scene);
  sim::Params params = scene::sceneParams(*info);
  for (const std::string& s : wl.sets) {
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
  sim::World& w = built->world;
  if (!wl.collisions) w.colliders.clear();
  for (int i = 0; i < warmup; ++i) sim::step(w);
  std::vector<double> total, predict, collisions, selfCollision, solve, update;
  for (int i = 0; i < steps; ++i) {
    sim::step(w);
    total.push_back(w.timings.total);
    predict.push_back(w.timings.predict);
    collisions.push_back(w.timings.collisions);
    selfCollision.push_back(w.timings.selfCollision);
    solve.push_back(w.timings.solve);
    update.push_back(w.timings.update);
  }
  const sim::StrainStats strain = sim::strainStats(w);
  return {{"name", wl.name},
          {"scene", wl.scene},
          {"set", wl.sets},
          {"vertices", w.state.x.size()},
          {"stretch", w.cloth.stretch.size()},
          {"bend", w.cloth.bend.size()},
          {"warmup", warmup},
          {"steps", steps},
          {"step_ms", summary(total)},
          {"phase_ms",
           {{"predict", summary(predict)},
            {"collisions", summary(collisions)},
            {"self_collision", summary(selfCollision)},
            {"solve", summary(solve)},
            {"update", summary(update)}}},
          {"strain", {{"max", strain.max}, {"mean", strain.mean}}},
          {"self_contacts", w.selfContacts},
          {"finite", sim::allFinite(w)}};
}

}  // namespace

int main(int argc, char** argv) {
  int warmup = 60, steps = 300;
  std::string only;
  std::vector<std::string> extra;  // --set KEY=VALUE, applied to every workload
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--warmup" || a == "--steps" || a == "--only" || a == "--set") && i + 1 < argc) {
      const std::string v = argv[++i];
      if (a == "--only")
        only = v;
      else if (a == "--set")
        extra.push_back(v);
      else
        (a == "--warmup" ? warmup : steps) = std::max(a == "--steps" ? 1 : 0, std::atoi(v.c_str()));
    } else {
      std::fprintf(
          stderr,
          "usage: drape_bench [--warmup N] [--steps N] [--only NAME] [--set KEY=VALUE]...\n");
      return 2;
    }
  }
  std::vector<Workload> workloads;
  for (int n : {32, 64, 128})
    workloads.push_back(
        {"W1/" + std::to_string(n),
         "hang",
         {"resolution=" + std::to_string(n), "dt=0.0166666667", "substeps=1", "iterations=10",
          "k_stretch=1", "k_bend=0.01", "solver=pbd", "tethers=0", "bending=dihedral"},
         false});
  workloads.push_back({"drape", "drape", {}, true});
  workloads.push_back({"balloon", "balloon", {}, true});
  workloads.push_back({"fold", "fold", {"self_collision=1"}, true});

  json out = json::array();
  for (Workload& wl : workloads) {
    if (!only.empty() && wl.name != only) continue;
    wl.sets.insert(wl.sets.end(), extra.begin(), extra.end());
    out.push_back(runWorkload(wl, warmup, steps));
  }
  if (out.empty()) {
    std::fprintf(stderr, "drape_bench: error: no workload named '%s'\n", only.c_str());
    return 2;
  }
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
