#pragma once
// A persistent team of threads for the solver (std::thread only). The step
// runs as one parallel region: every thread walks the same iteration and
// colour loop, projects its share of each colour, and meets the others at a
// barrier between colours. Threads spin briefly, then yield.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace drape::sim {

class SpinBarrier {
 public:
  explicit SpinBarrier(int count) : count_(count) {}
  void wait();

 private:
  const int count_;
  std::atomic<int> arrived_{0};
  std::atomic<std::uint32_t> generation_{0};
};

class ThreadTeam {
 public:
  explicit ThreadTeam(int threads);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int size() const { return size_; }
  // Run job(thread index) on every thread of the team (the caller is thread
  // 0) and return when all are done.
  void run(const std::function<void(int)>& job);
  // The barrier every thread of the team meets inside a job.
  void barrier() { barrier_.wait(); }

 private:
  void worker(int index);

  const int size_;
  SpinBarrier barrier_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  const std::function<void(int)>* job_ = nullptr;
  std::uint64_t jobId_ = 0;
  std::atomic<int> pending_{0};
  bool stop_ = false;
};

// The process's team of `threads` threads (0: one per core), made on first
// use and remade when the count changes.
ThreadTeam& threadTeam(int threads);
int hardwareThreads();

}  // namespace drape::sim
