#include "material.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_util.hpp"
#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "sim/sim.hpp"

namespace drape::bench {
namespace {

struct StripRun {
  float droop = 0.0f;  // m below the clamp, mean over the last second
  float rise = 0.0f;   // m, the most the free end rose above the clamp
  double ms = 0.0;     // median per frame
};

// A 1 m × 0.2 m strip of `along` × `across` vertices, horizontal at y = 1,
// clamped by its first two columns, for `frames` frames.
StripRun runStrip(int along, int across, float kBend, std::vector<std::string> sets, int frames) {
  sets.insert(sets.begin(), "damping=0.1");
  sim::World w = clampedStrip(along, across, kBend, sets);
  StripRun out;
  std::vector<double> ms;
  const int last = std::min(frames, 60);
  for (int f = 0; f < frames; ++f) {
    sim::step(w);
    ms.push_back(w.stats.timings.total);
    const float tip = stripTip(w, along, across);
    out.rise = std::max(out.rise, tip - 1.0f);
    if (f >= frames - last) out.droop += (1.0f - tip) / float(last);
  }
  out.ms = percentile(ms, 0.5);
  return out;
}

// The angle (degrees) of the hang's swing about its pinned edge: the cloth's
// centre of mass seen from the edge, 0 hanging straight down.
double swingAngle(const sim::World& w, const glm::vec3& edge) {
  glm::dvec3 sum(0.0);
  double mass = 0.0;
  for (std::size_t i = 0; i < w.vertexCount(); ++i) {
    sum += double(w.cloth.mass[i]) * glm::dvec3(w.state.x[i]);
    mass += double(w.cloth.mass[i]);
  }
  const glm::dvec3 c = sum / mass - glm::dvec3(edge);
  return std::atan2(c.z, -c.y) * 180.0 / 3.14159265358979;
}

struct Swing {
  double first = 0.0;      // the first swing's amplitude (degrees)
  std::vector<double> at;  // the amplitude over the two seconds before each second
};

Swing runSwing(const std::vector<std::string>& sets, int seconds) {
  auto built = buildScene("hang", sets, true);
  sim::World& w = built->world;
  const glm::vec3 edge = w.state.x[w.pins.front().vertex];
  Swing out;
  const int perSecond = int(std::lround(1.0 / double(w.params.dt)));
  std::vector<double> angles;
  for (int f = 0; f < seconds * perSecond; ++f) {
    sim::step(w);
    angles.push_back(swingAngle(w, edge));
    if ((f + 1) % perSecond != 0) continue;
    // The amplitude: the largest angle over the two seconds before.
    double most = 0.0;
    const std::size_t from =
        angles.size() > std::size_t(2 * perSecond) ? angles.size() - std::size_t(2 * perSecond) : 0;
    for (std::size_t k = from; k < angles.size(); ++k) most = std::max(most, std::abs(angles[k]));
    out.at.push_back(most);
  }
  // The first swing: the largest angle on the far side of the bottom (the
  // cloth starts level on the near side, at +90°).
  for (const double a : angles) out.first = std::max(out.first, -a);
  for (std::size_t k = 0; k < angles.size(); ++k)
    if (angles[k] < 0.0 && k + 1 < angles.size() && angles[k + 1] > angles[k]) {
      out.first = -angles[k];
      break;
    }
  return out;
}

void printStrip(const std::vector<std::string>& extra, int frames) {
  const int meshes[4][2] = {{11, 3}, {21, 5}, {41, 9}, {81, 17}};
  const float kBends[3] = {0.2f, 0.5f, 1.0f};
  std::printf(
      "Strip: 1 m × 0.2 m, clamped by its first two columns, damping 0.1, %d frames; droop of the "
      "free end below the clamp (mean over the last second, m), the most it rose above the "
      "clamp (m), and ms per frame.\n\n",
      frames);
  std::printf(
      "| mesh | k_bend 0.2: droop | rise | ms | k_bend 0.5: droop | rise | ms | k_bend 1: droop | "
      "rise | ms |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& m : meshes) {
    std::printf("| %d × %d |", m[0], m[1]);
    for (const float k : kBends) {
      const StripRun r = runStrip(m[0], m[1], k, extra, frames);
      std::printf(" %.3f | %.3f | %.2f |", double(r.droop), double(r.rise), r.ms);
      std::fflush(stdout);
    }
    std::printf("\n");
  }
}

void printHang(const std::vector<std::string>& extra) {
  std::printf(
      "Hang: the middle of the pinned edge's sag below the pins over the tenth second (m), the "
      "strain at the end, and ms per frame.\n\n| resolution | sag | mean strain %% | p99 %% | ms "
      "|\n"
      "|---|---|---|---|---|\n");
  for (const int n : {32, 64, 128}) {
    std::vector<std::string> sets = extra;
    sets.push_back("resolution=" + std::to_string(n));
    auto built = buildScene("hang", sets, true);
    sim::World& w = built->world;
    // The pinned edge: the vertices between the two pins (the row of the
    // first pin); its middle's sag, mean over the tenth second.
    const std::uint32_t a = w.pins[0].vertex, b = w.pins[1].vertex;
    const std::uint32_t middle = (a + b) / 2;
    std::vector<double> ms;
    double sag = 0.0;
    for (int f = 0; f < 600; ++f) {
      sim::step(w);
      ms.push_back(w.stats.timings.total);
      if (f >= 540) sag += double(w.state.x[a].y - w.state.x[middle].y) / 60.0;
    }
    const sim::StrainStats s = sim::strainStats(w);
    std::printf("| %d | %.4f | %.3f | %.2f | %.2f |\n", n, sag, 100.0 * double(s.mean),
                100.0 * double(s.p99), percentile(ms, 0.5));
    std::fflush(stdout);
  }
}

void printSwing(const std::vector<std::string>& extra) {
  std::printf(
      "Swing: the 32² hang's amplitude about its pinned edge (degrees, the most over the two "
      "seconds before), first swing and at 10 and 20 s.\n\n| settings | first | 10 s | 20 s | "
      "kept at 10 s |\n|---|---|---|---|---|\n");
  const std::vector<std::pair<const char*, std::vector<std::string>>> swings = {
      {"defaults", {"resolution=32"}},
      {"damping 0, no air", {"resolution=32", "damping=0", "drag=0", "lift=0"}}};
  for (const auto& [label, sets0] : swings) {
    std::vector<std::string> sets = sets0;
    sets.insert(sets.end(), extra.begin(), extra.end());
    const Swing s = runSwing(sets, 20);
    std::printf("| %s | %.1f | %.1f | %.1f | %.0f %% |\n", label, s.first, s.at[9], s.at[19],
                100.0 * s.at[9] / s.first);
    std::fflush(stdout);
  }
}

}  // namespace

int printMaterial(const std::vector<std::string>& extra, int frames, const std::string& part) {
  const bool all = part.empty();
  if (!all && part != "strip" && part != "hang" && part != "swing") {
    std::fprintf(stderr, "drape_bench: error: --only takes strip, hang or swing, not '%s'\n",
                 part.c_str());
    return 2;
  }
  if (all || part == "strip") printStrip(extra, frames > 0 ? frames : 900);
  if (all) std::printf("\n");
  if (all || part == "hang") printHang(extra);
  if (all) std::printf("\n");
  if (all || part == "swing") printSwing(extra);
  return 0;
}

}  // namespace drape::bench
