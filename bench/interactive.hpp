#pragma once
// drape_bench --interactive: the interactive target, a 128² cloth with self
// collision at 60 fps (at most 10 ms of simulation per frame), measured the
// way a user meets it: frame by frame from rest, stage by stage of the motion.
// The target was set on a machine where W1(128) as plain PBD (1 × 10) took
// 4.3 / 2.3 ms a frame on 1 / 2 threads; that yardstick is timed before and
// after the runs, and the target is read in this machine's milliseconds.

#include <string>
#include <vector>

namespace drape::bench {

// Runs the drape and hang scenes at resolution 128 with self collision on
// (`extra` KEY=VALUE settings on top) and prints one JSON object (`runs`,
// `yardstick`); returns the exit code.
int printInteractive(const std::vector<std::string>& extra);

}  // namespace drape::bench
