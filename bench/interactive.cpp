#include "interactive.hpp"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "bench_util.hpp"
#include "sim/collision/self_collision.hpp"
#include "sim/solve/step.hpp"
#include "sim/stats.hpp"

namespace drape::bench {
namespace {

using nlohmann::json;

// The frame budget of the target: the simulation's share of a 60 fps frame
// (16.7 ms), with the rest left to draw.
constexpr double kTargetMs = 10.0;

// Frames [begin, end) of a run: one stage of the cloth's motion, whose
// frames cost alike (a falling cloth finds few contacts, a piled one many).
struct Stage {
  const char* name;
  int begin, end;
};

struct Run {
  const char* scene;
  std::vector<Stage> stages;  // consecutive, from frame 0
};

json runInteractive(const Run& run, const std::vector<std::string>& extra) {
  std::vector<std::string> sets = {"resolution=128", "self_collision=1"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  const auto built = buildScene(run.scene, sets, true);
  sim::World& w = built->world;
  std::vector<double> all;
  std::size_t mostContacts = 0;
  json stages = json::array();
  for (const Stage& stage : run.stages) {
    std::vector<double> total, self, solve;
    double contacts = 0.0;
    for (int f = stage.begin; f < stage.end; ++f) {
      sim::step(w);
      total.push_back(w.stats.timings.total);
      self.push_back(w.stats.timings.selfCollision);
      solve.push_back(w.stats.timings.solve);
      contacts += double(w.stats.selfContacts);
      mostContacts = std::max(mostContacts, w.stats.selfContacts);
    }
    all.insert(all.end(), total.begin(), total.end());
    stages.push_back({{"stage", stage.name},
                      {"frames", {stage.begin, stage.end}},
                      {"step_ms", summary(total)},
                      {"self_collision_ms_median", percentile(self, 0.5)},
                      {"solve_ms_median", percentile(solve, 0.5)},
                      {"self_contacts_mean", contacts / double(total.size())}});
  }
  json steps = summary(all);
  steps["max"] = *std::max_element(all.begin(), all.end());
  const sim::StrainStats strain = sim::strainStats(w);
  const std::optional<std::size_t> crossings = sim::countSelfIntersections(w);
  return {{"scene", run.scene},
          {"set", sets},
          {"vertices", w.state.x.size()},
          {"frames", all.size()},
          {"target_ms", kTargetMs},
          {"step_ms", steps},
          {"frames_over_target",
           std::count_if(all.begin(), all.end(), [](double ms) { return ms > kTargetMs; })},
          {"stages", stages},
          {"self_contacts_max", mostContacts},
          {"crossings_at_end", crossings ? json(*crossings) : json()},
          {"strain", {{"max", strain.max}, {"mean", strain.mean}}},
          {"finite", sim::allFinite(w)}};
}

}  // namespace

int printInteractive(const std::vector<std::string>& extra) {
  // drape: 2 m of cloth dropped over a ball; hang: pinned by two corners,
  // swinging down and then swaying (frames of 1/60 s).
  const std::vector<Run> runs = {
      {"drape", {{"falls", 0, 25}, {"folds", 25, 40}, {"piles", 40, 120}, {"lies", 120, 200}}},
      {"hang", {{"swings", 0, 150}, {"sways", 150, 300}}},
  };
  json out = json::array();
  for (const Run& run : runs) out.push_back(runInteractive(run, extra));
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace drape::bench
