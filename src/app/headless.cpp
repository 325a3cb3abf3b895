#include "app/headless.hpp"

#include <cstdio>

#include "app/outputs.hpp"
#include "sim/stats.hpp"

namespace drape::app {

int runHeadless(Session& session, const Options& options) {
  const int frames = options.frames.value_or(0);
  for (int i = 0; i < frames; ++i) {
    session.step();
    if (!sim::allFinite(session.world())) {
      std::fprintf(stderr, "drape: error: the simulation became non-finite at frame %d\n", i + 1);
      return 1;
    }
  }
  if (auto r = writeOutputs(session, options); !r) {
    std::fprintf(stderr, "drape: error: %s\n", r.error().c_str());
    return 1;
  }
  return 0;
}

}  // namespace drape::app
