// The mouse tools on a real scene, driven with screen positions: grabbing
// picks the vertex under the cursor, the hand pulls it in the camera-facing
// plane, letting go throws it with the hand's velocity; pinning toggles; a
// cut stroke rips the cloth along its way; the tear tool tears by pulling.

#include <gtest/gtest.h>

#include "app/mouse_tools.hpp"
#include "app/session.hpp"

namespace drape::app {
namespace {

constexpr float kW = 1280.0f, kH = 720.0f;

struct Fixture {
  Session session;
  render::Camera camera;
};

Fixture hang() {
  auto s = Session::create("hang", {"resolution=12"});
  EXPECT_TRUE(s) << s.error();
  Fixture f{std::move(s.value()), {}};
  // From above and in front, so the horizontal cloth at y = 1 fills the view.
  f.camera.target = {0.0f, 1.0f, 0.0f};
  f.camera.distance = 4.0f;
  f.camera.yaw = 0.3f;
  f.camera.pitch = 0.9f;
  f.camera.setViewport(kW, kH, 320.0f);
  return f;
}

glm::vec2 screenOf(const render::Camera& c, const glm::vec3& p) {
  const glm::vec4 clip = c.viewProjection() * glm::vec4(p, 1.0f);
  return {(clip.x / clip.w + 1.0f) * 0.5f * kW, (1.0f - clip.y / clip.w) * 0.5f * kH};
}

// The cursor dragged from `from` in `steps` frames to `from + reach·(to −
// from)`, the tools updated each frame (the button already down).
void drag(MouseTools& tools, Fixture& f, glm::vec2 from, glm::vec2 to, int steps,
          float reach = 1.0f) {
  for (int i = 1; i <= steps; ++i) {
    const glm::vec2 p = from + (to - from) * (reach * float(i) / float(steps));
    tools.move(p.x, p.y);
    tools.update(f.camera, f.session.world());
  }
}

constexpr std::uint32_t kMiddle = 6 * 12 + 6;  // a vertex in the middle of the 12 × 12 grid

TEST(MouseTools, PressOnTheClothGrabsTheVertexUnderTheCursor) {
  Fixture f = hang();
  sim::World& w = f.session.world();
  MouseTools tools;
  const glm::vec2 s = screenOf(f.camera, w.state.x[kMiddle]);
  ASSERT_TRUE(tools.press(s.x, s.y, false, f.camera, w));
  EXPECT_TRUE(tools.holding());
  EXPECT_TRUE(w.grab.active);
  EXPECT_EQ(w.grab.vertex, kMiddle);
  EXPECT_TRUE(w.grab.soft);  // the Grab tool pulls the cloth (sim::Grab)
  EXPECT_GT(w.state.w[kMiddle], 0.0f);
  EXPECT_EQ(tools.vertexUnderCursor(f.camera, w), kMiddle);
}

TEST(MouseTools, PressOffTheClothIsLeftToTheCamera) {
  Fixture f = hang();
  MouseTools tools;
  EXPECT_FALSE(tools.press(1270.0, 10.0, false, f.camera, f.session.world()));  // sky
  EXPECT_FALSE(tools.holding());
  EXPECT_FALSE(f.session.world().grab.active);
  EXPECT_FALSE(tools.vertexUnderCursor(f.camera, f.session.world()));
}

TEST(MouseTools, TheHeldVertexFollowsTheCursorInTheCameraFacingPlane) {
  Fixture f = hang();
  sim::World& w = f.session.world();
  MouseTools tools;
  const glm::vec3 start = w.state.x[kMiddle];
  const glm::vec2 s = screenOf(f.camera, start);
  ASSERT_TRUE(tools.press(s.x, s.y, false, f.camera, w));
  tools.move(s.x, s.y + 80.0);
  tools.update(f.camera, w);
  const glm::vec3 target = w.grab.target;
  EXPECT_NEAR(glm::dot(target - start, f.camera.forward()), 0.0f, 1e-4f);
  EXPECT_GT(glm::length(target - start), 0.1f);
  const glm::vec2 shown = screenOf(f.camera, target);
  EXPECT_NEAR(shown.x, s.x, 0.1f);
  EXPECT_NEAR(shown.y, s.y + 80.0f, 0.1f);
  // Stepping carries the cloth towards the hand (a soft grab, sim::Grab).
  const float away = glm::length(start - target);
  ASSERT_TRUE(f.session.step());
  EXPECT_LT(glm::length(w.state.x[kMiddle] - target), 0.5f * away);
}

TEST(MouseTools, LettingGoLeavesTheClothMovingWithTheHand) {
  Fixture f = hang();
  sim::World& w = f.session.world();
  MouseTools tools;
  const glm::vec2 s = screenOf(f.camera, w.state.x[kMiddle]);
  ASSERT_TRUE(tools.press(s.x, s.y, false, f.camera, w));
  // The hand moves 10 pixels down the screen per simulated frame.
  glm::vec3 first{0.0f}, last{0.0f};
  for (int i = 1; i <= 8; ++i) {
    tools.move(s.x, s.y + 10.0 * i);
    tools.update(f.camera, w);
    if (i == 4) first = w.grab.target;
    last = w.grab.target;
    ASSERT_TRUE(f.session.step());
  }
  const glm::vec3 hand = tools.handVelocity();
  // Over the last few frames: displacement per simulated second.
  const glm::vec3 expected = (last - first) / (4.0f * w.params.dt);
  EXPECT_NEAR(glm::length(hand - expected), 0.0f, 0.05f * glm::length(expected));
  EXPECT_LT(hand.y, -0.5f);  // down the screen is down in the world from this view
  // A soft grab: the cloth was carried along with its own velocity, which
  // letting go keeps.
  const glm::vec3 moving = w.state.v[kMiddle];
  EXPECT_LT(moving.y, 0.0f);
  tools.release(w);
  EXPECT_FALSE(tools.holding());
  EXPECT_FALSE(w.grab.active);
  EXPECT_GT(w.state.w[kMiddle], 0.0f);
  EXPECT_EQ(w.state.v[kMiddle], moving);
}

TEST(MouseTools, NothingIsThrownWhileTimeStandsStill) {
  Fixture f = hang();
  sim::World& w = f.session.world();
  MouseTools tools;
  const glm::vec2 s = screenOf(f.camera, w.state.x[kMiddle]);
  ASSERT_TRUE(tools.press(s.x, s.y, false, f.camera, w));
  for (int i = 1; i <= 5; ++i) {  // paused: the hand moves, no step runs
    tools.move(s.x + 30.0 * i, s.y);
    tools.update(f.camera, w);
  }
  EXPECT_EQ(tools.handVelocity(), glm::vec3(0.0f));
  tools.release(w);
  EXPECT_EQ(w.state.v[kMiddle], glm::vec3(0.0f));
}

TEST(MouseTools, AWildFlickIsClamped) {
  Fixture f = hang();
  sim::World& w = f.session.world();
  MouseTools tools;
  const glm::vec2 s = screenOf(f.camera, w.state.x[kMiddle]);
  ASSERT_TRUE(tools.press(s.x, s.y, false, f.camera, w));
  tools.move(s.x, s.y + 300.0);  // ~1 m in one sixtieth of a second
  tools.update(f.camera, w);
  ASSERT_TRUE(f.session.step());
  tools.move(s.x, s.y + 600.0);
  tools.update(f.camera, w);
  EXPECT_LE(glm::length(tools.handVelocity()), 20.0f + 1e-3f);
}

TEST(MouseTools, CtrlClickAndThePinToolTogglePins) {
  Fixture f = hang();
  sim::World& w = f.session.world();
  MouseTools tools;
  const glm::vec2 s = screenOf(f.camera, w.state.x[kMiddle]);
  const std::size_t pins = w.pins.size();
  ASSERT_TRUE(tools.press(s.x, s.y, true, f.camera, w));  // Ctrl+click with the grab tool
  EXPECT_FALSE(tools.holding());
  EXPECT_TRUE(sim::isPinned(w, kMiddle));
  EXPECT_EQ(w.pins.size(), pins + 1);
  tools.tool = Tool::Pin;
  ASSERT_TRUE(tools.press(s.x, s.y, false, f.camera, w));
  EXPECT_FALSE(sim::isPinned(w, kMiddle));
  EXPECT_EQ(w.pins.size(), pins);
  EXPECT_GT(w.state.w[kMiddle], 0.0f);
}

TEST(MouseTools, GrabbingAPinMovesThePin) {
  Fixture f = hang();
  sim::World& w = f.session.world();
  MouseTools tools;
  const std::uint32_t corner = 0;  // pinned by the scene
  ASSERT_TRUE(sim::isPinned(w, corner));
  const glm::vec3 start = w.state.x[corner];
  const glm::vec2 s = screenOf(f.camera, start);
  ASSERT_TRUE(tools.press(s.x, s.y, false, f.camera, w));
  ASSERT_EQ(w.grab.vertex, corner);
  tools.move(s.x + 60.0, s.y);
  tools.update(f.camera, w);
  ASSERT_TRUE(f.session.step());
  tools.release(w);
  EXPECT_TRUE(sim::isPinned(w, corner));
  EXPECT_GT(glm::length(w.state.x[corner] - start), 0.05f);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(f.session.step());
  EXPECT_EQ(w.state.w[corner], 0.0f);  // still held by its pin where the hand left it
}

TEST(MouseTools, CutRipsTheEdgeUnderTheCursor) {
  Fixture f = hang();
  sim::World& w = f.session.world();
  const std::size_t vertices = w.vertexCount();
  MouseTools tools;
  tools.tool = Tool::Cut;
  // Between two vertices of the middle row: the edge joining them is nearest.
  const glm::vec3 mid = 0.5f * (w.state.x[kMiddle] + w.state.x[kMiddle + 1]);
  const glm::vec2 s = screenOf(f.camera, mid);
  ASSERT_TRUE(tools.press(s.x, s.y, false, f.camera, w));
  EXPECT_GT(w.vertexCount(), vertices);
  EXPECT_GT(w.tornEdges, 0u);
  const std::uint64_t torn = w.tornEdges;
  tools.update(f.camera, w);  // the cursor has not moved: the same edge is not torn again
  EXPECT_EQ(w.tornEdges, torn);
  tools.release(w);
  EXPECT_TRUE(f.session.step());
}

TEST(MouseTools, ACutStrokeRipsTheClothApart) {
  Fixture f = hang();
  sim::World& w = f.session.world();
  MouseTools tools;
  tools.tool = Tool::Cut;
  // Across the middle row, from its first vertex to past the far edge.
  const glm::vec2 a = screenOf(f.camera, w.state.x[6 * 12 + 0]);
  const glm::vec2 b = screenOf(f.camera, w.state.x[6 * 12 + 11]);
  ASSERT_TRUE(tools.press(a.x, a.y, false, f.camera, w));
  drag(tools, f, a, b, 12, 1.2f);
  tools.release(w);
  EXPECT_FALSE(tools.holding());
  EXPECT_GT(w.cloth.pieceCount, 1u);
  EXPECT_GE(w.tornEdges, 11u);  // at least the edges across the row
  // What hung from the pins and what was torn off part: the far side drops.
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(f.session.step());
  EXPECT_LT(w.state.x[11 * 12 + 6].y, w.state.x[1 * 12 + 6].y - 0.3f);
}

TEST(MouseTools, PressesThatMissTheClothAreLeftToTheCamera) {
  Fixture f = hang();
  sim::World& w = f.session.world();
  MouseTools tools;
  for (Tool tool : {Tool::Grab, Tool::Pin, Tool::Tear}) {
    tools.tool = tool;
    EXPECT_FALSE(tools.press(1270.0, 10.0, false, f.camera, w));
    EXPECT_FALSE(tools.holding());
  }
  // The Cut tool takes every press: a stroke may start off the cloth.
  tools.tool = Tool::Cut;
  EXPECT_TRUE(tools.press(1270.0, 10.0, false, f.camera, w));
  EXPECT_TRUE(tools.holding());
  tools.release(w);
  EXPECT_FALSE(tools.holding());
  EXPECT_EQ(w.tornEdges, 0u);
}

// The screen point `pixels` beyond a corner of the cloth, away from its middle.
glm::vec2 beyondCorner(const Fixture& f, std::uint32_t corner, float pixels) {
  const sim::World& w = f.session.world();
  const glm::vec2 c = screenOf(f.camera, w.state.x[corner]);
  const glm::vec2 middle = screenOf(f.camera, w.state.x[kMiddle]);
  return c + pixels * glm::normalize(c - middle);
}

TEST(MouseTools, APinsMarkerBeyondTheClothTakesThePin) {
  Fixture f = hang();
  sim::World& w = f.session.world();
  MouseTools tools;
  tools.tool = Tool::Pin;
  const std::uint32_t pinned = 0, free = 11 * 12;  // corners: pinned by the scene, and not
  ASSERT_TRUE(sim::isPinned(w, pinned));
  ASSERT_FALSE(sim::isPinned(w, free));
  // Off the cloth by 4 pixels: within the marker (at least 11 pixels
  // across), outside the cloth.
  const glm::vec2 onMarker = beyondCorner(f, pinned, 4.0f);
  EXPECT_EQ(tools.vertexUnderCursor(f.camera, w), std::nullopt);  // the cursor is elsewhere
  tools.move(onMarker.x, onMarker.y);
  EXPECT_EQ(tools.vertexUnderCursor(f.camera, w), pinned);  // the hover ring shows it
  ASSERT_TRUE(tools.press(onMarker.x, onMarker.y, false, f.camera, w));
  EXPECT_FALSE(sim::isPinned(w, pinned));
  EXPECT_GT(w.state.w[pinned], 0.0f);
  // The same place beyond a corner without a pin is off the cloth.
  const glm::vec2 offFree = beyondCorner(f, free, 4.0f);
  EXPECT_FALSE(tools.press(offFree.x, offFree.y, false, f.camera, w));
  // Far beyond the marker, nothing.
  const glm::vec2 far = beyondCorner(f, 11, 30.0f);
  EXPECT_FALSE(tools.press(far.x, far.y, false, f.camera, w));
  EXPECT_TRUE(sim::isPinned(w, 11));
}

TEST(MouseTools, ACutStrokeStartingOffTheClothCutsAndIsDrawn) {
  Fixture f = hang();
  sim::World& w = f.session.world();
  MouseTools tools;
  tools.tool = Tool::Cut;
  // Across the middle row, from well before its first vertex to past its last.
  const glm::vec2 a = screenOf(f.camera, w.state.x[6 * 12 + 0]);
  const glm::vec2 b = screenOf(f.camera, w.state.x[6 * 12 + 11]);
  const glm::vec2 start = a - 0.3f * (b - a);
  ASSERT_TRUE(tools.press(start.x, start.y, false, f.camera, w));
  EXPECT_EQ(w.tornEdges, 0u);
  drag(tools, f, start, b, 16, 1.2f);
  EXPECT_EQ(tools.strokeTrail().size(), 17u);  // the press and each frame's cursor
  EXPECT_EQ(tools.strokeTrail().front(), start);
  tools.release(w);
  EXPECT_TRUE(tools.strokeTrail().empty());
  EXPECT_GT(w.cloth.pieceCount, 1u);
  EXPECT_GE(w.tornEdges, 11u);
}

TEST(MouseTools, CutsLeaveNoLooseSlivers) {
  // Strokes every which way over the cloth, many through corners and along
  // the edges: every piece cut off has at least three triangles.
  Fixture f = hang();
  sim::World& w = f.session.world();
  MouseTools tools;
  tools.tool = Tool::Cut;
  std::uint32_t seed = 12345;
  auto random = [&seed]() {
    seed = seed * 1664525u + 1013904223u;
    return float(seed >> 8) / float(1u << 24);
  };
  const glm::vec2 lo = screenOf(f.camera, w.state.x[0]), hi = screenOf(f.camera, w.state.x[143]);
  const glm::vec2 box0 = glm::min(lo, hi) - 40.0f, box1 = glm::max(lo, hi) + 40.0f;
  for (int stroke = 0; stroke < 40; ++stroke) {
    const glm::vec2 a = box0 + (box1 - box0) * glm::vec2(random(), random());
    const glm::vec2 b = box0 + (box1 - box0) * glm::vec2(random(), random());
    tools.press(a.x, a.y, false, f.camera, w);
    drag(tools, f, a, b, 8);
    tools.release(w);
  }
  ASSERT_GT(w.cloth.pieceCount, 3u);  // the strokes did cut
  std::vector<int> triangles(w.cloth.pieceCount, 0);
  for (const glm::uvec3& t : w.cloth.triangles) ++triangles[w.cloth.piece[t.x]];
  for (std::size_t p = 0; p < triangles.size(); ++p)
    if (triangles[p] > 0) {
      EXPECT_GE(triangles[p], 3) << "piece " << p;
    }
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(f.session.step());
}

namespace {

// Grab the middle vertex with `tool` and drag it 2 m down over 60 frames.
std::uint64_t pullDown(Tool tool) {
  Fixture f = hang();
  sim::World& w = f.session.world();
  MouseTools tools;
  tools.tool = tool;
  const glm::vec2 s = screenOf(f.camera, w.state.x[kMiddle]);
  EXPECT_TRUE(tools.press(s.x, s.y, false, f.camera, w));
  EXPECT_EQ(w.params.tear, 0.0f);  // the slider stays off
  const glm::vec3 start = w.state.x[kMiddle];
  for (int i = 1; i <= 60; ++i) {
    const glm::vec2 p = screenOf(f.camera, start - glm::vec3(0.0f, 2.0f * float(i) / 60.0f, 0.0f));
    tools.move(p.x, p.y);
    tools.update(f.camera, w);
    EXPECT_TRUE(f.session.step());
  }
  tools.release(w);
  EXPECT_FALSE(w.grab.active);
  return w.tornEdges;
}

}  // namespace

TEST(MouseTools, TearToolTearsWhenPulledHardAndGrabDoesNot) {
  EXPECT_GT(pullDown(Tool::Tear), 0u);
  EXPECT_EQ(pullDown(Tool::Grab), 0u);
}

TEST(MouseTools, CancelForgetsTheVertexWithoutTouchingTheWorld) {
  Fixture f = hang();
  MouseTools tools;
  const glm::vec2 s = screenOf(f.camera, f.session.world().state.x[kMiddle]);
  ASSERT_TRUE(tools.press(s.x, s.y, false, f.camera, f.session.world()));
  ASSERT_TRUE(f.session.reset());  // a new world, grab inactive
  tools.cancel();
  EXPECT_FALSE(tools.holding());
  tools.update(f.camera, f.session.world());
  tools.release(f.session.world());
  EXPECT_FALSE(f.session.world().grab.active);
}

}  // namespace
}  // namespace drape::app
