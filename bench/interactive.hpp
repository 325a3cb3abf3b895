#pragma once
// drape_bench --interactive: the interactive targets, a 128² cloth with self
// collision at 60 fps (at most 10 ms of simulation per frame) and the 128²
// hanging cloth at its defaults in 5 ms, measured the way a user meets them:
// frame by frame from rest, stage by stage of the motion. The targets were
// set on a machine where W1(128) as plain PBD (1 × 10) took 4.3 / 2.3 ms a
// frame on 1 / 2 threads; that yardstick is stepped between each run's
// blocks of frames, and the targets are read in this machine's milliseconds.

#include <string>
#include <vector>

namespace drape::bench {

// Runs the drape and hang scenes at resolution 128 with self collision on,
// and the hang at its defaults (`extra` KEY=VALUE settings on top of all
// three), and prints one JSON object (`runs`, `yardstick`); returns the exit
// code.
int printInteractive(const std::vector<std::string>& extra);

}  // namespace drape::bench
