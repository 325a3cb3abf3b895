#include "app/recorder.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>

#include "io/output_path.hpp"
#include "render/capture.hpp"

namespace drape::app {
namespace {

bool endsWithMp4(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".mp4";
}

}  // namespace

RecordTarget recordTargetFor(const std::string& path, bool overwrite) {
  return {endsWithMp4(path) ? RecordFormat::Mp4 : RecordFormat::PngSequence, path, overwrite};
}

Result<void> checkRecordTarget(const RecordTarget& target, const char* what) {
  if (target.format != RecordFormat::Mp4) {
    if (!target.overwrite && io::folderHasEntries(target.path))
      return fail(std::string(what) + " " + target.path + " is not empty; " +
                  (what[0] == '-' ? "add --overwrite" : "tick overwrite") +
                  " to write the frames into it anyway");
    return io::ensureWritableFolder(target.path, what);
  }
  if (io::findProgram("ffmpeg").empty())
    return fail(std::string(what) + ": ffmpeg not found on PATH, needed to write " + target.path +
                "; install ffmpeg, or record PNG frames into a folder instead");
  return io::checkWritableFile(target.path, what);
}

Result<void> Recorder::start(const RecordTarget& target, int fps, const char* what) {
  if (recording_) return fail("already recording into " + target_.path);
  if (auto r = checkRecordTarget(target, what); !r) return r;
  target_ = target;
  fps_ = std::clamp(fps, 1, 1000);
  ffmpeg_ = target.format == RecordFormat::Mp4 ? io::findProgram("ffmpeg") : std::string();
  video_.reset();
  videoWidth_ = videoHeight_ = 0;
  frames_ = 0;
  writeMs_ = 0.0;
  objects_.reset();
  if (target.format == RecordFormat::ObjSequence)
    objects_ = std::make_unique<io::ObjSequenceWriter>(target.path);
  recording_ = true;
  return {};
}

Result<void> Recorder::capture(int fbWidth, int fbHeight, int left) {
  if (!recording_) return {};
  if (!recordsPixels()) return failed("this recording takes meshes, not images");
  left = std::clamp(left, 0, fbWidth);
  fbWidth -= left;
  // A video keeps the size of its first frame; yuv420p wants even sides,
  // so an odd window loses its last column or row.
  int w = fbWidth, h = fbHeight;
  if (target_.format == RecordFormat::Mp4) {
    if (videoWidth_ == 0) {
      videoWidth_ = fbWidth & ~1;
      videoHeight_ = fbHeight & ~1;
    }
    if (fbWidth < videoWidth_ || fbHeight < videoHeight_)
      return failed("the window became smaller than the video's frames (" +
                    std::to_string(videoWidth_) + "x" + std::to_string(videoHeight_) + ")");
    w = videoWidth_;
    h = videoHeight_;
  }
  render::captureFramebuffer(left, w, h, fbHeight, pixels_);
  return addFrame(w, h, pixels_.data());
}

std::string Recorder::nextFramePath(const char* extension) const {
  return (std::filesystem::path(target_.path) / io::frameFileName(frames_, extension)).string();
}

Result<void> Recorder::addMesh(const sim::World& world) {
  if (!recording_) return {};
  if (!objects_) return failed("this recording takes images, not meshes");
  if (auto r = objects_->add(world); !r) return failed(r.error());
  if (auto r = addColliders(world, frames_); !r) return failed(r.error());
  ++frames_;
  return {};
}

Result<void> Recorder::addColliders(const sim::World& world, int index) {
  namespace fs = std::filesystem;
  if (colliderWriters_.size() < world.colliders.size())
    colliderWriters_.resize(world.colliders.size());
  for (std::size_t c = 0; c < world.colliders.size(); ++c) {
    const sim::Collider& col = world.colliders[c];
    if (col.kind != sim::ColliderKind::Mesh || !col.mesh) continue;
    if (!col.sequence && col.motion.isStatic()) continue;  // the scene holds it
    const std::vector<glm::uvec3>* triangles = &col.mesh->triangles;
    if (col.sequence) {
      col.sequence->shapeAt(world.time, colliderShape_);
      colliderPositions_ = colliderShape_.vertices;
      triangles = &colliderShape_.triangles;
    } else {
      const sim::Pose pose = sim::poseAt(col, world.time);
      colliderPositions_.clear();
      for (const glm::vec3& v : col.mesh->vertices) colliderPositions_.push_back(pose.toWorld(v));
    }
    const fs::path folder = fs::path(target_.path) / ("collider_" + std::to_string(c));
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) return fail("cannot create " + folder.string() + ": " + ec.message());
    if (auto r = colliderWriters_[c].format(colliderPositions_, *triangles, {}, colliderText_); !r)
      return r;
    if (auto r =
            io::writeObjText((folder / io::frameFileName(index, ".obj")).string(), colliderText_);
        !r)
      return r;
  }
  return {};
}

double Recorder::msPerFrame() const {
  if (objects_) return objects_->writeMsPerFrame();
  return frames_ > 0 ? writeMs_ / frames_ : 0.0;
}

Result<void> Recorder::addFrame(int width, int height, const std::uint8_t* rgb) {
  if (!recording_) return {};
  if (target_.format == RecordFormat::ObjSequence)
    return failed("this recording takes meshes, not images");
  const auto start = std::chrono::steady_clock::now();
  if (target_.format == RecordFormat::PngSequence) {
    const std::string path = nextFramePath(".png");
    if (auto r = png_.write(path, width, height, rgb); !r) return failed(r.error());
  } else {
    if (!video_) {
      video_ = std::make_unique<io::VideoWriter>();
      if (auto r = video_->open(ffmpeg_, target_.path, width, height, fps_); !r)
        return failed(r.error());
      videoWidth_ = width;
      videoHeight_ = height;
    }
    if (width != videoWidth_ || height != videoHeight_)
      return failed("the frame size changed during the video");
    if (auto r = video_->write(rgb); !r) return failed(r.error());
  }
  writeMs_ +=
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ++frames_;
  return {};
}

Result<void> Recorder::stop() {
  if (!recording_) return {};
  recording_ = false;
  if (objects_) {
    // Every frame handed over is written before stop() returns.
    auto r = objects_->finish();
    frames_ = objects_->written();
    if (!r)
      return fail("recording stopped after " + std::to_string(frames_) + " frames: " + r.error());
    return {};
  }
  if (!video_) return {};
  auto r = video_->close();
  video_.reset();
  return r;
}

Result<void> Recorder::failed(const std::string& message) {
  recording_ = false;
  if (objects_) frames_ = objects_->written();
  if (video_) (void)video_->close();  // keep what was encoded so far
  video_.reset();
  return fail("recording stopped after " + std::to_string(frames_) + " frames: " + message);
}

}  // namespace drape::app
