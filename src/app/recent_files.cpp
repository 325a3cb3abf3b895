#include "app/recent_files.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "io/output_path.hpp"

namespace drape::app {
namespace fs = std::filesystem;

std::string configDirectory() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg && fs::path(xdg).is_absolute()) return (fs::path(xdg) / "drape").string();
  const char* home = std::getenv("HOME");
  if (home && home[0]) return (fs::path(home) / ".config" / "drape").string();
  return "";
}

std::vector<std::string> readRecent(const std::string& name) {
  std::vector<std::string> paths;
  const std::string dir = configDirectory();
  if (dir.empty()) return paths;
  std::ifstream in(fs::path(dir) / name);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) paths.push_back(line);
  }
  return paths;
}

Result<void> writeRecent(const std::string& name, const std::vector<std::string>& paths) {
  const std::string dir = configDirectory();
  if (dir.empty()) return fail("no configuration folder (neither XDG_CONFIG_HOME nor HOME is set)");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fail("cannot make " + dir + ": " + ec.message());
  std::string text;
  for (const std::string& p : paths)
    if (p.find('\n') == std::string::npos) text += p + "\n";  // a line per path
  return io::writeFileAtomically((fs::path(dir) / name).string(), text.data(), text.size());
}

}  // namespace drape::app
