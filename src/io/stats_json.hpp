#pragma once
// The --stats report: facts about a run, written as JSON.

#include <string>
#include <vector>

#include "sim/sim.hpp"

namespace drape::io {

struct RunInfo {
  std::string scene;
  int frames = 0;              // frames stepped
  std::vector<double> stepMs;  // wall time of each frame's step
  bool watchdogTripped = false;
};

// The JSON text of the report (keys documented in the README).
std::string statsJson(const sim::World& world, const RunInfo& run);
Result<void> writeStats(const std::string& path, const sim::World& world, const RunInfo& run);

}  // namespace drape::io
