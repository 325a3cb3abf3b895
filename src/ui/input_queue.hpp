#pragma once
// Input events held until the user interface takes them, a frame's worth at
// a time. Dear ImGui 1.86 reads key and button states once per frame, so a
// press and its release within one frame (a quick tap on a slow machine)
// would be lost, and two clicks within one frame would be one. The queue
// hands out events in order and ends a frame's batch before the second
// change of the same key or button, which then comes the frame after.
// Double-clicks are judged from the events' own times, not frame times.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace drape::ui {

struct InputEvent {
  enum class Kind : std::uint8_t { Key, Char, Button, Scroll };
  Kind kind = Kind::Key;
  int code = 0;    // Key: GLFW key; Char: the code point; Button: the button
  int action = 0;  // Key, Button: GLFW_PRESS (1), GLFW_RELEASE (0), GLFW_REPEAT (2)
  int mods = 0;
  int scancode = 0;
  double dx = 0, dy = 0;  // Scroll
  double time = 0;        // seconds, when it happened
  // Key: whether the interface reads this key's state (editing and
  // navigation keys, modifiers, shortcut letters with Ctrl): only those need
  // a frame of their own; a letter's text comes with its Char event.
  bool stateRead = true;
  bool doubleClick = false;  // Button press: the second of two within kDoubleClickSeconds
};

class InputQueue {
 public:
  static constexpr double kDoubleClickSeconds = 0.30;
  static constexpr int kButtons = 8;
  static constexpr std::size_t kMaxQueued = 256;

  // Queue an event; a button press is marked as a double-click here.
  void push(InputEvent e);
  // The events of the next frame, in order: all those queued, up to the
  // first that changes a key or button already changed in this batch.
  std::vector<InputEvent> nextFrame();
  bool empty() const { return queued_.empty(); }
  // Whether a button is down once the events handed out so far are applied.
  bool buttonDown(int button) const;

 private:
  std::deque<InputEvent> queued_;
  double lastPress_[kButtons] = {-1e9, -1e9, -1e9, -1e9, -1e9, -1e9, -1e9, -1e9};
  bool down_[kButtons] = {};
};

}  // namespace drape::ui
