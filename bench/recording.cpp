#include "recording.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "bench_util.hpp"
#include "io/obj_sequence.hpp"
#include "io/obj_writer.hpp"
#include "io/output_path.hpp"
#include "sim/solver.hpp"
#include "sim/thread_team.hpp"

namespace drape::bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

enum class Mode { None, InFrame, Thread };

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Wall ms of each frame (step plus whatever recording costs the frame).
json run(Mode mode, const std::vector<std::string>& sets, int frames, const fs::path& folder) {
  const auto built = buildScene("hang", sets, true);
  sim::World& w = built->world;
  fs::remove_all(folder);
  fs::create_directories(folder);
  std::vector<double> frame, write;
  io::ObjWriter writer;
  double finishMs = 0.0, helpedMs = 0.0;
  const std::uint64_t shrunkBefore = sim::threadTeam(w.params.threads).shrunkJobs();
  std::size_t bytes = 0;
  {
    io::ObjSequenceWriter sequence(folder.string());
    for (int i = 0; i < frames; ++i) {
      const Clock::time_point start = Clock::now();
      sim::step(w);
      if (mode == Mode::InFrame) {
        const Clock::time_point at = Clock::now();
        const std::string path = (folder / io::frameFileName(i, ".obj")).string();
        if (auto r = writer.write(path, w); !r) {
          std::fprintf(stderr, "drape_bench: error: %s\n", r.error().c_str());
          std::exit(1);
        }
        write.push_back(msSince(at));
      } else if (mode == Mode::Thread) {
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
    if (mode == Mode::Thread) write.push_back(sequence.writeMsPerFrame());
    helpedMs = sequence.helpedMs();
  }
  for (const auto& e : fs::directory_iterator(folder)) bytes += std::size_t(e.file_size());
  json out = {{"frame_ms", summary(frame)}};
  if (mode != Mode::None) {
    out["write_ms"] = mode == Mode::InFrame ? summary(write) : json(write.front());
    out["mb_per_frame"] = double(bytes) / 1e6 / frames;
  }
  if (mode == Mode::Thread) {
    out["finish_ms"] = finishMs;
    out["helped_ms"] = helpedMs;
    out["shrunk_jobs"] = sim::threadTeam(w.params.threads).shrunkJobs() - shrunkBefore;
  }
  return out;
}

}  // namespace

int printRecording(const std::vector<std::string>& extra, int frames) {
  std::vector<std::string> sets = {"resolution=128"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  const fs::path folder = fs::temp_directory_path() / "drape_bench_record_obj";
  json none = run(Mode::None, sets, frames, folder);
  json inFrame = run(Mode::InFrame, sets, frames, folder);
  json thread = run(Mode::Thread, sets, frames, folder);
  fs::remove_all(folder);
  const double base = none["frame_ms"]["median"].get<double>();
  auto extraPercent = [&](const json& j) {
    return 100.0 * (j["frame_ms"]["median"].get<double>() - base) / base;
  };
  json out = {
      {"scene", "hang"},
      {"set", sets},
      {"frames", frames},
      {"without_recording", none},
      {"written_in_the_frame", inFrame},
      {"writer_thread", thread},
      {"extra_percent",
       {{"written_in_the_frame", extraPercent(inFrame)}, {"writer_thread", extraPercent(thread)}}}};
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace drape::bench
