#include "cantilever.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "bench_util.hpp"
#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "sim/sim.hpp"

namespace drape::bench {
namespace {

constexpr int kAlong = 41, kAcross = 9;      // vertices along the strip and across it
constexpr int kFrames = 600, kSettled = 60;  // frames run, and the last ones averaged (at most)

struct Droop {
  float metres = 0.0f;
  double ms = 0.0;  // median per frame
};

Droop runStrip(float kBend, const std::vector<std::string>& sets, int frames) {
  sim::World w = clampedStrip(kAlong, kAcross, kBend, sets);
  std::vector<double> ms;
  double droop = 0.0;
  const int settled = std::min(frames, kSettled);
  for (int f = 0; f < frames; ++f) {
    sim::step(w);
    ms.push_back(w.stats.timings.total);
    if (f < frames - settled) continue;
    droop += 1.0 - double(stripTip(w, kAlong, kAcross));
  }
  return {float(droop / settled), percentile(ms, 0.5)};
}

}  // namespace

void printCantileverTable(const std::vector<CantileverRow>& rows,
                          const std::vector<std::string>& extra, int frames) {
  if (frames <= 0) frames = kFrames;
  auto with = [&](std::vector<std::string> sets) {
    sets.insert(sets.end(), {"solver=xpbd", "damping=0.1"});  // over a row's own solver
    sets.insert(sets.end(), extra.begin(), extra.end());
    return sets;
  };
  const std::vector<std::string> reference =
      with({"substeps=100", "iterations=10", "stretch_sweeps=1", "levels=0", "chebyshev=0"});
  const float kBends[2] = {0.2f, 0.5f};
  Droop converged[2];
  for (int k = 0; k < 2; ++k) converged[k] = runStrip(kBends[k], reference, frames);
  std::printf(
      "\nCantilever (XPBD; damping 0.1): a 1 m × 0.2 m strip clamped at "
      "one end, settled droop "
      "of the free end (mean over frames %d to %d) in m, and off the converged droop (100 × 10) "
      "by %%.\n\n",
      frames - std::min(frames, kSettled) + 1, frames);
  std::printf(
      "| sub-steps × iterations | ms per frame | droop, k_bend 0.2 | off by | droop, k_bend 0.5 | "
      "off by |\n|---|---|---|---|---|---|\n");
  std::printf("| 100 × 10, converged | %.2f | %.3f | | %.3f | |\n", converged[0].ms,
              double(converged[0].metres), double(converged[1].metres));
  for (const CantileverRow& row : rows) {
    std::printf("| %s |", row.label);
    for (int k = 0; k < 2; ++k) {
      const Droop d = runStrip(kBends[k], with(row.sets), frames);
      if (k == 0) std::printf(" %.2f |", d.ms);
      std::printf(" %.3f | %+.0f %% |", double(d.metres),
                  100.0 * double(d.metres - converged[k].metres) / double(converged[k].metres));
    }
    std::printf("\n");
    std::fflush(stdout);
  }
}

}  // namespace drape::bench
