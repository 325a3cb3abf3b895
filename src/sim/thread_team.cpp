#include "sim/thread_team.hpp"

#include <algorithm>
#include <memory>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#if defined(__linux__)
#include <fcntl.h>
#include <unistd.h>
#endif

namespace drape::sim {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::microseconds;
using std::chrono::milliseconds;

// How long a thread spins before it sleeps: at a barrier inside a job
// (covers the imbalance between the shares of one colour), and between jobs
// (a step's serial parts are short, and waking a sleeping thread takes tens
// of microseconds).
constexpr microseconds kBarrierSpin{100};
constexpr microseconds kJobSpin{200};
constexpr microseconds kDoneSpin{100};
// How long the team stays shrunk after a preempted job: kFirstBackoff, or
// twice the last period (at most kLongestBackoff) when the machine was busy
// within the last kRecent.
constexpr milliseconds kFirstBackoff{50};
constexpr milliseconds kLongestBackoff{2000};
constexpr milliseconds kRecent{1000};
// The machine is busy when the team's threads have recently waited for a
// core kBusy of the time they ran (summed over the threads); each job
// weighs kForget less with every job after it.
constexpr double kBusy = 0.15;
constexpr microseconds kShortestJudged{500};
constexpr double kForget = 0.9;
constexpr int kMostThreads = 255;  // the thread count travels in a byte

void relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// The time the calling thread has spent ready to run but waiting for a
// core, in nanoseconds (the kernel's scheduler statistics; 0 where there
// are none).
std::int64_t waitedForCore() {
#if defined(__linux__)
  struct File {
    int fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    ~File() {
      if (fd >= 0) ::close(fd);
    }
  };
  thread_local File file;
  char text[96];
  if (file.fd < 0) return 0;
  const ssize_t n = ::pread(file.fd, text, sizeof text - 1, 0);
  if (n <= 0) return 0;
  text[n] = 0;
  // "<time on a core> <time waiting for one> <time slices>"
  const char* p = text;
  while (*p && *p != ' ') ++p;
  std::int64_t waited = 0;
  for (++p; *p >= '0' && *p <= '9'; ++p) waited = waited * 10 + (*p - '0');
  return waited;
#else
  return 0;
#endif
}

}  // namespace

std::uint32_t WaitWord::waitWhile(std::uint32_t seen, microseconds spin) {
  const Clock::time_point start = Clock::now();
  for (int i = 1;; ++i) {
    const std::uint32_t now = word_.load(std::memory_order_acquire);
    if (now != seen) return now;
    if ((i & 63) == 0 && Clock::now() - start > spin) break;
    relax();
  }
  // Announce the sleep before the last look (sequentially consistent, as is
  // publish's store before its look at the sleepers): either publish sees a
  // sleeper and wakes it, or the last look sees the new value.
  sleepers_.fetch_add(1, std::memory_order_seq_cst);
  {
    std::unique_lock<std::mutex> lock(mutex_);
    woken_.wait(lock, [&] { return word_.load(std::memory_order_seq_cst) != seen; });
  }
  sleepers_.fetch_sub(1, std::memory_order_relaxed);
  return word_.load(std::memory_order_acquire);
}

void WaitWord::publish(std::uint32_t value) {
  word_.store(value, std::memory_order_seq_cst);
  if (sleepers_.load(std::memory_order_seq_cst) == 0) return;
  { std::lock_guard<std::mutex> lock(mutex_); }
  woken_.notify_all();
}

void Barrier::wait() {
  const std::uint32_t gen = generation_.load();
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == count_) {
    arrived_.store(0, std::memory_order_relaxed);
    generation_.publish(gen + 1);
    return;
  }
  generation_.waitWhile(gen, kBarrierSpin);
}

ThreadTeam::ThreadTeam(int capacity)
    : capacity_(std::clamp(capacity, 1, kMostThreads)),
      requested_(capacity_),
      backoff_(kFirstBackoff) {
  for (int i = 1; i < capacity_; ++i) workers_.emplace_back([this, i] { worker(i); });
}

ThreadTeam::~ThreadTeam() {
  stop_.store(true, std::memory_order_relaxed);
  jobs_.publish(jobs_.load() + (1u << 8));
  for (std::thread& t : workers_) t.join();
}

void ThreadTeam::request(int threads) {
  requested_ = std::clamp(threads, 1, capacity_);
  if (busy_ && Clock::now() >= busyUntil_) busy_ = false;
}

void ThreadTeam::runJob(JobRef job) {
  ++jobsRun_;
  const int n = size();
  barrier_.reset(n);  // a job on one thread passes its barriers at once
  if (n == 1) {
    if (busy_ && requested_ > 1) ++shrunkJobs_;
    job(0);
    return;
  }
  job_ = &job;
  pending_.store(n - 1, std::memory_order_relaxed);
  waited_.store(0, std::memory_order_relaxed);
  const std::uint32_t done = done_.load();
  // The job's number above, its thread count in the low byte: a worker
  // reads both at once.
  jobs_.publish(((jobs_.load() >> 8) + 1) << 8 | std::uint32_t(n));
  const Clock::time_point start = Clock::now();
  const std::int64_t before = waitedForCore();
  job(0);
  waited_.fetch_add(waitedForCore() - before, std::memory_order_relaxed);
  for (std::uint32_t seen = done; pending_.load(std::memory_order_acquire) != 0;)
    seen = done_.waitWhile(seen, kDoneSpin);
  judge(waited_.load(std::memory_order_relaxed), Clock::now() - start);
}

void ThreadTeam::judge(std::int64_t waitedNs, Clock::duration wall) {
  // Sums over the recent jobs, each job's weight decaying by kForget per job
  // that follows: one preempted job among steady ones is the kernel's own
  // business; the machine is busy when the team keeps waiting. Short jobs
  // say nothing: waking a sleeping worker alone takes tens of microseconds.
  if (wall < kShortestJudged) return;
  waitedRecently_ = waitedRecently_ * kForget + double(waitedNs);
  ranRecently_ = ranRecently_ * kForget + double(std::chrono::nanoseconds(wall).count()) * size();
  if (waitedRecently_ < kBusy * ranRecently_) return;
  const Clock::time_point now = Clock::now();
  const bool recent = now - busyUntil_ < kRecent;
  backoff_ = recent ? std::min(backoff_ * 2, kLongestBackoff) : kFirstBackoff;
  busy_ = true;
  busyUntil_ = now + backoff_;
  waitedRecently_ = ranRecently_ = 0.0;  // the trial after the wait starts afresh
}

void ThreadTeam::worker(int index) {
  std::uint32_t seen = 0;  // made before the first job
  for (;;) {
    seen = jobs_.waitWhile(seen, kJobSpin);
    if (stop_.load(std::memory_order_relaxed)) return;
    if (index >= int(seen & 0xff)) continue;  // not in this job
    const std::int64_t before = waitedForCore();
    (*job_)(index);
    waited_.fetch_add(waitedForCore() - before, std::memory_order_relaxed);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) done_.publish(done_.load() + 1);
  }
}

int hardwareThreads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : int(std::min<unsigned>(n, kMostThreads));
}

ThreadTeam& threadTeam(int threads) {
  static std::unique_ptr<ThreadTeam> team;
  static std::mutex guard;
  const int want = std::clamp(threads <= 0 ? hardwareThreads() : threads, 1, kMostThreads);
  std::lock_guard<std::mutex> lock(guard);
  if (!team || team->capacity() < want) {
    const int capacity = team ? std::max(team->capacity(), want) : want;
    team.reset();
    team = std::make_unique<ThreadTeam>(capacity);
  }
  team->request(want);
  return *team;
}

}  // namespace drape::sim
