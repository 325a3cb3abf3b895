#pragma once
// Reading an OBJ sequence back (what --record-obj writes, or any exporter's
// frame_00000.obj, frame_00001.obj, ... in one folder) as the frames of a
// deforming mesh collider.

#include <string>
#include <vector>

#include "sim/sim.hpp"

namespace drape::io {

struct ObjSequenceFrames {
  std::string folder;
  std::vector<sim::TriMesh> frames;  // in order, one topology
};

// The frames of the sequence in `path`: a folder, or any frame file in it.
// Fails in one line for a folder with no frames, a gap in the numbering
// (naming the first missing file), a frame that cannot be read or has no
// faces, or one whose vertex or triangle count differs from the first
// frame's (naming it). Every frame takes the first frame's triangles.
Result<ObjSequenceFrames> readObjSequence(const std::string& path);

// Whether `path` names an OBJ sequence: a folder, or a file named like a
// frame (frame_00000.obj).
bool looksLikeObjSequence(const std::string& path);

}  // namespace drape::io
