// A warm step allocates nothing: the solver keeps its buffers in
// step context and hands jobs to its thread team by reference. This file
// replaces the global operator new and delete with counting ones, which is
// why it is an executable of its own (drape_alloc_tests): the replacement
// is program-wide. Every form is replaced, all on malloc and free, so a
// sanitizer build sees matching pairs.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "scene_helpers.hpp"
#include "sim/stats.hpp"
#include "sim/step/step.hpp"
#include "sim/thread_team.hpp"

using namespace drape;

namespace {

std::atomic<bool> counting{false};
std::atomic<long> allocations{0};

void* allocate(std::size_t size, std::size_t align = 0) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1);
  if (size == 0) size = 1;
  void* p = nullptr;
  if (align > alignof(std::max_align_t)) {
    if (posix_memalign(&p, align, size) != 0) p = nullptr;
  } else {
    p = std::malloc(size);
  }
  return p;
}

void* allocateOrThrow(std::size_t size, std::size_t align = 0) {
  void* p = allocate(size, align);
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace

void* operator new(std::size_t n) {
  return allocateOrThrow(n);
}
void* operator new[](std::size_t n) {
  return allocateOrThrow(n);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return allocate(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return allocate(n);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return allocateOrThrow(n, std::size_t(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return allocateOrThrow(n, std::size_t(a));
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, std::size_t(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, std::size_t(a));
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  std::free(p);
}

namespace {

// Allocations made by `frames` steps of a world that has already stepped
// (its buffers grown, its colourings and thread team made).
long allocationsOfWarmSteps(const std::vector<std::string>& sets, int frames) {
  sim::World w = drape::test_support::buildScene("hang", sets);
  for (int i = 0; i < 3; ++i) sim::step(w);
  allocations.store(0);
  counting.store(true);
  for (int i = 0; i < frames; ++i) sim::step(w);
  counting.store(false);
  EXPECT_TRUE(sim::allFinite(w));
  return allocations.load();
}

}  // namespace

TEST(NoAllocation, TheCounterSeesAllocations) {
  // The replacement is in effect (a test that cannot fail is a defect).
  allocations.store(0);
  counting.store(true);
  auto* v = new std::vector<int>(100);
  counting.store(false);
  delete v;
  EXPECT_GE(allocations.load(), 2);
}

TEST(NoAllocation, WarmStepOfW1_32WithTwoThreads) {
  EXPECT_EQ(allocationsOfWarmSteps({"resolution=32", "threads=2", "tethers=0", "k_bend=0.01"}, 5),
            0);
}

TEST(NoAllocation, WarmStepThatSplitsColoursAcrossTheTeam) {
  // W1(32) is below the size at which the solver uses a second thread; at 64
  // the team really splits each colour between two threads.
  EXPECT_EQ(allocationsOfWarmSteps({"resolution=64", "threads=2", "tethers=0"}, 3), 0);
}

TEST(NoAllocation, TeamRunsAJobWithALargeCaptureWithoutAllocating) {
  // More captured than std::function's small buffer holds.
  sim::ThreadTeam team(2);
  std::atomic<int> ran{0};
  double a = 1, b = 2, c = 3, d = 4;
  auto job = [&, a, b, c, d](int t) {
    if (a + b + c + d == 10.0) ran.fetch_add(t + 1);
    team.barrier();
  };
  // Every thread of a job adds its number + 1 (times `scale`): on two
  // threads 3 (30), on one where the team found the machine busy 1 (10).
  auto sum = [&](int scale) { return scale * (team.size() == 2 ? 3 : 1); };
  int expected = sum(1);
  team.run(job);  // warm: the workers have started
  allocations.store(0);
  counting.store(true);
  expected += sum(1);
  team.run(job);
  expected += sum(10);
  team.run([&](int t) { ran.fetch_add(10 * (t + 1)); });
  counting.store(false);
  EXPECT_EQ(allocations.load(), 0);
  EXPECT_EQ(ran.load(), expected);  // every thread of each job ran it
}

TEST(NoAllocation, WarmStepWithTethersXpbdAndSubsteps) {
  EXPECT_EQ(allocationsOfWarmSteps({"resolution=32", "threads=2", "solver=xpbd", "substeps=3"}, 3),
            0);
}
