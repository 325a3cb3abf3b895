#include "ui/file_browser.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <imgui.h>

#include "ui/theme.hpp"

namespace drape::ui {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kRecentMax = 8;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

bool hasExtension(const fs::path& p, const std::string& extension) {
  return lower(p.extension().string()) == lower(extension);
}

void formatBytes(char* out, std::size_t size, std::uintmax_t bytes) {
  if (bytes < 1024)
    std::snprintf(out, size, "%ju B", bytes);
  else if (bytes < 1024 * 1024)
    std::snprintf(out, size, "%.1f KB", double(bytes) / 1024.0);
  else
    std::snprintf(out, size, "%.1f MB", double(bytes) / (1024.0 * 1024.0));
}

void setText(char* buffer, std::size_t size, const std::string& text) {
  std::snprintf(buffer, size, "%s", text.c_str());
}

}  // namespace

std::vector<FileBrowser::Entry> FileBrowser::list(const fs::path& dir, std::string& error,
                                                  const std::string& extension) {
  std::vector<Entry> entries;
  error.clear();
  std::error_code ec;
  fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    error = "cannot list " + dir.string() + ": " + ec.message();
    return entries;
  }
  for (const fs::directory_entry& e : it) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name[0] == '.') continue;  // hidden
    std::error_code typeError;
    if (e.is_directory(typeError)) {
      entries.push_back({name, true, 0});
    } else if (hasExtension(e.path(), extension) && e.is_regular_file(typeError)) {
      std::error_code sizeError;
      const std::uintmax_t bytes = e.file_size(sizeError);
      entries.push_back({name, false, sizeError ? 0 : bytes});
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.folder != b.folder) return a.folder;
    return lower(a.name) < lower(b.name);
  });
  return entries;
}

void FileBrowser::enter(const fs::path& dir) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(dir, ec);
  dir_ = ec ? dir : canonical;
  entries_ = list(dir_, listError_, extension_);
  selected_ = -1;
  setText(path_, sizeof path_, dir_.string());
}

fs::path FileBrowser::typedPath() const {
  const fs::path typed(path_);
  if (typed.empty()) return dir_;
  if (path_[0] == '~') {
    const char* home = std::getenv("HOME");
    if (home) return fs::path(home) / fs::path(std::string(path_ + 1)).relative_path();
  }
  return typed.is_absolute() ? typed : dir_ / typed;
}

void FileBrowser::open(const std::string& suggested) {
  openRequested_ = true;
  suggested_ = suggested;
}

void FileBrowser::setRecent(std::vector<std::string> recent) {
  recent_ = std::move(recent);
  if (recent_.size() > kRecentMax) recent_.resize(kRecentMax);
}

std::optional<std::string> FileBrowser::accept() {
  fs::path p = typedPath();
  std::error_code ec;
  if (fs::is_directory(p, ec)) {
    if (mode_ == Mode::Folder && fs::equivalent(p, dir_, ec)) {
      ImGui::CloseCurrentPopup();
      return p.lexically_normal().string();
    }
    enter(p);
    return std::nullopt;
  }
  if (mode_ == Mode::Save) {
    if (!hasExtension(p, extension_)) p += extension_;
    // A file that exists is replaced only when Save names it twice running.
    if (fs::exists(p, ec) && replace_ != p) {
      replace_ = p;
      setText(path_, sizeof path_, p.string());
      focusPath_ = true;  // Enter again answers
      return std::nullopt;
    }
  }
  // Anything else is handed to the loader, which says what is wrong with
  // it (missing, not an OBJ, broken) in the app's one error banner.
  ImGui::CloseCurrentPopup();
  return p.lexically_normal().string();
}

void FileBrowser::remember(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  const std::string p = ec ? path : absolute.lexically_normal().string();
  recent_.erase(std::remove(recent_.begin(), recent_.end(), p), recent_.end());
  recent_.insert(recent_.begin(), p);
  if (recent_.size() > kRecentMax) recent_.resize(kRecentMax);
}

std::optional<std::string> FileBrowser::draw() {
  bool focusPath = focusPath_;
  focusPath_ = false;
  if (openRequested_) {
    openRequested_ = false;
    std::error_code ec;
    const fs::path suggested = suggested_.empty() ? fs::path() : fs::absolute(suggested_, ec);
    enter(!suggested.empty() ? suggested.parent_path()
          : dir_.empty()     ? fs::current_path(ec)
                             : dir_);
    if (!suggested.empty()) setText(path_, sizeof path_, suggested.lexically_normal().string());
    replace_.clear();
    ImGui::OpenPopup(title_.c_str());
    focusPath = true;
  }
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + 0.5f * vp->Size.x, vp->Pos.y + 0.5f * vp->Size.y),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(
      ImVec2(std::min(600.0f, vp->Size.x - 40.0f), std::min(480.0f, vp->Size.y - 40.0f)),
      ImGuiCond_Appearing);
  bool open = true;
  if (!ImGui::BeginPopupModal(title_.c_str(), &open, ImGuiWindowFlags_NoSavedSettings))
    return std::nullopt;
  std::optional<std::string> chosen;

  if (ImGui::Button("Up")) enter(dir_.parent_path());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the parent folder");
  ImGui::SameLine();
  if (ImGui::Button("Home")) {
    const char* home = std::getenv("HOME");
    if (home) enter(home);
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1.0f);
  if (focusPath) ImGui::SetKeyboardFocusHere();
  // Selected whole on focus, so that a typed path replaces the folder shown.
  if (ImGui::InputText("##path", path_, sizeof path_,
                       ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll))
    chosen = accept();

  const float recentHeight =
      recent_.empty() ? 0.0f
                      : ImGui::GetTextLineHeightWithSpacing() * float(recent_.size() + 1) + 8.0f;
  const float listHeight = -(ImGui::GetFrameHeightWithSpacing() + recentHeight + 6.0f);
  ImGui::BeginChild("##entries", ImVec2(0.0f, listHeight), true);
  if (!listError_.empty()) ImGui::TextColored(theme::kError, "%s", listError_.c_str());
  if (entries_.empty() && listError_.empty())
    ImGui::TextDisabled("no folders or %s files here", extension_.c_str());
  for (int i = 0; i < int(entries_.size()) && !chosen; ++i) {
    const Entry& e = entries_[std::size_t(i)];
    char label[300];
    std::snprintf(label, sizeof label, "%s%s##%d", e.name.c_str(), e.folder ? "/" : "", i);
    if (e.folder) ImGui::PushStyleColor(ImGuiCol_Text, theme::kAccentHover);
    const bool clicked = ImGui::Selectable(
        label, selected_ == i,
        ImGuiSelectableFlags_AllowDoubleClick | ImGuiSelectableFlags_DontClosePopups);
    if (e.folder) ImGui::PopStyleColor();
    if (!e.folder) {
      char size[32];
      formatBytes(size, sizeof size, e.bytes);
      ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(size).x);
      ImGui::TextDisabled("%s", size);
    }
    if (!clicked) continue;
    selected_ = i;
    const fs::path target = dir_ / e.name;
    if (e.folder && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
      enter(target);
      break;
    }
    setText(path_, sizeof path_, target.string());
    if (!e.folder && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) chosen = accept();
  }
  ImGui::EndChild();

  if (!recent_.empty()) {
    ImGui::TextDisabled("Recent");
    for (std::size_t i = 0; i < recent_.size() && !chosen; ++i) {
      ImGui::PushID(int(i));
      if (ImGui::Selectable(recent_[i].c_str(), false, ImGuiSelectableFlags_DontClosePopups)) {
        setText(path_, sizeof path_, recent_[i]);
        chosen = accept();
      }
      ImGui::PopID();
    }
  }

  const float buttonWidth = 96.0f;
  const bool replacing = !replace_.empty() && typedPath() == replace_;
  if (replacing) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(theme::kWarning, "%s exists: Save again replaces it",
                       replace_.filename().string().c_str());
    ImGui::SameLine();
  }
  ImGui::SetCursorPosX(ImGui::GetWindowContentRegionMax().x - 2.0f * buttonWidth -
                       ImGui::GetStyle().ItemSpacing.x);
  const char* action = mode_ != Mode::Save ? "Load" : replacing ? "Replace" : "Save";
  if (ImGui::Button(action, ImVec2(buttonWidth, 0.0f)) && !chosen) chosen = accept();
  ImGui::SameLine();
  if (ImGui::Button("Cancel", ImVec2(buttonWidth, 0.0f)) ||
      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
    ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  return chosen;
}

}  // namespace drape::ui
