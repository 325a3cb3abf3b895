#pragma once
// Wall-clock milliseconds for the step's phase timings (StepTimings).

#include <chrono>

namespace drape::sim {

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace drape::sim
