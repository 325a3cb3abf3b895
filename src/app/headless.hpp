#pragma once

#include "app/cli.hpp"
#include "app/session.hpp"

namespace drape::app {

// Simulate options.frames frames with no window or GL context, then write
// the outputs. Returns the process exit code.
int runHeadless(Session& session, const Options& options);

}  // namespace drape::app
