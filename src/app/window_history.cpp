// Undo, redo and the timeline in the window: a snapshot of the session
// before each action that changes the scene, and a copy of every frame
// simulated (timeline.hpp) that the panel's slider shows again.

#include <string>
#include <utility>

#define GLFW_INCLUDE_NONE  // no GL header needed here
#include <GLFW/glfw3.h>

#include "app/footprint.hpp"
#include "app/window_app_detail.hpp"

namespace drape::app {

void App::say(const std::string& notice) {
  notice_ = notice;
  noticeUntil_ = glfwGetTime() + kNoticeSeconds;
}

void App::remember(std::string what, Snapshot before) {
  const std::size_t bytes = sessionBytes(before.session);
  if (!history_.push(std::move(what), std::move(before), bytes))
    say("this change is too large to undo");
  keepFrame();
}

void App::keepFrame() {
  timeline_.keep(session_.world(), run_);
  shown_ = -1;
}

void App::restore(Snapshot snapshot, const std::string& notice) {
  const std::string label = session_.label();
  session_ = std::move(snapshot.session);
  run_ = snapshot.run;
  input_.before.reset();
  editOpen_ = false;
  uiError_.clear();
  // Another scene opens with its own camera; the same one keeps the view.
  sceneReplaced(session_.label() != label);
  if (compare_.active()) updateCompare();
  keepFrame();
  say(notice);
}

void App::undo() {
  if (!history_.canUndo()) return;
  Snapshot present{std::move(session_), run_};
  const std::size_t bytes = sessionBytes(present.session);
  auto taken = history_.undo(std::move(present), bytes);
  restore(std::move(taken->value), "undone: " + taken->what);
}

void App::redo() {
  if (!history_.canRedo()) return;
  Snapshot present{std::move(session_), run_};
  const std::size_t bytes = sessionBytes(present.session);
  auto taken = history_.redo(std::move(present), bytes);
  restore(std::move(taken->value), "redone: " + taken->what);
}

void App::scrubTo(int index) {
  if (index < 0 || std::size_t(index) >= timeline_.size() || compare_.active()) return;
  playing_ = false;
  input_.tools.cancel();
  input_.before.reset();
  session_.restoreWorld(timeline_.world(std::size_t(index)));
  shown_ = index;
  crossingsTime_ = -1.0;
  renderer_.setScene(session_.world());
}

void App::applyHistory(const ui::PanelResult& asked) {
  if (input_.take(Command::Undo) || asked.undo) undo();
  if (input_.take(Command::Redo) || asked.redo) redo();
  if (asked.scrubTo >= 0) scrubTo(asked.scrubTo);
  // A mouse tool's press, once it is over: an undo step when it changed
  // the cloth's topology (a cut, a tear) or its pins.
  if (input_.before && !input_.tools.holding()) {
    const sim::World& was = input_.before->world();
    const sim::World& now = session_.world();
    std::string what = input_.beforeWhat;
    if (what == "pin" && now.pins.size() < was.pins.size()) what = "unpin";
    const bool changed = was.cloth.topologyVersion != now.cloth.topologyVersion ||
                         was.pinsVersion != now.pinsVersion || was.tornEdges != now.tornEdges;
    if (changed) remember(std::move(what), {std::move(*input_.before), run_});
    input_.before.reset();
  }
  if (!asked.editing) editOpen_ = false;
}

ui::HistoryStatus App::historyStatus() const {
  ui::HistoryStatus h;
  h.undo = history_.nextUndo();
  h.redo = history_.nextRedo();
  h.undoBytes = history_.bytes();
  h.undoBudget = history_.budget();
  h.frames = int(timeline_.size());
  h.shown = shown_;
  if (!timeline_.empty()) {
    h.firstFrame = timeline_.frameAt(0);
    h.lastFrame = timeline_.frameAt(timeline_.size() - 1);
  }
  h.span = timeline_.span();
  h.timelineBytes = timeline_.bytes();
  h.timelineBudget = timeline_.budget();
  h.scrubbable = !compare_.active();
  return h;
}

}  // namespace drape::app
