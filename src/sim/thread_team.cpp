#include "sim/thread_team.hpp"

#include <chrono>
#include <memory>

namespace drape::sim {

void SpinBarrier::wait() {
  const std::uint32_t gen = generation_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == count_) {
    arrived_.store(0, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_acq_rel);
    return;
  }
  for (int spin = 0; generation_.load(std::memory_order_acquire) == gen; ++spin)
    if (spin > 2000) std::this_thread::yield();
}

ThreadTeam::ThreadTeam(int threads) : size_(threads < 1 ? 1 : threads), barrier_(size_) {
  for (int i = 1; i < size_; ++i) workers_.emplace_back([this, i] { worker(i); });
}

ThreadTeam::~ThreadTeam() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadTeam::runJob(JobRef job) {
  if (size_ == 1) {
    job(0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    pending_.store(size_ - 1, std::memory_order_relaxed);
    jobId_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  job(0);
  for (int spin = 0; pending_.load(std::memory_order_acquire) != 0; ++spin)
    if (spin > 2000) std::this_thread::yield();
}

void ThreadTeam::worker(int index) {
  using Clock = std::chrono::steady_clock;
  constexpr auto kWatch = std::chrono::microseconds(200);
  std::uint64_t seen = 0;
  for (;;) {
    // Watch for the next job (a step's serial parts between two are short),
    // then sleep until one comes.
    const Clock::time_point until = Clock::now() + kWatch;
    std::uint64_t id = jobId_.load(std::memory_order_acquire);
    for (int spin = 0; id == seen; ++spin) {
      if ((spin & 63) == 63 && Clock::now() > until) break;
      if (spin > 2000) std::this_thread::yield();
      id = jobId_.load(std::memory_order_acquire);
    }
    const JobRef* job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || jobId_.load(std::memory_order_acquire) != seen; });
      if (stop_) return;
      seen = jobId_.load(std::memory_order_acquire);
      job = job_;
    }
    (*job)(index);
    pending_.fetch_sub(1, std::memory_order_acq_rel);
  }
}

int hardwareThreads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : int(n);
}

ThreadTeam& threadTeam(int threads) {
  static std::unique_ptr<ThreadTeam> team;
  static std::mutex guard;
  const int want = threads <= 0 ? hardwareThreads() : threads;
  std::lock_guard<std::mutex> lock(guard);
  if (!team || team->size() != want) {
    team.reset();
    team = std::make_unique<ThreadTeam>(want);
  }
  return *team;
}

}  // namespace drape::sim
