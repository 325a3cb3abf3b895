#pragma once
// The files a run writes at its end (--stats, --export-obj), checked before
// the run starts so that a bad path costs nothing.

#include "app/cli.hpp"
#include "app/session.hpp"
#include "scene/scene_file.hpp"

namespace drape::app {

Result<void> checkOutputs(const Options& options);
Result<void> writeOutputs(const Session& session, const Options& options);

// Save the scene file of `file` at `path` (written whole or not at all).
Result<void> saveSceneFile(const std::string& path, const scene::SceneFile& file);

}  // namespace drape::app
