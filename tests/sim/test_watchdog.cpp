// The watchdog catches an exploding step, rolls back and names a cause.

#include <gtest/gtest.h>

#include <cmath>

#include "scene/scenes.hpp"
#include "scene/shapes.hpp"
#include "sim/stats.hpp"
#include "sim/step/context.hpp"
#include "sim/step/step.hpp"
#include "sim/tearing.hpp"
#include "sim/watchdog.hpp"

using namespace drape;

namespace {

sim::World hang() {
  sim::Params params;
  params.resolution = 12;
  return std::move(scene::findScene("hang")->build(params)->world);
}

// `frames` steps, each of which the watchdog must pass.
void expectCalm(sim::World& w, int frames) {
  sim::Watchdog dog;
  dog.reset(w);
  for (int i = 0; i < frames; ++i) {
    sim::step(w);
    const sim::WatchdogVerdict v = dog.afterStep(w);
    ASSERT_TRUE(v.ok) << "frame " << i << ": " << v.message;
  }
}

}  // namespace

TEST(Watchdog, PassesAHealthyRun) {
  sim::World w = hang();
  expectCalm(w, 60);
  EXPECT_EQ(w.frame, 60u);
}

TEST(Watchdog, RollsBackANonFiniteStep) {
  sim::World w = hang();
  sim::Watchdog dog;
  dog.reset(w);
  for (int i = 0; i < 10; ++i) {
    sim::step(w);
    ASSERT_TRUE(dog.afterStep(w).ok);
  }
  const std::vector<glm::vec3> good = w.state.x;
  w.state.v[5] = glm::vec3(std::nanf(""));  // poison
  sim::step(w);
  const sim::WatchdogVerdict v = dog.afterStep(w);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("non-finite"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("rolled back to frame 10"), std::string::npos) << v.message;
  EXPECT_TRUE(sim::allFinite(w));
  EXPECT_EQ(w.state.x, good);
  EXPECT_EQ(w.frame, 10u);
}

TEST(Watchdog, CatchesRunawaySpeedAndNamesTheTimeStep) {
  // Unpinned: pins and their tethers would absorb the kick.
  sim::Params params;
  params.resolution = 12;
  sim::World w = std::move(scene::findScene("drape")->build(params)->world);
  w.params.dt = 0.2f;
  sim::Watchdog dog;
  dog.reset(w);
  // A kick far beyond the scene's scale (the whole cloth: constraints alone
  // would absorb a kick to one vertex).
  for (glm::vec3& v : w.state.v) v = glm::vec3(1e5f, 0.0f, 0.0f);
  sim::step(w);
  const sim::WatchdogVerdict v = dog.afterStep(w);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("m/s"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("dt"), std::string::npos) << v.message;
  EXPECT_EQ(w.state.v[7], glm::vec3(0.0f));
}

TEST(Watchdog, RollsBackTearingToo) {
  sim::World w = hang();
  sim::Watchdog dog;
  dog.reset(w);
  sim::step(w);
  ASSERT_TRUE(dog.afterStep(w).ok);
  const std::size_t vertices = w.state.x.size(), triangles = w.cloth.triangles.size();
  const std::size_t stretch = w.cloth.stretch.size();
  const std::uint64_t version = w.cloth.topologyVersion;
  ASSERT_NE(w.context.get(), nullptr);
  ASSERT_GT(w.context.get()->packedStretch.size(), 0u);
  // What a bad step that also tore leaves behind: a split and a NaN.
  const sim::TearResult torn = sim::tearEdge(w, std::uint32_t(w.cloth.stretch.size() / 2));
  ASSERT_TRUE(torn.split);
  ASSERT_GT(w.tornEdges, 0u);
  ASSERT_GT(w.state.x.size(), vertices);
  w.state.x[torn.duplicate] = glm::vec3(std::nanf(""));
  EXPECT_FALSE(dog.afterStep(w).ok);
  EXPECT_EQ(w.tornEdges, 0u);
  EXPECT_EQ(w.state.x.size(), vertices);
  EXPECT_EQ(w.cloth.triangles.size(), triangles);
  EXPECT_EQ(w.cloth.stretch.size(), stretch);
  EXPECT_EQ(w.cloth.topologyVersion, version);
  EXPECT_TRUE(sim::allFinite(w));
  // Nothing the solver derived from the failed step is kept: a version
  // number of the torn topology comes again with the next tear.
  EXPECT_EQ(w.context.get(), nullptr);
  // And the solver runs on the restored topology.
  sim::step(w);
  EXPECT_TRUE(dog.afterStep(w).ok);
}

TEST(Watchdog, AFreeFallIsNoExplosion) {
  // Neither pins nor colliders: the cloth falls for a minute, kilometres
  // from where it started and faster than any fixed bound of the scene's
  // size would allow.
  sim::World w = hang();
  sim::unpinAll(w);
  w.colliders.clear();
  w.params.drag = w.params.lift = 0.0f;  // no air: a free fall
  expectCalm(w, 3600);
  // Kilometres down (float positions there no longer resolve what gravity
  // adds to a sub-step's move, so the fall stops gaining speed: a fixed
  // bound near 5 km would now be a false alarm).
  EXPECT_LT(sim::bounds(w).max.y, -5000.0f);
}

TEST(Watchdog, AMovingPinIsNoExplosion) {
  // A half-metre cloth hanging from a pin carried at 3 m/s for 25,000
  // frames: 1.25 km away, calm (a thousand scene sizes, 1 km, was once the
  // limit).
  auto built = scene::worldFromMesh(scene::makeGrid(3, 0.5f, glm::vec3(0.0f)), sim::Params{});
  ASSERT_TRUE(built) << built.error();
  sim::World& w = built.value();
  ASSERT_LT(glm::length(sim::bounds(w).max - sim::bounds(w).min), 1.0f);
  sim::Motion carry;
  carry.velocity = glm::vec3(3.0f, 0.0f, 0.0f);
  sim::pinVertex(w, 0, carry);
  expectCalm(w, 25000);
  EXPECT_GT(w.state.x[0].x, 1240.0f);
}

TEST(Watchdog, EdgesStretchedPastTheMaterialAreCaught) {
  sim::World w = hang();
  sim::Watchdog dog;
  dog.reset(w);
  sim::step(w);
  ASSERT_TRUE(dog.afterStep(w).ok);
  // A vertex flung 10 km in one step without speed to show for it: its
  // edges are tens of thousands of times their rest length.
  const std::uint32_t free = std::uint32_t(w.state.x.size() / 2);
  auto stepAndFling = [&] {
    sim::step(w);
    w.state.x[free] += glm::vec3(1e4f, 0.0f, 0.0f);
    w.state.v[free] = glm::vec3(0.0f);
    return dog.afterStep(w);
  };
  const sim::WatchdogVerdict v = stepAndFling();
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.message.find("times its rest length"), std::string::npos) << v.message;
  EXPECT_EQ(w.frame, 1u);
  // Without a material to hold (k_stretch 0) the same is no failure.
  w.params.k_stretch = 0.0f;
  EXPECT_TRUE(stepAndFling().ok);
}

TEST(Watchdog, NamesOnlyParametersThatAct) {
  // k_pressure set high on a cloth without pressure is not the cause.
  sim::World cloth = hang();
  cloth.params.k_pressure = 10.0f;
  cloth.params.dt = 0.1f;
  cloth.params.substeps = 2;
  const std::string advice = sim::likelyCause(cloth);
  EXPECT_EQ(advice.find("k_pressure"), std::string::npos) << advice;
  EXPECT_NE(advice.find("time step"), std::string::npos) << advice;
  sim::Params params;
  params.resolution = 8;
  sim::World balloon = std::move(scene::findScene("balloon")->build(params)->world);
  ASSERT_TRUE(balloon.cloth.pressureActive);
  balloon.params.k_pressure = 10.0f;
  EXPECT_NE(sim::likelyCause(balloon).find("k_pressure"), std::string::npos);
  // An over-relaxing Chebyshev schedule is named where it runs.
  sim::World fast = hang();
  fast.params.chebyshev = 0.97f;
  fast.params.iterations = 10;
  EXPECT_NE(sim::likelyCause(fast).find("chebyshev"), std::string::npos);
  fast.params.iterations = 2;  // the schedule never starts
  EXPECT_EQ(sim::likelyCause(fast).find("chebyshev"), std::string::npos);
}
