#include "io/output_path.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <filesystem>
#include <system_error>

namespace drape::io {
namespace fs = std::filesystem;

Result<void> checkWritableFile(const std::string& path, const char* what) {
  if (path.empty()) return fail(std::string(what) + ": empty path");
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) return fail(std::string(what) + " " + path + " is a folder");
  fs::path dir = p.parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec))
    return fail(std::string(what) + " " + path + ": folder " + dir.string() + " does not exist");
  // Try it: permission bits say nothing for root or special file systems.
  // An existing file is opened for appending (left unchanged); a probe file
  // that did not exist is removed again.
  const bool existed = fs::exists(p, ec);
  std::FILE* f = std::fopen(path.c_str(), "ab");
  if (!f) return fail(std::string(what) + " " + path + " is not writable: " + std::strerror(errno));
  std::fclose(f);
  if (!existed) fs::remove(p, ec);
  return {};
}

Result<void> ensureWritableFolder(const std::string& path, const char* what) {
  if (path.empty()) return fail(std::string(what) + ": empty path");
  std::error_code ec;
  const fs::path p(path);
  if (fs::exists(p, ec) && !fs::is_directory(p, ec))
    return fail(std::string(what) + " " + path + " exists and is not a folder");
  if (!fs::exists(p, ec)) {
    fs::create_directories(p, ec);
    if (ec) return fail(std::string(what) + " " + path + ": cannot create folder: " + ec.message());
  }
  if (::access(p.c_str(), W_OK) != 0)
    return fail(std::string(what) + " " + path + " is not writable");
  return {};
}

bool folderHasEntries(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec) && !fs::is_empty(path, ec);
}

Result<void> writeFileAtomically(const std::string& path, const void* data, std::size_t size) {
  // A device or a pipe is written in place: there is no file to keep, and
  // renaming over it would replace the device.
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  const bool inPlace = fs::exists(status) && !fs::is_regular_file(status);
  const std::string temporary = inPlace ? path : path + ".part";
  std::FILE* f = std::fopen(temporary.c_str(), "wb");
  if (!f) return fail("cannot write " + path + ": " + std::strerror(errno));
  const bool written = std::fwrite(data, 1, size, f) == size && std::fflush(f) == 0;
  int error = errno;
  const bool closed = std::fclose(f) == 0;
  if (!closed && written) error = errno;
  if (!written || !closed) {
    if (!inPlace) std::remove(temporary.c_str());
    return fail("cannot write " + path + ": " + std::strerror(error));
  }
  if (inPlace) return {};
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    error = errno;
    std::remove(temporary.c_str());
    return fail("cannot write " + path + ": " + std::strerror(error));
  }
  return {};
}

std::string frameFileName(int index, const char* extension) {
  char name[48];
  std::snprintf(name, sizeof name, "frame_%05d%s", index, extension);
  return name;
}

}  // namespace drape::io
