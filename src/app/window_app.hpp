#pragma once

#include "app/cli.hpp"
#include "app/session.hpp"

namespace drape::app {

// Open the window and run the interactive frame loop until the user closes it
// (or options.frames frames have run). Returns the process exit code.
int runWindow(Session& session, const Options& options);

}  // namespace drape::app
