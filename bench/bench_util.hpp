#pragma once
// What drape_bench's modes share: building a workload from a built-in scene
// and summing up a series of step times.

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scene/scenes.hpp"
#include "sim/world.hpp"

namespace drape::bench {

// A built-in scene with `KEY=VALUE` settings on top of its defaults; its
// colliders dropped when `collisions` is false. Exits with a one-line
// error (code 2) on a bad setting.
std::unique_ptr<scene::Scene> buildScene(const char* sceneName,
                                         const std::vector<std::string>& sets, bool collisions);

// The clamped strip of the cantilever and material modes: 1 m × 0.2 m of
// `along` × `across` vertices, horizontal at y = 1 m, its first two columns
// pinned, with `KEY=VALUE` settings and `kBend`. Exits with a one-line
// error (code 2) on a bad setting.
sim::World clampedStrip(int along, int across, float kBend, const std::vector<std::string>& sets);
// The mean height (m) of the strip's free end.
float stripTip(const sim::World& w, int along, int across);

// W1(N)'s settings: the hang scene at resolution N, dt = 1/60 s, 1 sub-step
// of 10 iterations, one stretch sweep, k_stretch 1, k_bend 0.01, PBD with
// dihedral bending, no tethers (its colliders are dropped by the caller).
std::vector<std::string> w1Sets(int n);

// The q-quantile of v (the smallest value with at least q of them at or
// below it); v is not empty.
double percentile(std::vector<double> v, double q);

// {"min", "median", "p95"} of a non-empty series.
nlohmann::json summary(const std::vector<double>& v);

}  // namespace drape::bench
