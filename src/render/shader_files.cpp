#include "render/shader_files.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace drape::render {
namespace fs = std::filesystem;

namespace {

// The executable's directory, from /proc/self/exe (Linux); the current
// directory when that cannot be read.
fs::path executableDir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return fs::current_path(ec);
  return exe.parent_path();
}

}  // namespace

const std::string& ShaderSources::text(const std::string& fileName) const {
  static const std::string kNone;
  const auto it = files.find(fileName);
  return it == files.end() ? kNone : it->second;
}

std::vector<std::string> dataSearchPath(const std::string& folder) {
  const fs::path dir = executableDir();
  return {(dir / ".." / folder).lexically_normal().string(),
          (dir / folder).lexically_normal().string(),
          (dir / ".." / "share" / "drape" / folder).lexically_normal().string()};
}

std::vector<std::string> shaderSearchPath() {
  return dataSearchPath("shaders");
}

Result<ShaderSources> loadShaderSources(const std::vector<std::string>& fileNames) {
  const std::vector<std::string> path = shaderSearchPath();
  ShaderSources sources;
  for (const std::string& dir : path) {
    std::error_code ec;
    if (!fileNames.empty() && fs::is_regular_file(fs::path(dir) / fileNames.front(), ec)) {
      sources.directory = dir;
      break;
    }
  }
  if (sources.directory.empty()) {
    std::string looked;
    for (const std::string& dir : path) looked += (looked.empty() ? "" : ", ") + dir;
    return fail("cannot find drape's shaders (looked in " + looked + ")");
  }
  for (const std::string& name : fileNames) {
    const fs::path file = fs::path(sources.directory) / name;
    std::ifstream in(file, std::ios::binary);
    if (!in) return fail("cannot read shader '" + file.string() + "': " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    sources.files[name] = text.str();
  }
  return sources;
}

}  // namespace drape::render
