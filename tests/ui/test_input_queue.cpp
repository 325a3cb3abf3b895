// The user interface's input queue: a tap shorter than a frame, and two
// clicks within one frame, still reach the interface as separate frames;
// double-clicks follow the events' times, however slow the frames.

#include <vector>

#include <gtest/gtest.h>

#include "ui/input_queue.hpp"

namespace drape::ui {
namespace {

constexpr int kPress = 1, kRelease = 0, kRepeat = 2;
constexpr int kKeyA = 65, kKeyB = 66, kBackspace = 259;

InputEvent key(int code, int action, double time = 0.0) {
  InputEvent e;
  e.kind = InputEvent::Kind::Key;
  e.code = code;
  e.action = action;
  e.time = time;
  return e;
}
InputEvent character(int code) {
  InputEvent e;
  e.kind = InputEvent::Kind::Char;
  e.code = code;
  return e;
}
InputEvent button(int action, double time) {
  InputEvent e;
  e.kind = InputEvent::Kind::Button;
  e.code = 0;
  e.action = action;
  e.time = time;
  return e;
}

TEST(InputQueue, ATapWithinOneFrameTakesTwoFrames) {
  InputQueue q;
  q.push(key(kBackspace, kPress));
  q.push(key(kBackspace, kRelease));
  const auto first = q.nextFrame();
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].action, kPress);  // ImGui sees the key down for a frame
  const auto second = q.nextFrame();
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].action, kRelease);
  EXPECT_TRUE(q.empty());
  EXPECT_TRUE(q.nextFrame().empty());
}

TEST(InputQueue, DifferentKeysAndTheirCharactersShareAFrame) {
  InputQueue q;
  // Typing "ab" quickly: a down, 'a', b down, 'b', a up, b up.
  q.push(key(kKeyA, kPress));
  q.push(character('a'));
  q.push(key(kKeyB, kPress));
  q.push(character('b'));
  q.push(key(kKeyA, kRelease));
  q.push(key(kKeyB, kRelease));
  EXPECT_EQ(q.nextFrame().size(), 4u);  // both presses and both characters
  EXPECT_EQ(q.nextFrame().size(), 2u);  // both releases
  // Auto-repeat changes no state: it never splits a frame.
  q.push(key(kBackspace, kPress));
  q.push(key(kBackspace, kRepeat));
  q.push(key(kBackspace, kRepeat));
  EXPECT_EQ(q.nextFrame().size(), 3u);
}

TEST(InputQueue, KeysWhoseStateIsNotReadNeverWait) {
  // A path typed fast: the letters' text comes as characters; their key
  // states are not read, so the whole word goes in one frame.
  InputQueue q;
  for (int c : {'a', 'a', 'b'}) {
    InputEvent down = key(kKeyA + (c - 'a'), kPress);
    down.stateRead = false;
    q.push(down);
    q.push(character(c));
    InputEvent up = down;
    up.action = kRelease;
    q.push(up);
  }
  q.push(key(kBackspace, kPress));
  q.push(key(kBackspace, kRelease));
  EXPECT_EQ(q.nextFrame().size(), 10u);  // the word and Backspace's press
  EXPECT_EQ(q.nextFrame().size(), 1u);   // Backspace's release
}

TEST(InputQueue, TwoClicksInOneFrameAreTwoClicks) {
  InputQueue q;
  for (double t : {0.0, 0.05, 0.10, 0.15})
    q.push(button(t == 0.0 || t == 0.10 ? kPress : kRelease, t));
  std::vector<bool> down;
  std::vector<bool> doubles;
  while (!q.empty()) {
    const auto frame = q.nextFrame();
    ASSERT_EQ(frame.size(), 1u);
    down.push_back(q.buttonDown(0));
    doubles.push_back(frame[0].doubleClick);
  }
  EXPECT_EQ(down, (std::vector<bool>{true, false, true, false}));
  // The second press came 0.1 s after the first: a double-click, however
  // long the frames between them took.
  EXPECT_EQ(doubles, (std::vector<bool>{false, false, true, false}));
}

TEST(InputQueue, DoubleClicksFollowTheEventsTimes) {
  InputQueue q;
  q.push(button(kPress, 1.0));
  q.push(button(kRelease, 1.1));
  q.push(button(kPress, 1.5));  // 0.5 s later: a new single click
  q.push(button(kRelease, 1.6));
  q.push(button(kPress, 1.7));  // 0.2 s after the last press: double
  q.push(button(kRelease, 1.75));
  q.push(button(kPress, 1.8));  // a third press starts a new pair
  std::vector<bool> doubles;
  while (!q.empty())
    for (const InputEvent& e : q.nextFrame())
      if (e.action == kPress) doubles.push_back(e.doubleClick);
  EXPECT_EQ(doubles, (std::vector<bool>{false, false, true, false}));
}

TEST(InputQueue, AFloodIsHandedOutAtOnce) {
  InputQueue q;
  for (int i = 0; i < int(InputQueue::kMaxQueued) + 2; ++i)
    q.push(key(kKeyA, i % 2 == 0 ? kPress : kRelease));
  EXPECT_EQ(q.nextFrame().size(), InputQueue::kMaxQueued + 2);
  EXPECT_TRUE(q.empty());
}

}  // namespace
}  // namespace drape::ui
