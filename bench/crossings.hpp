#pragma once
// drape_bench --crossings: the self-collision workloads of the contact
// targets, frame by frame from rest: fold at 32, 48, 64, 96 and 128 (400
// frames unless --frames), and drape with self collision at 64 and 128 (200
// frames unless --frames). For each: median and p95 ms per frame, the
// edge–triangle crossings of the cloth (countSelfIntersections) every 20
// frames and at the end, the first frame with any, the most at any sampled
// frame, their mean and most over every frame of the last quarter, and the
// strain it ends with.
// drape_bench --crossings --mesh FILE.obj: the same for a mesh of one's own
// (a flag from another simulator, say), made a cloth as `drape --mesh` makes
// it (no pins, a floor below) and dropped, with self collision and without.

#include <string>
#include <vector>

namespace drape::bench {

// Prints one JSON array (a line per workload as it finishes); returns the
// exit code. `sizes` replaces the fold resolutions when not empty.
int printCrossings(const std::vector<std::string>& extra, int frames,
                   const std::vector<int>& sizes);
// The mesh at `path` (200 frames unless `frames`): a row with self
// collision and one without.
int printMeshCrossings(const std::string& path, const std::vector<std::string>& extra, int frames);

}  // namespace drape::bench
