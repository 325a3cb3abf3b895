#pragma once
// An OBJ sequence (frame_00000.obj, frame_00001.obj, ... in one folder)
// written on a thread of its own, so that formatting and writing a frame
// overlap the simulation of the next.
//
// add() copies what it needs (the positions; the triangles and UVs only when
// a tear changed them) and returns; the thread writes the frames, each
// atomically. At most kQueued frames wait: when the writer falls that far
// behind (no core to spare, a slow disk), add() writes the oldest waiting
// frame itself, so the run slows down instead of skipping frames or
// filling memory; the time it spends so is counted. The
// first failure (disk full, folder gone) stops the writer; add() and
// finish() then return it, and the frames written before stay.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <glm/glm.hpp>

#include "sim/result.hpp"
#include "sim/world.hpp"

namespace drape::io {

class ObjWriter;

class ObjSequenceWriter {
 public:
  static constexpr int kQueued = 3;

  // Frames go into `folder`, which must exist (checked by the caller).
  explicit ObjSequenceWriter(std::string folder);
  ~ObjSequenceWriter();  // finishes the queued frames
  ObjSequenceWriter(const ObjSequenceWriter&) = delete;
  ObjSequenceWriter& operator=(const ObjSequenceWriter&) = delete;

  // Queue the cloth of `world` as the next frame (writing the oldest one
  // first when kQueued wait). Fails with the error that stopped the
  // writer, if an earlier frame could not be written.
  Result<void> add(const sim::World& world);
  // Write every queued frame (helping the thread); the first error, if any.
  Result<void> finish();

  int added() const { return added_; }           // frames handed to add()
  int written() const;                           // frames on disk
  double writeMsPerFrame() const;                // mean time to write a frame
  double helpedMs() const { return helpedMs_; }  // add()'s total time writing frames

 private:
  struct Topology {
    std::vector<glm::uvec3> triangles;
    std::vector<glm::vec2> cornerUVs;
  };
  struct Frame {
    int index = 0;
    std::vector<glm::vec3> positions;
    std::shared_ptr<const Topology> topology;
  };

  void run();
  // Take the oldest waiting frame and write it with `writer`; `lock` holds
  // mutex_ before and after, and is released while writing.
  void writeOldest(std::unique_lock<std::mutex>& lock, ObjWriter& writer);
  Result<void> stopped() const;  // under mutex_

  const std::string folder_;
  std::shared_ptr<const Topology> topology_;  // the last one handed over
  int added_ = 0;
  double helpedMs_ = 0.0;
  std::unique_ptr<ObjWriter> callerWriter_;  // add()'s and finish()'s

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Frame> queue_;   // waiting to be written
  std::vector<Frame> spare_;  // written, kept for their storage
  int writing_ = 0;           // frames being written
  bool closing_ = false;
  std::string error_;  // the first failure
  int written_ = 0;
  double writeMs_ = 0.0;
  std::thread thread_;
};

}  // namespace drape::io
