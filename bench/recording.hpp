#pragma once
// drape_bench --record-obj: what recording an OBJ sequence costs per frame,
// on the hang scene at its defaults (128² unless --set resolution=N).

#include <string>
#include <vector>

namespace drape::bench {

// Runs the same frames three times (without recording, writing each frame's
// OBJ in the frame, handing it to the writer thread) and prints one JSON
// object; returns the exit code.
int printRecording(const std::vector<std::string>& extra, int frames);

}  // namespace drape::bench
