#include "recording.hpp"

#include <unistd.h>  // sync

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "bench_util.hpp"
#include "io/obj_sequence.hpp"
#include "io/obj_writer.hpp"
#include "io/output_path.hpp"
#include "sim/sim.hpp"

namespace drape::bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

enum class Mode { None, InFrame, Sequence };

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Wall ms of each frame (step plus whatever recording costs the frame),
// written into `folder`, removed after the run and the file system synced:
// a run's 0.9 GB left in the page cache would have the kernel throttle the
// next run's writes. A run that writes starts 31 s after the last removal:
// ext4 passes over inodes freed in the last 30 s (vm.dirty_expire) when it
// makes a file, and 0.9 GB of frames just deleted made each new file take
// 0.65 ms to create instead of 0.085 ms.
Clock::time_point lastRemoval{};

json run(Mode mode, const std::vector<std::string>& sets, int frames, const fs::path& folder) {
  const auto built = buildScene("hang", sets, true);
  sim::World& w = built->world;
  fs::create_directories(folder);
  if (mode != Mode::None) std::this_thread::sleep_until(lastRemoval + std::chrono::seconds(31));
  std::vector<double> frame, write;
  io::ObjWriter writer;
  double finishMs = 0.0, helpedMs = 0.0, formatMs = 0.0;
  const std::uint64_t shrunkBefore = sim::solverTeam(w).shrunkJobs();
  {
    io::ObjSequenceWriter sequence(folder.string());
    for (int i = 0; i < frames; ++i) {
      const Clock::time_point start = Clock::now();
      sim::step(w);
      if (mode == Mode::InFrame) {
        const Clock::time_point at = Clock::now();
        const std::string path = (folder / io::frameFileName(i, ".obj")).string();
        if (auto r = writer.write(path, w, &sim::solverTeam(w)); !r) {
          std::fprintf(stderr, "drape_bench: error: %s\n", r.error().c_str());
          std::exit(1);
        }
        write.push_back(msSince(at));
      } else if (mode == Mode::Sequence) {
        if (auto r = sequence.add(w); !r) {
          std::fprintf(stderr, "drape_bench: error: %s\n", r.error().c_str());
          std::exit(1);
        }
      }
      frame.push_back(msSince(start));
    }
    const Clock::time_point at = Clock::now();
    (void)sequence.finish();
    finishMs = msSince(at);
    if (mode == Mode::Sequence) {
      write.push_back(sequence.writeMsPerFrame());
      formatMs = sequence.formatMsPerFrame();
    }
    helpedMs = sequence.helpedMs();
  }
  json out = {{"frame_ms", summary(frame)}};
  if (mode != Mode::None) {
    std::size_t bytes = 0;
    for (const auto& e : fs::directory_iterator(folder)) bytes += std::size_t(e.file_size());
    fs::remove_all(folder);
    ::sync();
    lastRemoval = Clock::now();
    out["write_ms"] = mode == Mode::InFrame ? summary(write) : json(write.front());
    out["mb_per_frame"] = double(bytes) / 1e6 / frames;
  }
  if (mode == Mode::Sequence) {
    out["format_ms"] = formatMs;
    out["finish_ms"] = finishMs;
    out["helped_ms"] = helpedMs;
    out["shrunk_jobs"] = sim::solverTeam(w).shrunkJobs() - shrunkBefore;
  }
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

int printRecording(const std::vector<std::string>& extra, int frames, int rounds) {
  std::vector<std::string> sets = {"resolution=128"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  const fs::path root = fs::temp_directory_path() / "drape_bench_record_obj";
  if (fs::remove_all(root) > 0) lastRemoval = Clock::now();
  const char* names[] = {"without_recording", "written_in_the_frame", "sequence_writer"};
  json runs = json::array();
  std::vector<double> medians[3], extraPercent[3];
  // Rounds of the three ways one after the other, so that a host that
  // slows down for a while slows all three alike; each round's extra is
  // against its own run without recording.
  for (int r = 0; r < rounds; ++r) {
    json round;
    for (int m = 0; m < 3; ++m) {
      const fs::path folder = root / ("round" + std::to_string(r) + "_" + names[m]);
      round[names[m]] = run(Mode(m), sets, frames, folder);
      medians[m].push_back(round[names[m]]["frame_ms"]["median"].get<double>());
    }
    for (int m = 1; m < 3; ++m)
      extraPercent[m].push_back(100.0 * (medians[m].back() - medians[0].back()) /
                                medians[0].back());
    runs.push_back(round);
  }
  fs::remove_all(root);
  json out = {{"scene", "hang"}, {"set", sets}, {"frames", frames}, {"rounds", runs}};
  for (int m = 0; m < 3; ++m) out["median_ms"][names[m]] = median(medians[m]);
  for (int m = 1; m < 3; ++m) out["extra_percent"][names[m]] = median(extraPercent[m]);
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace drape::bench
