#pragma once
// The files used recently (meshes, scene files), kept across runs in the
// user's configuration folder: $XDG_CONFIG_HOME/drape, or ~/.config/drape
// when XDG_CONFIG_HOME is unset or not absolute (the XDG Base Directory
// convention). One file per list, one path per line, newest first.

#include <string>
#include <vector>

#include "sim/sim.hpp"

namespace drape::app {

// The folder, or "" when neither variable gives one.
std::string configDirectory();

// The list called `name` ("recent_meshes"); empty when there is none yet or
// it cannot be read. Blank lines are skipped.
std::vector<std::string> readRecent(const std::string& name);
// Replace the list (the folder is made when missing; written atomically).
Result<void> writeRecent(const std::string& name, const std::vector<std::string>& paths);

}  // namespace drape::app
