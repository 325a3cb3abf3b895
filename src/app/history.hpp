#pragma once
// Undo and redo: a copy of what the user changes, taken before each action
// that changes it, named after the action ("cut", "edit k_bend"). Undo
// gives back the newest copy and keeps the present for redo; a new action
// drops what could be redone. The copies held (both ways) stay within a
// byte budget: the oldest go first, and a copy larger than the budget is
// not kept at all.

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <utility>

namespace drape::app {

template <class T>
class History {
 public:
  struct Entry {
    std::string what;
    T value;
    std::size_t bytes = 0;
  };

  explicit History(std::size_t budget) : budget_(budget) {}

  // Before an action named `what`: `before` is the value it changes.
  // False when it is too large to keep (the action then cannot be undone).
  bool push(std::string what, T before, std::size_t bytes) {
    clear(redo_);
    if (bytes > budget_) return false;
    used_ += bytes;
    undo_.push_back({std::move(what), std::move(before), bytes});
    trim();
    return true;
  }
  // The newest copy, for `present` (kept for redo under the same name);
  // none when there is nothing to undo.
  std::optional<Entry> undo(T present, std::size_t bytes) {
    return transfer(undo_, redo_, std::move(present), bytes);
  }
  std::optional<Entry> redo(T present, std::size_t bytes) {
    return transfer(redo_, undo_, std::move(present), bytes);
  }

  bool canUndo() const { return !undo_.empty(); }
  bool canRedo() const { return !redo_.empty(); }
  // What undo and redo would give back (empty when nothing).
  std::string nextUndo() const { return undo_.empty() ? std::string() : undo_.back().what; }
  std::string nextRedo() const { return redo_.empty() ? std::string() : redo_.back().what; }
  std::size_t undoCount() const { return undo_.size(); }
  std::size_t redoCount() const { return redo_.size(); }
  std::size_t bytes() const { return used_; }
  std::size_t budget() const { return budget_; }
  void clearAll() {
    clear(undo_);
    clear(redo_);
  }

 private:
  std::optional<Entry> transfer(std::deque<Entry>& from, std::deque<Entry>& to, T present,
                                std::size_t bytes) {
    if (from.empty()) return std::nullopt;
    Entry taken = std::move(from.back());
    from.pop_back();
    used_ -= taken.bytes;
    if (bytes <= budget_) {
      used_ += bytes;
      to.push_back({taken.what, std::move(present), bytes});
    }
    // Over the budget the oldest go, first those to undo, then those to redo.
    trim();
    return taken;
  }
  void trim() {
    for (std::deque<Entry>* list : {&undo_, &redo_})
      while (used_ > budget_ && !list->empty()) {
        used_ -= list->front().bytes;
        list->pop_front();
      }
  }
  void clear(std::deque<Entry>& list) {
    for (const Entry& e : list) used_ -= e.bytes;
    list.clear();
  }

  std::size_t budget_;
  std::size_t used_ = 0;
  std::deque<Entry> undo_, redo_;
};

}  // namespace drape::app
