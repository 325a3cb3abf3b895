#include "io/video_writer.hpp"

#include <stdlib.h>  // mkstemp
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace drape::io {
namespace {

// One argument for /bin/sh: single quotes, and ' itself as '\''.
std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

std::string findProgram(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path || name.empty()) return {};
  const std::string dirs = path;
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    const std::string candidate = dir + "/" + name;
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    start = end + 1;
  }
  return {};
}

VideoWriter::~VideoWriter() {
  if (pipe_) (void)close();
}

Result<void> VideoWriter::open(const std::string& ffmpeg, const std::string& path, int width,
                               int height, int fps) {
  if (pipe_) return fail("cannot record " + path + ": a video is already being written");
  if (width <= 0 || height <= 0 || width % 2 != 0 || height % 2 != 0)
    return fail("cannot record " + path + ": video frames need even sides, not " +
                std::to_string(width) + "x" + std::to_string(height));
  // ffmpeg's messages go to a file of their own, so that a failure can be
  // reported in one line rather than scattered over the terminal. The file
  // is unlinked at once and kept open (ffmpeg inherits it as its stderr):
  // nothing is left behind however drape ends, a kill included.
  char logName[] = "/tmp/drape-ffmpeg-XXXXXX";
  const int fd = ::mkstemp(logName);
  if (fd < 0) return fail("cannot record " + path + ": no temporary file for ffmpeg's log");
  ::unlink(logName);
  log_ = fd;
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  const std::string command =
      shellQuote(ffmpeg) + " -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgb24 -s " +
      size + " -r " + std::to_string(fps) + " -i - -an -pix_fmt yuv420p -movflags +faststart " +
      shellQuote(path) + " 2>/dev/fd/" + std::to_string(log_);
  std::signal(SIGPIPE, SIG_IGN);
  pipe_ = ::popen(command.c_str(), "w");
  if (!pipe_) {
    closeLog();
    return fail("cannot record " + path + ": cannot start " + ffmpeg);
  }
  path_ = path;
  frameBytes_ = std::size_t(width) * std::size_t(height) * 3;
  return {};
}

Result<void> VideoWriter::write(const std::uint8_t* rgb) {
  if (!pipe_) return fail("cannot record: no video is open");
  if (std::fwrite(rgb, 1, frameBytes_, pipe_) == frameBytes_) return {};
  // ffmpeg closed its end: it failed, and close() says why.
  auto closed = close();
  return fail(closed ? "ffmpeg stopped reading frames for " + path_ : closed.error());
}

Result<void> VideoWriter::close() {
  if (!pipe_) return {};
  const int status = ::pclose(pipe_);
  pipe_ = nullptr;
  const std::string message = lastLogLine();
  closeLog();
  if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  std::string why = "ffmpeg could not write " + path_;
  if (status != -1 && WIFEXITED(status))
    why += " (exit " + std::to_string(WEXITSTATUS(status)) + ")";
  return fail(message.empty() ? why : why + ": " + message);
}

void VideoWriter::closeLog() {
  if (log_ >= 0) ::close(log_);
  log_ = -1;
}

std::string VideoWriter::lastLogLine() const {
  if (log_ < 0) return {};
  // The last non-blank line of the log's (last 64 KB).
  const off_t end = ::lseek(log_, 0, SEEK_END);
  if (end <= 0) return {};
  const off_t from = end > 65536 ? end - 65536 : 0;
  std::string text(std::size_t(end - from), '\0');
  const ssize_t got = ::pread(log_, text.data(), text.size(), from);
  text.resize(got > 0 ? std::size_t(got) : 0);
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

}  // namespace drape::io
