#include "ui/input_queue.hpp"

#include <algorithm>

namespace drape::ui {
namespace {

constexpr int kRelease = 0, kPress = 1;

bool changesState(const InputEvent& e) {
  const bool read =
      e.kind == InputEvent::Kind::Button || (e.kind == InputEvent::Kind::Key && e.stateRead);
  return read && (e.action == kPress || e.action == kRelease);
}

}  // namespace

void InputQueue::push(InputEvent e) {
  if (e.kind == InputEvent::Kind::Button && e.action == kPress && e.code >= 0 &&
      e.code < kButtons) {
    e.doubleClick = e.time - lastPress_[e.code] <= kDoubleClickSeconds;
    // A third click starts a new pair.
    lastPress_[e.code] = e.doubleClick ? -1e9 : e.time;
  }
  queued_.push_back(e);
}

std::vector<InputEvent> InputQueue::nextFrame() {
  std::vector<InputEvent> batch;
  std::vector<std::pair<InputEvent::Kind, int>> changed;
  // Far behind (a stalled frame under a burst of input): all at once, rather
  // than a lag of one frame per event.
  const bool flood = queued_.size() > kMaxQueued;
  while (!queued_.empty()) {
    const InputEvent& e = queued_.front();
    if (changesState(e) && !flood) {
      const std::pair<InputEvent::Kind, int> what{e.kind, e.code};
      if (std::find(changed.begin(), changed.end(), what) != changed.end()) break;
      changed.push_back(what);
    }
    if (changesState(e) && e.kind == InputEvent::Kind::Button && e.code >= 0 && e.code < kButtons)
      down_[e.code] = e.action == kPress;
    batch.push_back(e);
    queued_.pop_front();
  }
  return batch;
}

bool InputQueue::buttonDown(int button) const {
  return button >= 0 && button < kButtons && down_[button];
}

}  // namespace drape::ui
