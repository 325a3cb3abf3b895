#pragma once
// Video out through an ffmpeg child process: raw RGB frames are piped to its
// standard input and it encodes them (H.264 in MP4 where its build has it,
// its default for the file's extension otherwise). Nothing of ffmpeg is
// linked; only the program has to be installed.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "sim/sim.hpp"

namespace drape::io {

// The path of an executable file `name` in a folder of $PATH; "" when none.
std::string findProgram(const std::string& name);

class VideoWriter {
 public:
  VideoWriter() = default;
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;
  ~VideoWriter();  // closes, ignoring the outcome

  // Start `ffmpeg` (a path) encoding `width` × `height` frames at `fps` per
  // second into `path` (overwritten). yuv420p, what players expect, needs
  // even sides. While a writer is open, SIGPIPE is ignored in the whole
  // process: a dead ffmpeg then shows as a failed write, not a killed app.
  Result<void> open(const std::string& ffmpeg, const std::string& path, int width, int height,
                    int fps);
  // One frame: width × height pixels, tightly packed RGB, top row first.
  // An error (ffmpeg stopped: full disk, bad path) closes the writer.
  Result<void> write(const std::uint8_t* rgb);
  // Finish the file: wait for ffmpeg and fail unless it succeeded.
  Result<void> close();
  bool isOpen() const { return pipe_ != nullptr; }

 private:
  // ffmpeg's last message line (from its log file), for error messages.
  std::string lastLogLine() const;
  void closeLog();

  std::FILE* pipe_ = nullptr;
  std::string path_;
  int log_ = -1;  // ffmpeg's log: an unlinked temporary file
  std::size_t frameBytes_ = 0;
};

}  // namespace drape::io
