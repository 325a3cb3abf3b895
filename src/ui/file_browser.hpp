#pragma once
// An in-app file browser (a modal window) for one kind of file (OBJ meshes,
// scene files), to open one or to save one: folders and the files of that kind in one folder, a
// path field, parent and home buttons, and the files used recently (the app keeps them across
// runs). The folder is listed when it is entered, not every frame.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace drape::ui {

class FileBrowser {
 public:
  // Folder: as Open, and Load (or Enter) on the folder shown chooses it.
  enum class Mode { Open, Save, Folder };
  // `title` heads the window; files ending in `extension` (any case) are listed.
  explicit FileBrowser(std::string title = "Load OBJ", std::string extension = ".obj",
                       Mode mode = Mode::Open)
      : title_(std::move(title)), extension_(std::move(extension)), mode_(mode) {}

  // Open it at the next draw(), in the folder it was last in (at first the
  // current working directory). Save: `suggested` (a path, relative to the
  // working directory) is the proposed file, and its folder is shown.
  void open(const std::string& suggested = "");
  // Draw it while open. Returns the chosen file on the frame it is chosen
  // (double-click, Enter in the path field, or the Load/Save button); the
  // browser closes. Saving gives the name the extension when it has none, and
  // asks once more before it names a file that exists.
  std::optional<std::string> draw();
  // A file that was used: it goes to the top of the recent list.
  void remember(const std::string& path);
  const std::vector<std::string>& recent() const { return recent_; }
  void setRecent(std::vector<std::string> recent);

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
  Mode mode_;
  bool openRequested_ = false;
  std::string suggested_;          // Save: the file proposed at open()
  std::filesystem::path replace_;  // Save: the existing file a second Save replaces
  bool focusPath_ = false;         // give the path field the keyboard at the next draw
  std::filesystem::path dir_;
  std::vector<Entry> entries_;
  std::string listError_;
  int selected_ = -1;
  char path_[1024] = "";
  std::vector<std::string> recent_;
};

}  // namespace drape::ui
