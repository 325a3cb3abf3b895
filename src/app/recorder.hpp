#pragma once
// Recording what the window shows, one image per simulated frame: a folder of
// PNG files (frame_00000.png, ...) or an MP4 video through ffmpeg. Recording
// only watches: the simulation advances by its own dt per frame whether or
// not it records (a slow frame writer makes the run slower, never coarser).
//
// Errors stop the recording and are returned for the caller to show; what
// was written until then stays.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/png_writer.hpp"
#include "io/video_writer.hpp"
#include "sim/result.hpp"

namespace drape::app {

enum class RecordFormat { PngSequence, Mp4 };

struct RecordTarget {
  RecordFormat format = RecordFormat::PngSequence;
  std::string path;  // the folder, or the .mp4 file
};

// A path ending in ".mp4" (any case) is a video; anything else a folder.
RecordTarget recordTargetFor(const std::string& path);

// Whether recording into `target` can start, checked before any frame:
// the folder is created if needed and must be writable; a video needs
// ffmpeg on PATH and a writable file. Messages start with `what` (the
// option or the panel's name for it).
Result<void> checkRecordTarget(const RecordTarget& target, const char* what);

class Recorder {
 public:
  // Check the target and get ready; the first frame fixes a video's size.
  // `fps` is the video's frame rate (1 / dt, so it plays in real time).
  Result<void> start(const RecordTarget& target, int fps);
  // Read the framebuffer (`fbWidth` × `fbHeight` pixels) and write it as
  // the next frame. Needs the GL context; on error, recording stops.
  Result<void> capture(int fbWidth, int fbHeight);
  // The same from pixels already in memory (RGB, top row first): what
  // capture() does after reading the framebuffer.
  Result<void> addFrame(int width, int height, const std::uint8_t* rgb);
  // Finish: for a video, wait for ffmpeg to complete the file.
  Result<void> stop();

  bool recording() const { return recording_; }
  int frames() const { return frames_; }
  const RecordTarget& target() const { return target_; }

 private:
  Result<void> failed(const std::string& message);

  RecordTarget target_;
  bool recording_ = false;
  int frames_ = 0;
  int fps_ = 60;
  int videoWidth_ = 0, videoHeight_ = 0;
  std::string ffmpeg_;
  std::vector<std::uint8_t> pixels_;  // reused from frame to frame
  io::PngWriter png_;
  std::unique_ptr<io::VideoWriter> video_;
};

}  // namespace drape::app
