// The solver's thread team: barriers that order memory whether the threads
// spin or sleep, jobs on the number of threads asked for, one shared team
// for every count, and a team that steps back to one thread while the
// machine's cores are taken by others.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <cstring>

#include "scene_helpers.hpp"
#include "sim/step/step.hpp"
#include "sim/thread_team.hpp"
#include "sim/world.hpp"

using namespace drape;

namespace {

TEST(ThreadTeam, BarrierOrdersWritesWhetherTheThreadsSpinOrSleep) {
  sim::ThreadTeam team(2);
  std::vector<int> slot(2, -1);
  int mismatches = 0;
  team.run([&](int t) {
    for (int round = 0; round < 40; ++round) {
      // Every fourth round one thread arrives late, long after the other
      // has stopped spinning and gone to sleep.
      if (round % 4 == 0 && t == round / 4 % 2)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      slot[std::size_t(t)] = round;
      team.barrier();
      if (slot[std::size_t(1 - t)] != round && t == 0) ++mismatches;
      team.barrier();
    }
  });
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(slot[0], 39);
  EXPECT_EQ(slot[1], 39);
}

TEST(ThreadTeam, JobsRunOnTheThreadsAskedFor) {
  sim::ThreadTeam team(4);
  for (int asked : {2, 4, 1, 3, 9}) {
    team.request(asked);
    // All asked for (at most the capacity), or one thread where the team
    // found the machine busy (four threads may be more than it has cores).
    const int size = team.size();
    ASSERT_TRUE(size == std::min(asked, 4) || size == 1) << asked << ": " << size;
    std::vector<std::atomic<int>> ran(4);
    team.run([&](int t) {
      ran[std::size_t(t)].fetch_add(1);
      team.barrier();  // the barrier counts only this job's threads
    });
    for (int t = 0; t < 4; ++t) EXPECT_EQ(ran[std::size_t(t)].load(), t < size ? 1 : 0) << asked;
  }
}

TEST(ThreadTeam, OneSharedTeamServesEveryCount) {
  // Side by side, two worlds ask for different counts every frame: the team
  // grows to the largest and is never rebuilt for a smaller one.
  sim::ThreadTeam& big = sim::threadTeam(3);
  sim::ThreadTeam& small = sim::threadTeam(1);
  EXPECT_EQ(&big, &small);
  EXPECT_GE(small.capacity(), 3);
  EXPECT_EQ(small.size(), 1);
  EXPECT_EQ(&sim::threadTeam(2), &big);
}

bool kernelCountsWaitsForACore() {
  return std::ifstream("/proc/thread-self/schedstat").good();
}

TEST(ThreadTeam, StepsBackToOneThreadWhileOthersTakeTheCores) {
  if (!kernelCountsWaitsForACore()) GTEST_SKIP() << "no scheduler statistics per thread";
  // More busy threads than cores: the team's threads wait for a core at
  // every barrier, and the team runs its jobs on the caller alone instead.
  std::atomic<bool> stop{false};
  std::vector<std::thread> busy;
  for (int i = 0; i < sim::hardwareThreads() + 2; ++i)
    busy.emplace_back([&] {
      volatile unsigned spin = 0;
      while (!stop.load(std::memory_order_relaxed)) spin = spin + 1;
    });
  sim::ThreadTeam team(2);
  constexpr int kWork = 400000;  // milliseconds per job: long enough to judge
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  long sum = 0;
  while (team.shrunkJobs() == 0 && std::chrono::steady_clock::now() < until) {
    team.request(2);
    std::vector<long> part(2, 0);
    const int n = team.size();
    team.run([&](int t) {
      for (int colour = 0; colour < 20; ++colour) {
        for (int i = t; i < kWork; i += n) part[std::size_t(t)] += i % 7;
        team.barrier();
      }
    });
    sum = part[0] + part[1];
  }
  stop.store(true);
  for (std::thread& t : busy) t.join();
  EXPECT_GT(team.shrunkJobs(), 0u);
  long expected = 0;
  for (int i = 0; i < kWork; ++i) expected += 20 * (i % 7);
  EXPECT_EQ(sum, expected);  // on two threads or one, the same work
}

}  // namespace

TEST(ThreadTeam, AWorldHandedATeamStepsOnItWithTheSameResult) {
  // Box2D's enqueueTask in spirit: a caller with its own threads hands them
  // to the solver. The step runs its jobs there, and the result is the one
  // on the process's team (bit for bit).
  sim::ThreadTeam own(2);
  sim::World handed =
      test_support::buildScene("drape", {"resolution=64", "self_collision=1", "threads=2"});
  sim::World shared = handed;
  sim::setSolverTeam(handed, &own);
  const std::uint64_t before = sim::threadTeam(2).jobs();
  for (int f = 0; f < 40; ++f) sim::step(handed);
  EXPECT_GT(own.jobs(), 40u);
  EXPECT_EQ(sim::threadTeam(2).jobs(), before);  // none ran on the process's team
  for (int f = 0; f < 40; ++f) sim::step(shared);
  ASSERT_EQ(handed.state.x.size(), shared.state.x.size());
  EXPECT_EQ(0, std::memcmp(handed.state.x.data(), shared.state.x.data(),
                           handed.state.x.size() * sizeof(glm::vec3)));
  sim::setSolverTeam(handed, nullptr);
  sim::step(handed);
  EXPECT_GT(sim::threadTeam(2).jobs(), before);
}
