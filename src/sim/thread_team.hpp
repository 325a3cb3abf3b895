#pragma once
// A persistent team of threads for the solver (std::thread only). The step
// runs as one parallel region: every thread walks the same iteration and
// colour loop, projects its share of each colour, and meets the others at a
// barrier between colours. Threads spin briefly, then yield. Between jobs a
// worker watches for the next one for a while before it sleeps: the serial
// parts of a step between two jobs are short, and waking a sleeping thread
// takes tens of microseconds. Handing out a job allocates nothing: the team
// keeps a non-owning reference to it.

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <type_traits>
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

// A non-owning reference to a callable void(int), two pointers wide (like
// the proposed std::function_ref): std::function would copy a capture larger
// than its small buffer to the heap on every sub-step. The callable must
// outlive the reference.
class JobRef {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::remove_cv_t<F>, JobRef>>>
  explicit JobRef(F& f)
      : object_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* o, int t) { (*static_cast<F*>(o))(t); }) {}
  void operator()(int t) const { call_(object_, t); }

 private:
  void* object_;
  void (*call_)(void*, int);
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
  template <typename F>
  void run(F&& job) {
    runJob(JobRef(job));
  }
  // The barrier every thread of the team meets inside a job.
  void barrier() { barrier_.wait(); }

 private:
  void runJob(JobRef job);
  void worker(int index);

  const int size_;
  SpinBarrier barrier_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  // runJob's argument, valid while it runs; published by jobId_ (release).
  const JobRef* job_ = nullptr;
  std::atomic<std::uint64_t> jobId_{0};
  std::atomic<int> pending_{0};
  bool stop_ = false;
};

// Call body(chunk, thread) for chunks 0 … chunks − 1 on the team's threads,
// each chunk taken by whichever thread is free next: for work whose cost
// varies along the range. Deterministic when each chunk writes only its own
// output and the outputs are joined in chunk order.
template <typename F>
void forEachChunk(ThreadTeam& team, std::size_t chunks, F&& body) {
  std::atomic<std::size_t> next{0};
  team.run([&](int thread) {
    for (std::size_t c = next++; c < chunks; c = next++) body(c, thread);
  });
}

// The process's team of `threads` threads (0: one per core), made on first
// use and remade when the count changes.
ThreadTeam& threadTeam(int threads);
int hardwareThreads();

}  // namespace drape::sim
