#include "app/headless.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "app/messages.hpp"
#include "app/outputs.hpp"
#include "app/recorder.hpp"
#include "sim/sim.hpp"

namespace drape::app {

namespace {

// Ends a run early or at its end: the recording finished (every frame
// handed over is on disk), then the outputs written from the state as it is.
int finishRun(const Session& session, const Options& options, Recorder& meshes, int code) {
  if (auto r = meshes.stop(); !r) {
    printError("--record-obj: " + r.error());
    code = 1;
  }
  if (auto r = writeOutputs(session, options); !r) {
    printError(r.error());
    code = 1;
  }
  return code;
}

// Progress of a slow run on stderr, and nothing while frames are fast. On a
// terminal, one line rewritten in place every half second once the run has
// taken 2 s; elsewhere (a log), a line every 10 s while a frame has taken a
// second or more and 10 s or more are left, so quick runs print nothing.
class Progress {
 public:
  explicit Progress(int frames) : frames_(frames), terminal_(::isatty(STDERR_FILENO) != 0) {}
  void afterFrame(int done) {
    const Clock::time_point now = Clock::now();
    const double elapsed = seconds(start_, now), frame = seconds(lastFrame_, now);
    lastFrame_ = now;
    slowest_ = std::max(slowest_, frame);
    const double perFrame = elapsed / done, left = perFrame * (frames_ - done);
    const bool due = terminal_ ? elapsed >= 2.0 && seconds(lastLine_, now) >= 0.5
                               : slowest_ >= 1.0 && left >= 10.0 && seconds(lastLine_, now) >= 10.0;
    if (!due || done >= frames_) return;
    lastLine_ = now;
    std::fprintf(stderr, "%sdrape: frame %d of %d, %.2f s a frame, about %.0f s left%s",
                 terminal_ ? "\r" : "", done, frames_, perFrame, left, terminal_ ? "   " : "\n");
    shown_ = true;
  }
  // Ends the line a terminal's progress left open.
  void finish() {
    if (terminal_ && shown_) std::fputc('\n', stderr);
  }

 private:
  using Clock = std::chrono::steady_clock;
  static double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  }
  int frames_;
  bool terminal_;
  bool shown_ = false;
  double slowest_ = 0.0;
  Clock::time_point start_ = Clock::now(), lastFrame_ = start_, lastLine_ = start_;
};

}  // namespace

int runHeadless(Session& session, const Options& options) {
  const int frames = options.frames.value_or(0);
  Recorder meshes;
  if (!options.recordObjPath.empty())
    if (auto r = meshes.start(objSequenceTarget(options.recordObjPath, options.overwrite), 0,
                              "--record-obj");
        !r) {
      printError(r.error());
      return 2;
    }
  bool toldTooDense = false;
  Progress progress(frames);
  for (int i = 0; i < frames; ++i) {
    const bool stepped = session.step();
    progress.afterFrame(i + 1);
    if (session.world().stats.selfCollisionTooDense && !toldTooDense) {
      printWarning(sim::kSelfCollisionTooDense);
      toldTooDense = true;
    }
    if (!stepped) {
      progress.finish();
      // The watchdog rolled the world back to the last good frame; the
      // outputs are still written from that finite state.
      printError(session.lastError());
      return finishRun(session, options, meshes, 1);
    }
    // A recording that breaks (disk full, folder gone) ends the run: what
    // was written stays, and the outputs are written as for any early end.
    if (meshes.recording())
      if (auto r = meshes.addMesh(session.world()); !r) {
        progress.finish();
        printError("--record-obj: " + r.error());
        return finishRun(session, options, meshes, 1);
      }
  }
  progress.finish();
  return finishRun(session, options, meshes, 0);
}

}  // namespace drape::app
