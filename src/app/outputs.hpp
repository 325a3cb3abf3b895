#pragma once
// The files a run writes at its end (--stats, --export-obj), checked before
// the run starts so that a bad path costs nothing but reading the inputs.

#include "app/cli.hpp"
#include "app/session.hpp"
#include "scene/scene_file.hpp"

namespace drape::app {

// Checked once the inputs are read and before anything is written: no
// output may be another output, an input (the scene file, the OBJ of the
// session) or a recording's frame, and each file must be writable.
Result<void> checkOutputs(const Options& options, const Session& session);
Result<void> writeOutputs(const Session& session, const Options& options);

// Save the scene file of `file` at `path` (written whole or not at all).
Result<void> saveSceneFile(const std::string& path, const scene::SceneFile& file);

}  // namespace drape::app
