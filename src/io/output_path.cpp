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

}  // namespace drape::io
