#include "app/mesh_loading.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace drape::app {
namespace {

bool isObjPath(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".obj";
}

}  // namespace

Result<void> loadMeshScene(Session& session, const std::string& path,
                           scene::MeshSceneOptions options) {
  // The session's overrides are not re-applied: a mesh brings its own
  // defaults (a balloon's differ from a cloth's), and the panel edits them.
  auto next = Session::createFromMesh(path, std::move(options), {});
  if (!next) return fail(next.error());
  next->takeAddedColliders(session);
  session = std::move(next.value());
  return {};
}

Result<void> loadMeshCollider(Session& session, const std::string& path,
                              const scene::MeshSceneOptions& options) {
  return session.addMeshCollider(path, options.zUp, options.scale);
}

Result<std::string> droppedMesh(int count, const char** paths) {
  if (count <= 0 || !paths) return fail("nothing was dropped");
  for (int i = 0; i < count; ++i)
    if (paths[i] && isObjPath(paths[i])) return std::string(paths[i]);
  const std::string first = paths[0] ? paths[0] : "";
  return fail("cannot load " + std::filesystem::path(first).filename().string() +
              ": only Wavefront OBJ files (.obj) can be dropped here");
}

}  // namespace drape::app
