#include "app/headless.hpp"

#include <cstdio>

#include "app/outputs.hpp"

namespace drape::app {

int runHeadless(Session& session, const Options& options) {
  const int frames = options.frames.value_or(0);
  for (int i = 0; i < frames; ++i) {
    if (!session.step()) {
      // The watchdog rolled the world back to the last good frame; the
      // outputs are still written from that finite state.
      std::fprintf(stderr, "drape: error: %s\n", session.lastError().c_str());
      if (auto r = writeOutputs(session, options); !r)
        std::fprintf(stderr, "drape: error: %s\n", r.error().c_str());
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
