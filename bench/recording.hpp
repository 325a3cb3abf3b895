#pragma once
// drape_bench --record-obj: what recording an OBJ sequence costs per frame,
// on the hang scene at its defaults (128² unless --set resolution=N).

#include <string>
#include <vector>

namespace drape::bench {

// Runs the same frames three ways (without recording, writing each frame's
// OBJ in the frame, handing it to io::ObjSequenceWriter), `rounds`
// times in turn, and prints one JSON object: every run, the median of each
// way's median frame, and the median over the rounds of each way's extra
// time; returns the exit code. Each run that writes waits until 31 s after
// the last one's files were removed: five rounds take about six minutes.
int printRecording(const std::vector<std::string>& extra, int frames, int rounds);

}  // namespace drape::bench
