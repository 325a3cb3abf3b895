#include "interactive.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "bench_util.hpp"
#include "sim/sim.hpp"

namespace drape::bench {
namespace {

using nlohmann::json;

// The frame budgets of the targets: with self collision, the simulation's
// share of a 60 fps frame (16.7 ms), with the rest left to draw; the
// hanging cloth at its defaults in half of that.
constexpr double kSelfCollisionTargetMs = 10.0;
constexpr double kDefaultsTargetMs = 5.0;

// The yardstick the target was set against: W1(128) as plain PBD (1 × 10,
// no coarse levels, no acceleration) took 4.3 ms a frame on one thread and
// 2.3 ms on two of the machine the target was set on. Timed beside the
// runs, it gives their frames in that machine's milliseconds, so that the
// target can be read on a machine of another speed (a shared VM's speed
// also drifts from hour to hour).
constexpr double kYardstickMs[2] = {4.3, 2.3};

// The threads the runs use: `threads=` of `extra` as the parameter table
// reads it, else one per core (a bad setting is refused by the first run).
int threadCount(const std::vector<std::string>& extra) {
  sim::Params params;
  for (const std::string& s : extra) (void)sim::setParamAssignment(params, s);
  return params.threads > 0 ? params.threads : sim::hardwareThreads();
}

// The yardstick: W1(128) with no coarse levels and no acceleration (the
// table's "1 × 10, plain PBD" row) on `threads` threads, 60 frames to warm
// up, then stepped in blocks between a run's blocks of frames, so that it
// times the machine over the same seconds as the run (a shared VM's speed
// moves by 15 % within seconds; timed before and after each run instead,
// it timed other seconds than the run's).
class Yardstick {
 public:
  explicit Yardstick(int threads) {
    std::vector<std::string> sets = w1Sets(128);
    sets.insert(sets.end(), {"levels=0", "chebyshev=0", "threads=" + std::to_string(threads)});
    built_ = buildScene("hang", sets, false);
    for (int f = 0; f < 60; ++f) sim::step(built_->world);
  }
  // Steps `frames` frames, keeping their ms.
  void run(int frames) {
    for (int f = 0; f < frames; ++f) {
      sim::step(built_->world);
      ms_.push_back(built_->world.stats.timings.total);
    }
  }
  // The median frame since the last call, and forget them.
  double take() {
    const double median = percentile(ms_, 0.5);
    ms_.clear();
    return median;
  }

 private:
  std::unique_ptr<scene::Scene> built_;
  std::vector<double> ms_;
};

// Frames of a run between the yardstick's blocks, and the yardstick's
// frames in each block (the 200 frames of the drape beside 285 of it).
constexpr int kRunBlock = 10;
constexpr int kYardstickBlock = 15;

// Frames [begin, end) of a run: one stage of the cloth's motion, whose
// frames cost alike (a falling cloth finds few contacts, a piled one many).
struct Stage {
  const char* name;
  int begin, end;
};

struct Run {
  const char* scene;
  bool selfCollision;
  double targetMs;            // on the yardstick's machine
  std::vector<Stage> stages;  // consecutive, from frame 0
};

// One run, frame by frame, the yardstick (when given) stepped between its
// blocks of frames; its frames' ms also go to `all`.
json runInteractive(const Run& run, const std::vector<std::string>& extra, Yardstick* yardstick,
                    std::vector<double>& all) {
  std::vector<std::string> sets = {"resolution=128"};
  if (run.selfCollision) sets.push_back("self_collision=1");
  sets.insert(sets.end(), extra.begin(), extra.end());
  const auto built = buildScene(run.scene, sets, true);
  sim::World& w = built->world;
  all.clear();
  std::size_t mostContacts = 0;
  json stages = json::array();
  for (const Stage& stage : run.stages) {
    std::vector<double> total, self, solve;
    double contacts = 0.0;
    for (int f = stage.begin; f < stage.end; ++f) {
      if (yardstick && f > 0 && f % kRunBlock == 0) yardstick->run(kYardstickBlock);
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
          {"step_ms", steps},
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
      {"drape",
       true,
       kSelfCollisionTargetMs,
       {{"falls", 0, 25}, {"folds", 25, 40}, {"piles", 40, 120}, {"lies", 120, 200}}},
      {"hang", true, kSelfCollisionTargetMs, {{"swings", 0, 150}, {"sways", 150, 300}}},
      {"hang", false, kDefaultsTargetMs, {{"swings", 0, 150}, {"sways", 150, 300}}},
  };
  // Each run's scale (this machine's ms per one of the target machine's)
  // from the yardstick's frames beside it. With no yardstick for the
  // thread count, the targets are read as they stand.
  const int threads = threadCount(extra);
  const double reference = threads <= 2 ? kYardstickMs[threads - 1] : 0.0;
  std::unique_ptr<Yardstick> yardstick;
  if (reference > 0.0) yardstick = std::make_unique<Yardstick>(threads);
  std::vector<double> yardstickMs;
  json out = json::array();
  std::vector<std::vector<double>> frames(runs.size());
  for (std::size_t r = 0; r < runs.size(); ++r) {
    out.push_back(runInteractive(runs[r], extra, yardstick.get(), frames[r]));
    if (yardstick) yardstickMs.push_back(yardstick->take());
  }
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const double scale = reference > 0.0 ? yardstickMs[r] / reference : 1.0;
    const double target = runs[r].targetMs * scale;
    out[r]["target_ms"] = target;
    out[r]["frames_over_target"] =
        std::count_if(frames[r].begin(), frames[r].end(), [&](double ms) { return ms > target; });
    if (reference > 0.0) {
      out[r]["scale"] = scale;
      out[r]["target_ms_on_target_machine"] = runs[r].targetMs;
      out[r]["median_ms_on_target_machine"] = percentile(frames[r], 0.5) / scale;
    }
  }
  json yardstickOut = {
      {"workload", "W1(128), plain PBD 1 x 10"},
      {"threads", threads},
      {"frames_beside_each_run", {{"every", kRunBlock}, {"frames", kYardstickBlock}}},
      {"ms_beside_each_run", yardstickMs}};
  if (reference > 0.0) yardstickOut["target_machine_ms"] = reference;
  std::printf("%s\n", json{{"runs", out}, {"yardstick", yardstickOut}}.dump(2).c_str());
  return 0;
}

}  // namespace drape::bench
