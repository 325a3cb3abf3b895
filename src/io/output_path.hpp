#pragma once
// Checks that an output path can be written, before any work starts.

#include <string>

#include "sim/result.hpp"

namespace drape::io {

// A file path whose folder exists and is writable and that is not itself a
// folder. Leaves nothing behind.
Result<void> checkWritableFile(const std::string& path, const char* what);

// A folder that exists (or can be created) and is writable. Creates it.
Result<void> ensureWritableFolder(const std::string& path, const char* what);

}  // namespace drape::io
