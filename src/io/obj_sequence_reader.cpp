#include "io/obj_sequence_reader.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <system_error>

#include "io/obj_reader.hpp"

namespace drape::io {
namespace {

namespace fs = std::filesystem;

// The frame number of a file named frame_<digits>.obj, or -1.
long frameNumber(const std::string& name) {
  const std::string prefix = "frame_", suffix = ".obj";
  if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
    return -1;
  const std::string digits =
      name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (digits.size() > 9 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  return std::stol(digits);
}

std::string frameName(long index) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%05ld.obj", index);
  return name;
}

}  // namespace

bool looksLikeObjSequence(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return true;
  return frameNumber(fs::path(path).filename().string()) >= 0;
}

Result<ObjSequenceFrames> readObjSequence(const std::string& path) {
  std::error_code ec;
  ObjSequenceFrames out;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) return fail("cannot read " + path + ": no such file or folder");
  out.folder = fs::is_directory(status) ? path : fs::path(path).parent_path().string();
  if (out.folder.empty()) out.folder = ".";
  if (!fs::is_directory(status) && frameNumber(fs::path(path).filename().string()) < 0)
    return fail(path + " is not a frame of an OBJ sequence (frame_00000.obj, ...)");
  std::map<long, fs::path> files;
  fs::directory_iterator it(out.folder, ec), end;
  if (ec) return fail("cannot read the folder " + out.folder + ": " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) return fail("cannot read the folder " + out.folder + ": " + ec.message());
    const long n = frameNumber(it->path().filename().string());
    if (n >= 0) files.emplace(n, it->path());
  }
  if (files.empty())
    return fail(out.folder + " has no frames of an OBJ sequence (frame_00000.obj, ...)");
  long expected = 0;
  for (const auto& [n, file] : files) {
    if (n != expected)
      return fail((fs::path(out.folder) / frameName(expected)).string() +
                  " is missing: the sequence's frames must be numbered from 0 without a gap");
    ++expected;
  }
  for (const auto& [n, file] : files) {
    auto obj = readObj(file.string());
    if (!obj) return fail(obj.error());
    if (obj->mesh.triangles.empty())
      return fail(file.string() + ": has no faces, cannot be a collider's frame");
    if (!out.frames.empty()) {
      const sim::TriMesh& first = out.frames.front();
      // Polygons split by their shape may split another way in another
      // frame: the counts tell a changed topology, the first frame's
      // triangles serve every frame.
      if (obj->mesh.positions.size() != first.positions.size() ||
          obj->mesh.triangles.size() != first.triangles.size())
        return fail(file.string() + " has " + std::to_string(obj->mesh.positions.size()) +
                    " vertices and " + std::to_string(obj->mesh.triangles.size()) + " triangles, " +
                    frameName(0) + " " + std::to_string(first.positions.size()) + " and " +
                    std::to_string(first.triangles.size()) +
                    ": a sequence's frames keep one topology");
    }
    if (!out.frames.empty()) obj->mesh.triangles = out.frames.front().triangles;
    out.frames.push_back(std::move(obj->mesh));
    out.frames.back().cornerUVs.clear();
  }
  return out;
}

}  // namespace drape::io
