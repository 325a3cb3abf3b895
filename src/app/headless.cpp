#include "app/headless.hpp"

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
  for (int i = 0; i < frames; ++i) {
    const bool stepped = session.step();
    if (session.world().stats.selfCollisionTooDense && !toldTooDense) {
      printWarning(sim::kSelfCollisionTooDense);
      toldTooDense = true;
    }
    if (!stepped) {
      // The watchdog rolled the world back to the last good frame; the
      // outputs are still written from that finite state.
      printError(session.lastError());
      return finishRun(session, options, meshes, 1);
    }
    // A recording that breaks (disk full, folder gone) ends the run: what
    // was written stays, and the outputs are written as for any early end.
    if (meshes.recording())
      if (auto r = meshes.addMesh(session.world()); !r) {
        printError("--record-obj: " + r.error());
        return finishRun(session, options, meshes, 1);
      }
  }
  return finishRun(session, options, meshes, 0);
}

}  // namespace drape::app
