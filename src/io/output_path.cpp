#include "io/output_path.hpp"

#include <fcntl.h>
#include <limits.h>  // NAME_MAX, PATH_MAX
#include <stdlib.h>  // mkstemp
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <system_error>

namespace drape::io {
namespace fs = std::filesystem;

namespace {

// The file that writing `path` replaces or creates: an existing file with
// its symbolic links resolved (devices and pipes as they are named: the
// links of /dev/stdout lead to no path); where nothing exists, the path a
// dangling link points to, followed at most 16 links deep.
fs::path followLinks(const fs::path& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::exists(status)) {
    if (!fs::is_regular_file(status)) return path;
    const fs::path real = fs::canonical(path, ec);
    return ec ? path : real;
  }
  fs::path p = path;
  for (int depth = 0; depth < 16 && fs::is_symlink(fs::symlink_status(p, ec)); ++depth) {
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  return p;
}

// The process's umask, read without changing it (umask(2) sets it, which
// would race with threads creating files); 022 where /proc does not say.
mode_t processUmask() {
  static const mode_t mask = [] {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
      if (line.rfind("Umask:", 0) == 0) return mode_t(std::strtoul(line.c_str() + 6, nullptr, 8));
    return mode_t(022);
  }();
  return mask;
}

// A name too long for the file system, found before any work: the
// temporary file's name is short, so any name the folder takes works.
Result<void> checkNameLength(const std::string& path, const char* what) {
  if (path.size() >= PATH_MAX)
    return fail(std::string(what) + ": path longer than " + std::to_string(PATH_MAX - 1) +
                " bytes");
  for (const fs::path& part : fs::path(path))
    if (part.native().size() > NAME_MAX)
      return fail(std::string(what) + ": a name in " + path.substr(0, 40) + "… is longer than " +
                  std::to_string(NAME_MAX) + " bytes");
  return {};
}

// Pipes found to have a reader before the run, held open until their output
// is written: closing one would give its reader an end of file.
std::mutex heldMutex;
std::map<std::string, int>& heldPipes() {
  static std::map<std::string, int> held;
  return held;
}

// Opens a pipe for writing without waiting, then switches it to waiting
// writes; -1 with errno set where that fails (ENXIO: nothing reads it).
int openPipe(const std::string& target) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd >= 0 && ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
    const int error = errno;
    ::close(fd);
    errno = error;
    return -1;
  }
  return fd;
}

// The pipe's held descriptor, or a new one.
int takePipe(const std::string& target) {
  {
    std::lock_guard<std::mutex> lock(heldMutex);
    auto it = heldPipes().find(target);
    if (it != heldPipes().end()) {
      const int fd = it->second;
      heldPipes().erase(it);
      return fd;
    }
  }
  return openPipe(target);
}

}  // namespace

Result<void> checkWritableFile(const std::string& path, const char* what) {
  if (path.empty()) return fail(std::string(what) + ": empty path");
  if (auto length = checkNameLength(path, what); !length) return length;
  std::error_code ec;
  const fs::path p = followLinks(path);
  const fs::file_status status = fs::status(p, ec);
  if (fs::is_directory(status)) return fail(std::string(what) + " " + path + " is a folder");
  fs::path dir = p.parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec))
    return fail(std::string(what) + " " + path + ": folder " + dir.string() + " does not exist");
  // A pipe must have its reader now, and is held open for the output (to
  // close it would end what reads it); a device is written when the output is.
  if (fs::is_fifo(status)) {
    std::lock_guard<std::mutex> lock(heldMutex);
    if (heldPipes().count(p.string())) return {};
    const int fd = openPipe(p.string());
    if (fd < 0 && errno == ENXIO)
      return fail(std::string(what) + " " + path +
                  " is a pipe that nothing reads: start its reader first");
    if (fd < 0)
      return fail(std::string(what) + " " + path + " is not writable: " + std::strerror(errno));
    heldPipes()[p.string()] = fd;
    return {};
  }
  if (fs::exists(status) && !fs::is_regular_file(status)) return {};
  // Try it: permission bits say nothing for root or special file systems.
  // An existing file is opened for appending (left unchanged); where there
  // is none yet, a probe file beside it is made and removed again.
  if (fs::exists(status)) {
    std::FILE* f = std::fopen(p.c_str(), "ab");
    if (!f)
      return fail(std::string(what) + " " + path + " is not writable: " + std::strerror(errno));
    std::fclose(f);
    return {};
  }
  std::string probe = (dir / ".drape-probe-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0)
    return fail(std::string(what) + " " + path + " is not writable: " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
  return {};
}

bool samePath(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
  const fs::path ca = fs::weakly_canonical(fs::absolute(followLinks(a), ec), ec);
  const fs::path cb = fs::weakly_canonical(fs::absolute(followLinks(b), ec), ec);
  return ca == cb;
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
  const std::string_view whole(static_cast<const char*>(data), size);
  return writeFileAtomically(path, &whole, 1);
}

Result<void> writeFileAtomically(const std::string& path, const std::string_view* pieces,
                                 std::size_t count) {
  // A device or a pipe is written in place: there is no file to keep, and
  // renaming over it would replace the device. It is opened without
  // waiting (a pipe that nothing reads fails at once), then written
  // waiting. Through a symbolic link, its target is replaced and the link
  // stays.
  const std::string target = followLinks(path).string();
  std::error_code ec;
  const fs::file_status status = fs::status(target, ec);
  const bool inPlace = fs::exists(status) && !fs::is_regular_file(status);
  // Anything else goes through a temporary file of its own, made
  // exclusively in the target's folder: concurrent writers never share one,
  // a planted link or a file of the user's is never opened, and its short
  // name fits wherever the target's does. It takes the mode the target has,
  // or a new file's.
  std::string temporary = inPlace ? target : std::string();
  std::FILE* f = nullptr;
  if (inPlace) {
    const int fd = fs::is_fifo(status) ? takePipe(target) : openPipe(target);
    if (fd >= 0) f = ::fdopen(fd, "wb");
    if (fd < 0 && errno == ENXIO)
      return fail("cannot write " + path + ": a pipe that nothing reads");
    if (!f && fd >= 0) ::close(fd);
  } else {
    fs::path dir = fs::path(target).parent_path();
    if (dir.empty()) dir = ".";
    temporary = (dir / ".drape-XXXXXX").string();
    const int fd = ::mkstemp(temporary.data());
    if (fd >= 0) {
      struct stat existing {};
      const mode_t mode = ::stat(target.c_str(), &existing) == 0 ? existing.st_mode & 07777
                                                                 : 0666 & ~processUmask();
      ::fchmod(fd, mode);
      f = ::fdopen(fd, "wb");
      if (!f) {
        ::close(fd);
        ::unlink(temporary.c_str());
      }
    }
  }
  if (!f) return fail("cannot write " + path + ": " + std::strerror(errno));
  bool written = true;
  for (std::size_t i = 0; i < count && written; ++i)
    written = std::fwrite(pieces[i].data(), 1, pieces[i].size(), f) == pieces[i].size();
  written = written && std::fflush(f) == 0;
  int error = errno;
  const bool closed = std::fclose(f) == 0;
  if (!closed && written) error = errno;
  if (!written || !closed) {
    if (!inPlace) std::remove(temporary.c_str());
    return fail("cannot write " + path + ": " + std::strerror(error));
  }
  if (inPlace) return {};
  if (std::rename(temporary.c_str(), target.c_str()) != 0) {
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
