#pragma once
// A persistent team of threads for the solver (std::thread only). The step
// runs as one parallel region: every thread walks the same iteration and
// colour loop, projects its share of each colour, and meets the others at a
// barrier between colours. Handing out a job allocates nothing: the team
// keeps a non-owning reference to it.
//
// Waiting spins briefly, then sleeps. Spinning alone is fast on an idle
// machine and ruinous on a busy one: a thread that spins for a partner the
// scheduler has put aside holds the core that partner needs, and every
// barrier then costs a time slice. A sleeping waiter gives its core back
// (to the partner, to the renderer, to a writer thread).
//
// The team also shrinks when the machine is busy: when its threads keep
// waiting for a core (the kernel's scheduler statistics for each thread,
// summed over the recent jobs), the jobs that follow run on the calling
// thread alone for a while (kFirstBackoff, doubled after each busy trial up
// to kLongestBackoff), then the whole team is tried again. The thread count
// never changes a result (every caller's partition gives the same answer on
// any count), so shrinking shows only in time.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace drape::sim {

// A 32-bit counter that threads wait to see change: spin for `spin`, then
// sleep until publish() stores another value. publish() makes a system
// call only when someone sleeps.
class WaitWord {
 public:
  std::uint32_t load() const { return word_.load(std::memory_order_acquire); }
  // Wait until the word is no longer `seen`; the new value.
  std::uint32_t waitWhile(std::uint32_t seen, std::chrono::microseconds spin);
  void publish(std::uint32_t value);

 private:
  std::atomic<std::uint32_t> word_{0};
  std::atomic<int> sleepers_{0};
  std::mutex mutex_;
  std::condition_variable woken_;
};

class Barrier {
 public:
  void reset(int count) { count_ = count; }  // between jobs only
  void wait();

 private:
  int count_ = 1;
  std::atomic<int> arrived_{0};
  WaitWord generation_;
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
  // `capacity` threads at most (the caller included).
  explicit ThreadTeam(int capacity);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int capacity() const { return capacity_; }
  // Ask for `threads` (at most capacity()) in the jobs that follow.
  void request(int threads);
  // The threads the next job runs on: the request, or 1 while the machine
  // is busy.
  int size() const { return busy_ ? 1 : requested_; }
  // Run job(thread index) on size() threads (the caller is thread 0) and
  // return when all are done.
  template <typename F>
  void run(F&& job) {
    runJob(JobRef(job));
  }
  // The barrier every thread of a job meets inside it.
  void barrier() { barrier_.wait(); }

  // Jobs run, and those run with the team shrunk, since it was made (for
  // tests and stats).
  std::uint64_t jobs() const { return jobsRun_; }
  std::uint64_t shrunkJobs() const { return shrunkJobs_; }

 private:
  using Clock = std::chrono::steady_clock;
  void runJob(JobRef job);
  void worker(int index);
  void judge(std::int64_t waitedNs, Clock::duration wall);

  const int capacity_;
  int requested_;
  Barrier barrier_;
  std::vector<std::thread> workers_;
  // The job being run, valid while runJob runs; published by jobs_.
  const JobRef* job_ = nullptr;
  int jobThreads_ = 1;
  WaitWord jobs_;  // the job's number and thread count (stop: a number more)
  std::atomic<bool> stop_{false};
  std::atomic<int> pending_{0};
  WaitWord done_;                        // counts jobs; the last worker publishes
  std::atomic<std::int64_t> waited_{0};  // ns the job's threads waited for a core
  bool busy_ = false;                    // shrunk to the caller
  Clock::time_point busyUntil_{};        // when to try the whole team again
  std::chrono::milliseconds backoff_;    // the next busy period
  double waitedRecently_ = 0.0;          // ns waited for a core, decayed per job
  double ranRecently_ = 0.0;             // ns of thread time, decayed alike
  std::uint64_t jobsRun_ = 0;
  std::uint64_t shrunkJobs_ = 0;
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

// The process's team, asked for `threads` threads (0: one per core). It is
// made on first use and remade only to grow, so that worlds asking for
// different counts (side by side) share it without starting threads.
ThreadTeam& threadTeam(int threads);
int hardwareThreads();

}  // namespace drape::sim
