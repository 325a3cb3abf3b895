// Undo, redo and the timeline: the order things come back in, the memory
// bounds, and that what comes back steps on bit for bit: undo after a cut
// gives the run that never cut, and a kept frame resumed gives the frames
// the run went on to.

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/footprint.hpp"
#include "app/history.hpp"
#include "app/session.hpp"
#include "app/timeline.hpp"

namespace drape::app {
namespace {

Session made(const std::string& scene, const std::vector<std::string>& sets) {
  auto s = Session::create(scene, sets);
  EXPECT_TRUE(s) << s.error();
  return std::move(s.value());
}

void stepFrames(Session& s, int frames) {
  for (int i = 0; i < frames; ++i) ASSERT_TRUE(s.step()) << s.lastError();
}

// Bit for bit, not within a tolerance.
bool samePositions(const sim::World& a, const sim::World& b) {
  return a.state.x.size() == b.state.x.size() &&
         std::memcmp(a.state.x.data(), b.state.x.data(), a.state.x.size() * sizeof(glm::vec3)) == 0;
}

// Cut `count` edges across the middle of the cloth, as the Cut tool does.
void cutAcross(sim::World& w, int count) {
  int cut = 0;
  const glm::vec3 centre = w.state.x[w.state.x.size() / 2];
  for (std::uint32_t e = 0; e < w.cloth.stretch.size() && cut < count; ++e) {
    const sim::StretchConstraint& c = w.cloth.stretch[e];
    if (glm::length(w.state.x[c.a] - centre) > 0.5f) continue;
    sim::tearEdge(w, e);
    ++cut;
  }
}

TEST(History, UndoAndRedoComeBackInOrder) {
  History<int> h(1000);
  EXPECT_FALSE(h.canUndo());
  ASSERT_TRUE(h.push("pin", 1, 10));
  ASSERT_TRUE(h.push("cut", 2, 10));
  // The value now is 3: undo gives back 2 (before the cut), then 1.
  auto u = h.undo(3, 10);
  ASSERT_TRUE(u);
  EXPECT_EQ(u->what, "cut");
  EXPECT_EQ(u->value, 2);
  EXPECT_EQ(h.nextRedo(), "cut");
  u = h.undo(2, 10);
  ASSERT_TRUE(u);
  EXPECT_EQ(u->what, "pin");
  EXPECT_EQ(u->value, 1);
  EXPECT_FALSE(h.undo(1, 10));
  // Redo gives the values back in the other order.
  auto r = h.redo(1, 10);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->what, "pin");
  EXPECT_EQ(r->value, 2);
  r = h.redo(2, 10);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->value, 3);
  EXPECT_FALSE(h.canRedo());
  EXPECT_EQ(h.nextUndo(), "cut");
}

TEST(History, ANewActionDropsWhatCouldBeRedone) {
  History<int> h(1000);
  h.push("cut", 1, 10);
  h.push("pin", 2, 10);
  ASSERT_TRUE(h.undo(3, 10));
  ASSERT_TRUE(h.canRedo());
  h.push("edit k_bend", 2, 10);
  EXPECT_FALSE(h.canRedo());
  EXPECT_EQ(h.bytes(), 20u);
  EXPECT_EQ(h.nextUndo(), "edit k_bend");
}

TEST(History, KeepsWithinItsBudgetDroppingTheOldest) {
  History<int> h(100);
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(h.push("step " + std::to_string(i), i, 30));
    EXPECT_LE(h.bytes(), h.budget());
  }
  EXPECT_EQ(h.undoCount(), 3u);
  EXPECT_EQ(h.undo(10, 30)->value, 9);
  EXPECT_LE(h.bytes(), h.budget());
  EXPECT_EQ(h.undo(9, 30)->value, 8);
  EXPECT_EQ(h.undo(8, 30)->value, 7);
  EXPECT_FALSE(h.canUndo());  // 0 to 6 were dropped
  // One larger than the whole budget is not kept.
  EXPECT_FALSE(h.push("load OBJ", 11, 101));
  EXPECT_FALSE(h.canUndo());
  EXPECT_LE(h.bytes(), h.budget());
}

TEST(History, UndoAfterACutGivesBackTheSceneBitForBit) {
  const std::vector<std::string> sets = {"resolution=16"};
  Session never = made("hang", sets);
  Session s = made("hang", sets);
  stepFrames(never, 10);
  stepFrames(s, 10);
  History<Session> h(std::size_t(64) << 20);
  h.push("cut", s, sessionBytes(s));
  const std::size_t vertices = s.world().vertexCount();
  cutAcross(s.world(), 6);
  ASSERT_GT(s.world().vertexCount(), vertices);  // the cut split vertices
  stepFrames(s, 5);
  // The cut run goes elsewhere: the comparison below can fail.
  Session cut = s;
  stepFrames(cut, 15);
  auto undone = h.undo(std::move(s), 0);
  ASSERT_TRUE(undone);
  EXPECT_EQ(undone->what, "cut");
  s = std::move(undone->value);
  EXPECT_EQ(s.world().frame, 10u);
  stepFrames(s, 20);
  stepFrames(never, 20);
  EXPECT_TRUE(samePositions(s.world(), never.world()));
  EXPECT_FALSE(samePositions(cut.world(), never.world()));
}

TEST(Timeline, AKeptFrameResumedStepsAsTheRunDid) {
  // Self collision and a cut on the way: the named state and the cloth
  // of the frame come back with it.
  Session s = made("fold", {"resolution=14"});
  Timeline t(std::size_t(64) << 20);
  t.keep(s.world(), 1);
  std::vector<sim::World> run;  // the original run, frame by frame
  for (int i = 1; i <= 40; ++i) {
    ASSERT_TRUE(s.step());
    if (i == 12) cutAcross(s.world(), 4);
    t.keep(s.world(), 1);
    run.push_back(s.world());
  }
  ASSERT_EQ(t.size(), 41u);
  EXPECT_NEAR(t.span(), 40.0 * double(s.params().dt), 1e-6);
  for (const std::uint64_t from : {5u, 12u, 25u}) {
    const std::size_t index = t.indexOf(from);
    ASSERT_LT(index, t.size());
    Session resumed = s;
    resumed.restoreWorld(t.world(index));
    EXPECT_EQ(resumed.world().frame, from);
    EXPECT_TRUE(samePositions(resumed.world(), run[from - 1]));
    for (std::uint64_t f = from + 1; f <= 40; ++f) {
      ASSERT_TRUE(resumed.step());
      if (f == 12) cutAcross(resumed.world(), 4);  // as the run did
      ASSERT_TRUE(samePositions(resumed.world(), run[f - 1])) << "from " << from << " at " << f;
    }
  }
  // Resuming from frame 20 drops the later frames as it goes on.
  s.restoreWorld(t.world(t.indexOf(20)));
  ASSERT_TRUE(s.step());
  t.keep(s.world(), 1);
  EXPECT_EQ(t.size(), 22u);
  EXPECT_EQ(t.frameAt(t.size() - 1), 21u);
}

TEST(Timeline, KeepsWithinItsBudgetAndSharesTheCloth) {
  Session s = made("hang", {"resolution=20"});
  const std::size_t frame = worldBytesWithoutCloth(s.world());
  const std::size_t cloth = clothBytes(s.world().cloth);
  // Room for the cloth once and ten frames.
  Timeline t(cloth + 10 * frame + frame / 2);
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(s.step());
    t.keep(s.world(), 7);
    EXPECT_LE(t.bytes(), t.budget());
  }
  EXPECT_EQ(t.size(), 10u);
  EXPECT_EQ(t.frameAt(0), 21u);
  EXPECT_EQ(t.bytes(), cloth + 10 * frame);
  // Another run starts again.
  t.keep(s.world(), 8);
  EXPECT_EQ(t.size(), 1u);
}

TEST(Footprint, CountsTheArraysOfACopy) {
  Session s = made("hang", {"resolution=20"});
  const std::size_t n = s.world().vertexCount();
  EXPECT_GE(worldBytes(s.world()), n * (3 * sizeof(glm::vec3) + sizeof(float)));
  EXPECT_GT(sessionBytes(s), worldBytes(s.world()));
  EXPECT_EQ(worldBytes(s.world()), worldBytesWithoutCloth(s.world()) + clothBytes(s.world().cloth));
}

}  // namespace
}  // namespace drape::app
