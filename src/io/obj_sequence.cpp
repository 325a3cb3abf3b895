#include "io/obj_sequence.hpp"

#include <chrono>
#include <filesystem>
#include <utility>

#include "io/obj_writer.hpp"
#include "io/output_path.hpp"

namespace drape::io {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

ObjSequenceWriter::ObjSequenceWriter(std::string folder)
    : folder_(std::move(folder)),
      callerWriter_(std::make_unique<ObjWriter>()),
      thread_([this] { run(); }) {}

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
  const sim::Cloth& cloth = world.cloth;
  if (!topology_ || topology_->triangles != cloth.triangles ||
      topology_->cornerUVs != cloth.cornerUVs)
    topology_ = std::make_shared<const Topology>(Topology{cloth.triangles, cloth.cornerUVs});

  std::unique_lock<std::mutex> lock(mutex_);
  if (int(queue_.size()) >= kQueued && error_.empty()) {
    const Clock::time_point start = Clock::now();
    while (int(queue_.size()) >= kQueued && error_.empty()) writeOldest(lock, *callerWriter_);
    helpedMs_ += msSince(start);
  }
  if (auto r = stopped(); !r) return r;
  Frame frame;
  if (!spare_.empty()) {
    frame = std::move(spare_.back());
    spare_.pop_back();
  }
  frame.index = added_++;
  frame.positions.assign(world.state.x.begin(), world.state.x.end());
  frame.topology = topology_;
  queue_.push_back(std::move(frame));
  lock.unlock();
  changed_.notify_all();
  return {};
}

Result<void> ObjSequenceWriter::finish() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!queue_.empty() && error_.empty()) writeOldest(lock, *callerWriter_);
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

void ObjSequenceWriter::writeOldest(std::unique_lock<std::mutex>& lock, ObjWriter& writer) {
  Frame frame = std::move(queue_.front());
  queue_.pop_front();
  ++writing_;
  lock.unlock();

  const Clock::time_point start = Clock::now();
  const std::string path =
      (std::filesystem::path(folder_) / frameFileName(frame.index, ".obj")).string();
  Result<void> done = [&]() -> Result<void> {
    auto text =
        writer.format(frame.positions, frame.topology->triangles, frame.topology->cornerUVs);
    if (!text) return fail("not writing " + path + ": " + text.error());
    return writeFileAtomically(path, text.value().pieces.data(), text.value().pieces.size());
  }();
  const double ms = msSince(start);
  frame.topology.reset();

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
  ObjWriter writer;  // keeps the text of the topology from frame to frame
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return closing_ || !queue_.empty(); });
    if (queue_.empty()) return;  // closing, nothing left
    writeOldest(lock, writer);
  }
}

}  // namespace drape::io
