#pragma once
// drape_bench --interactive: the interactive target, a 128² cloth with self
// collision at 60 fps (at most 10 ms of simulation per frame), measured the
// way a user meets it: frame by frame from rest, stage by stage of the motion.

#include <string>
#include <vector>

namespace drape::bench {

// Runs the drape and hang scenes at resolution 128 with self collision on
// (`extra` KEY=VALUE settings on top) and prints one JSON array; returns the
// exit code.
int printInteractive(const std::vector<std::string>& extra);

}  // namespace drape::bench
