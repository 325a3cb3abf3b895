#pragma once
// Output paths: checked before any work starts, and written so that a
// failure never leaves a half-written file in place of a good one.

#include <cstddef>
#include <string>
#include <string_view>

#include "sim/sim.hpp"

namespace drape::io {

// A file path whose folder exists and is writable and that is not itself a
// folder. Leaves nothing behind. A symbolic link is checked where it
// points (and left in place). A pipe must have a reader already, and is held
// open (closing it would end what reads it) until writeFileAtomically writes
// it; a device is not opened.
Result<void> checkWritableFile(const std::string& path, const char* what);

// Whether two paths name the same file or folder: the same file when both
// exist (hard links too), else the same path once links are followed.
bool samePath(const std::string& a, const std::string& b);

// A folder that exists (or can be created) and is writable. Creates it.
Result<void> ensureWritableFolder(const std::string& path, const char* what);

// Whether `path` is a folder with anything in it.
bool folderHasEntries(const std::string& path);

// Write `size` bytes from `data` to `path` through a temporary file beside it, renamed over
// `path` only once every byte is written and flushed: a full disk or a
// vanished folder is an error naming the file, and whatever was at `path`
// before stays as it was. A path that is a device or a pipe is written in
// place, failing at once when nothing reads the pipe; through a symbolic
// link, the file it points to is replaced and the link kept.
Result<void> writeFileAtomically(const std::string& path, const void* data, std::size_t size);
// The same for a text in pieces, written one after the other.
Result<void> writeFileAtomically(const std::string& path, const std::string_view* pieces,
                                 std::size_t count);

// "frame_00042.png": the name of frame `index` of a sequence whose files end
// in `extension` (".png", ".obj").
std::string frameFileName(int index, const char* extension);

}  // namespace drape::io
