#include "io/obj_sequence.hpp"

#include <chrono>
#include <filesystem>
#include <utility>

#include "io/output_path.hpp"
#include "sim/sim.hpp"

namespace drape::io {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

ObjSequenceWriter::ObjSequenceWriter(std::string folder)
    : folder_(std::move(folder)), thread_([this] { run(); }) {}

ObjSequenceWriter::~ObjSequenceWriter() {
  (void)finish();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

Result<void> ObjSequenceWriter::stopped() const {
  if (error_.empty()) return {};
  return fail(error_);
}

Result<void> ObjSequenceWriter::add(const sim::World& world) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (int(queue_.size()) >= kQueued && error_.empty()) {
    const Clock::time_point start = Clock::now();
    while (int(queue_.size()) >= kQueued && error_.empty()) writeOldest(lock);
    helpedMs_ += msSince(start);
  }
  if (auto r = stopped(); !r) return r;
  Frame frame;
  if (!spare_.empty()) {
    frame = std::move(spare_.back());
    spare_.pop_back();
  }
  lock.unlock();

  frame.index = added_;
  const Clock::time_point start = Clock::now();
  sim::ThreadTeam& team = sim::solverTeam(world);
  auto formatted = formatter_.format(world.state.x, world.cloth.triangles, world.cloth.cornerUVs,
                                     frame.text, &team);
  formatMs_ += msSince(start);
  lock.lock();
  if (!formatted) {
    if (error_.empty())
      error_ = "not writing " +
               (std::filesystem::path(folder_) / frameFileName(frame.index, ".obj")).string() +
               ": " + formatted.error();
    return stopped();
  }
  ++added_;
  queue_.push_back(std::move(frame));
  if (team.size() >= sim::hardwareThreads()) {
    // No core to spare: the writer would take one from the solver's team,
    // whose every barrier then waits for it. Written here, the frame costs
    // its writing and no more.
    const Clock::time_point at = Clock::now();
    while (!queue_.empty() && error_.empty()) writeOldest(lock);
    helpedMs_ += msSince(at);
    return stopped();
  }
  lock.unlock();
  changed_.notify_all();
  return {};
}

Result<void> ObjSequenceWriter::finish() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!queue_.empty() && error_.empty()) writeOldest(lock);
  changed_.wait(lock, [&] { return !error_.empty() || (queue_.empty() && writing_ == 0); });
  return stopped();
}

int ObjSequenceWriter::written() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return written_;
}

double ObjSequenceWriter::writeMsPerFrame() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return written_ > 0 ? writeMs_ / written_ : 0.0;
}

void ObjSequenceWriter::writeOldest(std::unique_lock<std::mutex>& lock) {
  Frame frame = std::move(queue_.front());
  queue_.pop_front();
  ++writing_;
  lock.unlock();

  const Clock::time_point start = Clock::now();
  const std::string path =
      (std::filesystem::path(folder_) / frameFileName(frame.index, ".obj")).string();
  const Result<void> done = writeObjText(path, frame.text);
  const double ms = msSince(start);
  frame.text.topology.reset();  // a torn cloth's old lines go with their last frame

  lock.lock();
  --writing_;
  if (done) {
    ++written_;
    writeMs_ += ms;
    spare_.push_back(std::move(frame));
  } else if (error_.empty()) {
    error_ = done.error();
    queue_.clear();  // nothing after a failed frame is written
  }
  changed_.notify_all();
}

void ObjSequenceWriter::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return closing_ || !queue_.empty(); });
    if (queue_.empty()) return;  // closing, nothing left
    writeOldest(lock);
  }
}

}  // namespace drape::io
