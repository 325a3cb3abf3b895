#pragma once
// An OBJ sequence (frame_00000.obj, frame_00001.obj, ... in one folder).
//
// add() formats the frame's text on the solver's thread team (positions and
// normals; the topology's lines are kept until a tear changes them). Where
// the team leaves a core free, a thread of its own writes the frames, each
// atomically, so that writing overlaps the simulation of the next frame.
// Where the team fills every core, add() writes the frame itself: a writer
// thread would take a core from the team, whose barriers then wait for it.
//
// At most kQueued frames wait: when the writer falls that far behind (a
// slow disk), add() writes the oldest waiting frame itself, so the run
// slows down instead of skipping frames or filling memory; the time it
// spends so is counted. The first failure (disk full, folder gone) stops
// the writer; add() and finish() then return it, and the frames written
// before stay.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "io/obj_writer.hpp"
#include "sim/sim.hpp"

namespace drape::io {

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

  int added() const { return added_; }  // frames handed to add()
  int written() const;                  // frames on disk
  double writeMsPerFrame() const;       // mean time to write a frame
  double formatMsPerFrame() const {     // add()'s mean time to format one
    return added_ > 0 ? formatMs_ / added_ : 0.0;
  }
  double helpedMs() const { return helpedMs_; }  // add()'s total time writing frames

 private:
  struct Frame {
    int index = 0;
    ObjText text;
  };

  void run();
  // Take the oldest waiting frame and write it; `lock` holds mutex_ before
  // and after, and is released while writing.
  void writeOldest(std::unique_lock<std::mutex>& lock);
  Result<void> stopped() const;  // under mutex_

  const std::string folder_;
  ObjWriter formatter_;  // add()'s, keeping the topology's text
  int added_ = 0;
  double formatMs_ = 0.0;
  double helpedMs_ = 0.0;

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
