#pragma once
// Recording one file per simulated frame: what the window shows as a folder
// of PNG files (frame_00000.png, ...) or an MP4 video through ffmpeg, or the
// cloth itself as a folder of OBJ files (frame_00000.obj, ...). Recording
// only watches: the simulation advances by its own dt per frame whether or
// not it records (a slow frame writer makes the run slower, never coarser).
//
// Errors stop the recording and are returned for the caller to show; what
// was written until then stays.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/obj_sequence.hpp"
#include "io/png_writer.hpp"
#include "io/video_writer.hpp"
#include "sim/sim.hpp"

namespace drape::app {

enum class RecordFormat { PngSequence, Mp4, ObjSequence };

struct RecordTarget {
  RecordFormat format = RecordFormat::PngSequence;
  std::string path;        // the folder, or the .mp4 file
  bool overwrite = false;  // a folder that already has files may be written into
  // Images: the whole window, panels and overlays included; otherwise the
  // 3D view alone, right of the side panel, as drawn before anything over it.
  bool wholeWindow = false;
};

// A path ending in ".mp4" (any case) is a video; anything else a folder.
RecordTarget recordTargetFor(const std::string& path, bool overwrite = false);
inline RecordTarget objSequenceTarget(const std::string& folder, bool overwrite = false) {
  return {RecordFormat::ObjSequence, folder, overwrite};
}

// Whether recording into `target` can start, checked before any frame:
// the folder is created if needed and must be writable, and empty unless
// `overwrite`; a video needs ffmpeg on PATH and a writable file. Messages
// start with `what` (the option, "--record-obj", or the panel's "record").
Result<void> checkRecordTarget(const RecordTarget& target, const char* what);

class Recorder {
 public:
  // Check the target and get ready; the first frame fixes a video's size.
  // `fps` is the video's frame rate (1 / dt, so it plays in real time).
  // `what` starts the check's messages.
  Result<void> start(const RecordTarget& target, int fps, const char* what = "record");
  // Read the framebuffer (`fbWidth` × `fbHeight` pixels) from column
  // `left` on and write it as the next frame. Needs the GL context; on
  // error, recording stops.
  Result<void> capture(int fbWidth, int fbHeight, int left = 0);
  // The same from pixels already in memory (RGB, top row first): what
  // capture() does after reading the framebuffer.
  Result<void> addFrame(int width, int height, const std::uint8_t* rgb);
  // An OBJ sequence's next frame: the cloth of `world` as it is now.
  Result<void> addMesh(const sim::World& world);
  // The frame just simulated, as the target's format wants it: the
  // framebuffer from column `left` on (needs the GL context) or the cloth.
  Result<void> recordFrame(int fbWidth, int fbHeight, const sim::World& world, int left = 0) {
    return recordsPixels() ? capture(fbWidth, fbHeight, left) : addMesh(world);
  }
  // Finish: for a video, wait for ffmpeg to complete the file.
  Result<void> stop();

  bool recording() const { return recording_; }
  bool recordsPixels() const { return target_.format != RecordFormat::ObjSequence; }
  int frames() const { return frames_; }
  // Mean wall time spent writing one frame, ms (0 before the first); an OBJ
  // sequence's is its writer thread's.
  double msPerFrame() const;
  // Frames handed over but not yet on disk (an OBJ sequence's writer
  // thread runs behind the simulation by this many).
  int framesBehind() const { return objects_ ? objects_->added() - objects_->written() : 0; }
  const RecordTarget& target() const { return target_; }

 private:
  Result<void> failed(const std::string& message);
  std::string nextFramePath(const char* extension) const;

  RecordTarget target_;
  bool recording_ = false;
  int frames_ = 0;
  double writeMs_ = 0.0;
  int fps_ = 60;
  int videoWidth_ = 0, videoHeight_ = 0;
  std::string ffmpeg_;
  std::vector<std::uint8_t> pixels_;  // reused from frame to frame
  io::PngWriter png_;
  std::unique_ptr<io::ObjSequenceWriter> objects_;
  // Each moving or deforming mesh collider's frame, into collider_<index>/
  // beside the cloth's (by collider index), and the surface it is made from.
  Result<void> addColliders(const sim::World& world, int index);
  std::vector<io::ObjWriter> colliderWriters_;
  io::ObjText colliderText_;
  sim::MeshShape colliderShape_;
  std::vector<glm::vec3> colliderPositions_;
  std::unique_ptr<io::VideoWriter> video_;
};

}  // namespace drape::app
