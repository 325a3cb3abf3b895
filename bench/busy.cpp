#include "busy.hpp"

#include <csignal>
#include <cstdio>
#include <vector>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "bench_util.hpp"
#include "sim/sim.hpp"

namespace drape::bench {
namespace {

using nlohmann::json;

constexpr int kBusyProcesses = 2;
constexpr int kWarmup = 30;

// Processes that spin until killed.
std::vector<pid_t> startBusy() {
  std::vector<pid_t> children;
  for (int i = 0; i < kBusyProcesses; ++i) {
    const pid_t pid = fork();
    if (pid == 0) {
      volatile unsigned long spin = 0;
      for (;;) spin = spin + 1;
    }
    if (pid > 0) children.push_back(pid);
  }
  return children;
}

void stopBusy(const std::vector<pid_t>& children) {
  for (pid_t pid : children) kill(pid, SIGKILL);
  for (pid_t pid : children) waitpid(pid, nullptr, 0);
}

json steps(std::vector<std::string> sets, const char* threads, int count) {
  sets.push_back(threads);
  const auto built = buildScene("hang", sets, true);
  sim::World& w = built->world;
  for (int i = 0; i < kWarmup; ++i) sim::step(w);
  const std::uint64_t shrunkBefore = sim::solverTeam(w).shrunkJobs();
  std::vector<double> total;
  for (int i = 0; i < count; ++i) {
    sim::step(w);
    total.push_back(w.stats.timings.total);
  }
  return {{"step_ms", summary(total)},
          {"jobs_on_one_thread", sim::solverTeam(w).shrunkJobs() - shrunkBefore}};
}

}  // namespace

int printBusy(const std::vector<std::string>& extra, int count) {
  std::vector<std::string> sets = {"resolution=128"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  json idle = {{"threads=0", steps(sets, "threads=0", count)},
               {"threads=1", steps(sets, "threads=1", count)}};
  const std::vector<pid_t> children = startBusy();
  json busy = {{"threads=0", steps(sets, "threads=0", count)},
               {"threads=1", steps(sets, "threads=1", count)}};
  stopBusy(children);
  auto p95 = [](const json& run) { return run["step_ms"]["p95"].get<double>(); };
  const json out = {{"scene", "hang"},
                    {"set", sets},
                    {"steps", count},
                    {"cores", sim::hardwareThreads()},
                    {"busy_processes", kBusyProcesses},
                    {"idle", idle},
                    {"busy", busy},
                    {"busy_p95_ratio", p95(busy["threads=0"]) / p95(busy["threads=1"])}};
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace drape::bench
