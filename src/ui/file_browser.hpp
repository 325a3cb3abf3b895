#pragma once
// An in-app file browser (a modal window) for one kind of file (OBJ meshes,
// scene files): folders and the files of that kind in one folder, a path field, parent and home
// buttons, and the files loaded recently (kept in memory for the session only). The folder is
// listed when it is entered, not every frame.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace drape::ui {

class FileBrowser {
 public:
  // `title` heads the window; files ending in `extension` (any case) are listed.
  explicit FileBrowser(std::string title = "Load OBJ", std::string extension = ".obj")
      : title_(std::move(title)), extension_(std::move(extension)) {}

  // Open it at the next draw(), in the folder it was last in (at first the
  // current working directory).
  void open() { openRequested_ = true; }
  // Draw it while open. Returns the chosen file on the frame it is chosen
  // (double-click, Enter in the path field, or Load); the browser closes.
  std::optional<std::string> draw();
  // A file that loaded: it goes to the top of the recent list.
  void remember(const std::string& path);
  const std::vector<std::string>& recent() const { return recent_; }

  struct Entry {
    std::string name;
    bool folder;
    std::uintmax_t bytes;
  };
  // The folders (not hidden ones) and `extension` files of `dir`, folders
  // first, each group sorted by name ignoring case. Errors come back in `error`.
  static std::vector<Entry> list(const std::filesystem::path& dir, std::string& error,
                                 const std::string& extension = ".obj");

 private:
  void enter(const std::filesystem::path& dir);
  // The path field's text, taken relative to the current folder.
  std::filesystem::path typedPath() const;
  // What Enter in the path field or the Load button does.
  std::optional<std::string> accept();

  std::string title_, extension_;
  bool openRequested_ = false;
  std::filesystem::path dir_;
  std::vector<Entry> entries_;
  std::string listError_;
  int selected_ = -1;
  char path_[1024] = "";
  std::vector<std::string> recent_;
};

}  // namespace drape::ui
