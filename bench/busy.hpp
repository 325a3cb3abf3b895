#pragma once
// drape_bench --busy: the hang scene (128² unless --set resolution=N) on a
// machine where other programs take the cores. Two busy processes (each one
// loop that never sleeps) run beside the solver; its step times with the
// default thread count (threads=0: one per core) and with one thread are
// reported beside the same on the idle machine.

#include <string>
#include <vector>

namespace drape::bench {

// Prints one JSON object; returns the exit code.
int printBusy(const std::vector<std::string>& extra, int steps);

}  // namespace drape::bench
