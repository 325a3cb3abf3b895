// drape_bench: fixed workloads on the same scenes users see, timed step by
// step, reported as JSON (min, median and p95 ms per step and per phase, and the
// strain the run ended with, so speed is never bought with a stretchier cloth).
//
//   drape_bench [--warmup N] [--steps N] [--same-state] [--only NAME] [--set KEY=VALUE]...
//   drape_bench --table [--frames N] [--resolutions N,N,...] [--set KEY=VALUE]...
//   drape_bench --material [--frames N] [--only strip|hang|swing] [--set KEY=VALUE]...
//   drape_bench --interactive [--set KEY=VALUE]...
//   drape_bench --record-obj [--frames N] [--rounds N] [--set KEY=VALUE]...
//   drape_bench --busy [--steps N] [--set KEY=VALUE]...
//   drape_bench --mesh-collider [--frames N] [--set KEY=VALUE]...
//   drape_bench --crossings [--frames N] [--resolutions N,N,...] [--set KEY=VALUE]...
//   drape_bench --crossings --mesh FILE.obj [--frames N] [--set KEY=VALUE]...
//
// --table: a Markdown table instead of the JSON, for choosing defaults. Each
// way to converge (sub-steps × iterations at the same ten projections per
// frame, coarse levels, tethers, XPBD, the reference kernels) runs W1(N)
// for `frames` frames from rest (default 300: 5 s) and the drape scene at
// resolution N for 2/3 of them, once per thread count, and reports the
// median ms per frame beside the edge strain at the end (mean, 99th
// percentile, max): the price of a setting and how far it converges. A
// cloth that does not converge swings in and out of its stretch, so the
// table also gives the largest mean strain of any frame. A second table
// gives the droop of an XPBD cantilever under each way (cantilever.hpp).
//
// --same-state: every timed step starts from the same warm state (the world
// after the warm-up, copied back before each step), so the steps do the same
// work and their spread is the machine's alone; `min` is then the steadiest
// figure on a machine with load from outside.
//
// W1(N): the hang cloth at resolution N, dt = 1/60 s, 1 substep, 10
// iterations, k_stretch 1, k_bend 0.01, stretch on every edge, dihedral
// bending on every interior edge, no collisions.
//
// --interactive: the drape and hang scenes at 128² with self collision, and
// the hang at its defaults, frame by frame from rest as the app steps them,
// stage by stage of their motion, against the targets of 10 and 5 ms per
// frame read through a yardstick timed beside them (interactive.hpp).
//
// --record-obj: the hang scene at 128² and its defaults, `frames` frames
// (default 300) without recording, writing an OBJ per frame within the
// frame, and handing it to the OBJ sequence writer, `rounds` times in turn
// (default 5; recording.hpp).
//
// --busy: the hang scene at 128² with two busy processes beside it, the
// default thread count against one thread (busy.hpp).
//
// --mesh-collider: the drape scene at 64² on its analytic sphere, on a
// 1,280-triangle mesh sphere and on a 100,000-triangle one, and the time to
// load the latter from an OBJ (mesh_collider.hpp).
//
// --crossings: fold at 32 … 128 and drape with self collision at 64 and 128,
// frame by frame: ms per frame beside the cloth's edge–triangle crossings
// every 20 frames (crossings.hpp); with --mesh, a mesh of one's own dropped
// on the floor instead, with and without self collision.
//
// fold: the fold scene (37² vertices dropped onto the floor, folding onto
// itself) with self collision on; phase_ms.self_collision is the detection.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_util.hpp"
#include "busy.hpp"
#include "cantilever.hpp"
#include "crossings.hpp"
#include "deforming.hpp"
#include "interactive.hpp"
#include "material.hpp"
#include "mesh_collider.hpp"
#include "recording.hpp"
#include "scene/scenes.hpp"
#include "sim/sim.hpp"

using namespace drape;
using bench::percentile;
using bench::summary;
using bench::w1Sets;
using nlohmann::json;

namespace {

struct Workload {
  std::string name;
  const char* scene;
  std::vector<std::string> sets;
  bool collisions;
};

json runWorkload(const Workload& wl, int warmup, int steps, bool sameState) {
  const auto built = bench::buildScene(wl.scene, wl.sets, wl.collisions);
  sim::World& w = built->world;
  for (int i = 0; i < warmup; ++i) sim::step(w);
  // Copied back before each step, outside its timing; the strain reported
  // is then that of the warm state plus one step.
  const sim::World warm = sameState ? w : sim::World{};
  std::vector<double> total, predict, collisions, selfCollision, solve, update;
  for (int i = 0; i < steps; ++i) {
    if (sameState) w = warm;
    sim::step(w);
    total.push_back(w.stats.timings.total);
    predict.push_back(w.stats.timings.predict);
    collisions.push_back(w.stats.timings.collisions);
    selfCollision.push_back(w.stats.timings.selfCollision);
    solve.push_back(w.stats.timings.solve);
    update.push_back(w.stats.timings.update);
  }
  const sim::StrainStats strain = sim::strainStats(w);
  // The ropes' segments, |l − l0| / l0, apart from the cloth's edges.
  double ropeMax = 0.0, ropeSum = 0.0;
  for (const sim::RopeSegment& s : w.cloth.ropeSegments) {
    const double e =
        std::abs(double(glm::length(w.state.x[s.b] - w.state.x[s.a])) / double(s.rest) - 1.0);
    ropeMax = std::max(ropeMax, e);
    ropeSum += e;
  }
  const std::size_t segments = w.cloth.ropeSegments.size();
  const std::optional<std::size_t> crossings = sim::countSelfIntersections(w);
  return {
      {"name", wl.name},
      {"scene", wl.scene},
      {"set", wl.sets},
      {"vertices", w.state.x.size()},
      {"stretch", w.cloth.stretch.size()},
      {"bend", w.cloth.bend.size()},
      {"warmup", warmup},
      {"steps", steps},
      {"same_state", sameState},
      {"step_ms", summary(total)},
      {"phase_ms",
       {{"predict", summary(predict)},
        {"collisions", summary(collisions)},
        {"self_collision", summary(selfCollision)},
        {"solve", summary(solve)},
        {"update", summary(update)}}},
      {"strain", {{"max", strain.max}, {"mean", strain.mean}}},
      {"rope_segments", segments},
      {"rope_strain", {{"max", ropeMax}, {"mean", segments ? ropeSum / double(segments) : 0.0}}},
      {"self_contacts", w.stats.selfContacts},
      {"seam_gap_max", sim::seamGapMax(w)},
      {"crossings", crossings ? json(*crossings) : json()},
      {"finite", sim::allFinite(w)}};
}

// One row of --table: W1(N) or drape(N) with `sets` on top, `frames` frames from rest at
// each thread count. The strains are those of the first run; the others must
// match it bit for bit (the batched solver does not depend on the thread
// count), which the table says when they do not.
struct Row {
  const char* label;
  std::vector<std::string> sets;
  std::vector<int> threads;
};

// The solver settings of W1 are each row's own in the table.
std::vector<std::string> tableBase(const char* scene, int n) {
  std::vector<std::string> sets;
  if (std::string(scene) == "hang")
    for (const std::string& s : w1Sets(n))
      if (s.rfind("substeps=", 0) != 0 && s.rfind("iterations=", 0) != 0 &&
          s.rfind("tethers=", 0) != 0)
        sets.push_back(s);
  if (sets.empty()) sets.push_back("resolution=" + std::to_string(n));
  return sets;
}

std::string runRow(const Row& row, const char* scene, int n, int frames,
                   const std::vector<std::string>& extra) {
  char cell[96];
  std::string line = std::string("| ") + (std::string(scene) == "hang" ? "W1(" : "drape(") +
                     std::to_string(n) + ") | " + row.label + " |";
  sim::StrainStats first;
  float firstWorstMean = 0.0f;
  bool same = true, finite = true;
  for (int threads : {1, 2}) {
    if (std::find(row.threads.begin(), row.threads.end(), threads) == row.threads.end()) {
      line += " |";
      continue;
    }
    Workload wl{"", scene, tableBase(scene, n), std::string(scene) != "hang"};
    wl.sets.insert(wl.sets.end(), row.sets.begin(), row.sets.end());
    wl.sets.insert(wl.sets.end(), extra.begin(), extra.end());
    wl.sets.push_back("threads=" + std::to_string(threads));
    const auto built = bench::buildScene(wl.scene, wl.sets, wl.collisions);
    sim::World& w = built->world;
    std::vector<double> ms;
    float worstMean = 0.0f;
    for (int i = 0; i < frames; ++i) {
      sim::step(w);
      ms.push_back(w.stats.timings.total);
      worstMean = std::max(worstMean, sim::strainStats(w).mean);
    }
    const sim::StrainStats strain = sim::strainStats(w);
    if (threads == row.threads.front()) {
      first = strain;
      firstWorstMean = worstMean;
    } else {
      same = same && strain.max == first.max && strain.mean == first.mean &&
             strain.p99 == first.p99 && worstMean == firstWorstMean;
    }
    finite = finite && sim::allFinite(w);
    std::snprintf(cell, sizeof cell, " %.2f |", percentile(ms, 0.5));
    line += cell;
  }
  std::snprintf(cell, sizeof cell, " %.2f | %.2f | %.0f | %.2f |", 100.0 * double(first.mean),
                100.0 * double(first.p99), 100.0 * double(first.max),
                100.0 * double(firstWorstMean));
  line += cell;
  if (!same) line += " strain differs between thread counts!";
  if (!finite) line += " not finite!";
  return line;
}

// The ways to converge, each at about ten projections of every constraint
// per frame: sub-steps × iterations (small steps, Macklin et al. 2019),
// sweeps of the stretch constraints per iteration, coarse levels
// (hierarchical PBD, Müller 2008), tethers (Kim et al. 2012).
// No sizes: the cantilever's part alone.
// `cantileverFrames`: 0 for the settled 600, fewer for a smoke run.
int printTable(const std::vector<int>& sizes, int frames, const std::vector<std::string>& extra,
               int cantileverFrames) {
  auto cfg = [](int sub, int it, int levels, int tethers, const char* chebyshev = "0",
                int sweeps = 1) {
    return std::vector<std::string>{
        "substeps=" + std::to_string(sub),          "iterations=" + std::to_string(it),
        "stretch_sweeps=" + std::to_string(sweeps), "levels=" + std::to_string(levels),
        "tethers=" + std::to_string(tethers),       std::string("chebyshev=") + chebyshev};
  };
  auto with = [](std::vector<std::string> sets, const char* more) {
    sets.push_back(more);
    return sets;
  };
  auto pbd = [&](int sub, int it, int levels, int tethers, const char* chebyshev = "0",
                 int sweeps = 1) {
    return with(cfg(sub, it, levels, tethers, chebyshev, sweeps), "solver=pbd");
  };
  const std::vector<Row> rows = {
      {"**defaults**: XPBD 8 × 1, 4 stretch sweeps, levels 4",
       with(cfg(8, 1, 4, 0, "0.9", 4), "solver=xpbd"),
       {1, 2}},
      {"XPBD 2 × 4, 3 stretch sweeps, levels 4, Chebyshev ρ 0.9",
       with(cfg(2, 4, 4, 0, "0.9", 3), "solver=xpbd"),
       {1, 2}},
      {"PBD 2 × 4, 3 stretch sweeps, levels 4, Chebyshev ρ 0.9 (earlier default)",
       pbd(2, 4, 4, 0, "0.9", 3),
       {1, 2}},
      {"PBD 2 × 5, levels 4", pbd(2, 5, 4, 0), {1, 2}},
      {"PBD 1 × 10, levels 4", pbd(1, 10, 4, 0), {1, 2}},
      {"PBD 10 × 1, levels 4", pbd(10, 1, 4, 0), {1, 2}},
      {"PBD 1 × 10, tethers", pbd(1, 10, 0, 1), {1, 2}},
      {"1 × 10, plain PBD", pbd(1, 10, 0, 0), {1, 2}},
      {"PBD 10 × 1, small steps alone", pbd(10, 1, 0, 0), {1, 2}},
      {"1 × 10, reference Gauss-Seidel", with(pbd(1, 10, 0, 0), "kernels=reference"), {1}},
  };
  if (!sizes.empty()) {
    std::printf(
        "W1(N): hang, %d frames of 1/60 s from rest; drape(N): %d frames. ms per frame: median "
        "over the frames; strain |l - l0|/l0 over the edges at the end (mean, 99th percentile, "
        "max, in %%), and the largest mean strain of any frame.\n\n",
        frames, frames * 2 / 3);
    std::printf(
        "| workload | sub-steps × iterations | ms, 1 thread | ms, 2 threads | mean %% | p99 %% | "
        "max %% | mean, worst frame %% |\n|---|---|---|---|---|---|---|---|\n");
  }
  for (const char* scene : {"hang", "drape"})
    for (int n : sizes)
      for (const Row& row : rows) {
        // The reference kernels take ~20 ms a step at 64²: skip them above.
        if (row.threads.size() == 1 && n > 64) continue;
        const int f = std::string(scene) == "hang" ? frames : frames * 2 / 3;
        std::printf("%s\n", runRow(row, scene, n, f, extra).c_str());
        std::fflush(stdout);
      }
  std::vector<bench::CantileverRow> strip;
  // The batched solver's budgets, XPBD forced on all (the material's energies).
  for (const Row& row : rows)
    if (row.threads.size() > 1) strip.push_back({row.label, row.sets});
  bench::printCantileverTable(strip, extra, cantileverFrames);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int warmup = 60, steps = 300, frames = 300, rounds = 5;
  bool table = false, cantilever = false, interactive = false, recording = false, busy = false,
       sameState = false, meshCollider = false, crossings = false, material = false,
       deforming = false;
  bool framesGiven = false, sizesGiven = false;
  std::vector<int> sizes = {64, 128};
  std::string only, mesh;
  std::vector<std::string> extra;  // --set KEY=VALUE, applied to every workload
  const char* usage =
      "usage: drape_bench [--warmup N] [--steps N] [--same-state] [--only NAME] [--set "
      "KEY=VALUE]...\n"
      "       drape_bench --table [--frames N] [--resolutions N,N,...] [--set KEY=VALUE]...\n"
      "       drape_bench --cantilever\n"
      "       drape_bench --material [--frames N] [--only strip|hang|swing] [--set KEY=VALUE]...\n"
      "       drape_bench --interactive [--set KEY=VALUE]...\n"
      "       drape_bench --record-obj [--frames N] [--rounds N] [--set KEY=VALUE]...\n"
      "       drape_bench --busy [--steps N] [--set KEY=VALUE]...\n"
      "       drape_bench --mesh-collider [--frames N] [--set KEY=VALUE]...\n"
      "       drape_bench --deforming-collider [--frames N] [--set KEY=VALUE]...\n"
      "       drape_bench --crossings [--frames N] [--resolutions N,N,...] [--set "
      "KEY=VALUE]...\n"
      "       drape_bench --crossings --mesh FILE.obj [--frames N] [--set KEY=VALUE]...\n";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--table") {
      table = true;
    } else if (a == "--cantilever") {
      cantilever = true;
    } else if (a == "--interactive") {
      interactive = true;
    } else if (a == "--record-obj") {
      recording = true;
    } else if (a == "--busy") {
      busy = true;
    } else if (a == "--mesh-collider") {
      meshCollider = true;
    } else if (a == "--deforming-collider") {
      deforming = true;
    } else if (a == "--crossings") {
      crossings = true;
    } else if (a == "--material") {
      material = true;
    } else if (a == "--same-state") {
      sameState = true;
    } else if ((a == "--warmup" || a == "--steps" || a == "--frames" || a == "--rounds" ||
                a == "--only" || a == "--set" || a == "--resolutions" || a == "--mesh") &&
               i + 1 < argc) {
      const std::string v = argv[++i];
      if (a == "--only") {
        only = v;
      } else if (a == "--mesh") {
        mesh = v;
      } else if (a == "--set") {
        extra.push_back(v);
      } else if (a == "--resolutions") {
        sizesGiven = true;
        sizes.clear();
        for (std::size_t at = 0; at < v.size();) {
          const std::size_t comma = std::min(v.find(',', at), v.size());
          const int n = std::atoi(v.substr(at, comma - at).c_str());
          if (n < 2) {
            std::fprintf(stderr, "drape_bench: error: bad resolution list '%s'\n", v.c_str());
            return 2;
          }
          sizes.push_back(n);
          at = comma + 1;
        }
      } else {
        framesGiven = framesGiven || a == "--frames";
        int& target = a == "--warmup"   ? warmup
                      : a == "--steps"  ? steps
                      : a == "--rounds" ? rounds
                                        : frames;
        target = std::max(a == "--warmup" ? 0 : 1, std::atoi(v.c_str()));
      }
    } else {
      std::fprintf(stderr, "%s", usage);
      return a == "--help" ? 0 : 2;
    }
  }
  if (table) return printTable(sizes, frames, extra, framesGiven ? frames : 0);
  if (cantilever) return printTable({}, frames, extra, framesGiven ? frames : 0);
  if (interactive) return bench::printInteractive(extra);
  if (material) return bench::printMaterial(extra, framesGiven ? frames : 0, only);
  if (recording) return bench::printRecording(extra, frames, rounds);
  if (busy) return bench::printBusy(extra, steps);
  if (meshCollider) return bench::printMeshCollider(extra, frames);
  if (deforming) return bench::printDeformingCollider(extra, frames);
  if (crossings && !mesh.empty())
    return bench::printMeshCrossings(mesh, extra, framesGiven ? frames : 0);
  if (crossings)
    return bench::printCrossings(extra, framesGiven ? frames : 0,
                                 sizesGiven ? sizes : std::vector<int>{});
  std::vector<Workload> workloads;
  for (int n : {32, 64, 128})
    workloads.push_back({"W1/" + std::to_string(n), "hang", w1Sets(n), false});
  workloads.push_back({"drape", "drape", {}, true});
  workloads.push_back({"balloon", "balloon", {}, true});
  workloads.push_back({"fold", "fold", {"self_collision=1"}, true});
  workloads.push_back({"rope", "rope", {}, true});
  workloads.push_back({"garment", "garment", {}, true});

  json out = json::array();
  for (Workload& wl : workloads) {
    if (!only.empty() && wl.name != only) continue;
    wl.sets.insert(wl.sets.end(), extra.begin(), extra.end());
    out.push_back(runWorkload(wl, warmup, steps, sameState));
  }
  if (out.empty()) {
    std::fprintf(stderr, "drape_bench: error: no workload named '%s'\n", only.c_str());
    return 2;
  }
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
