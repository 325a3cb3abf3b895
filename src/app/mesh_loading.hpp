#pragma once
// Loading an OBJ file into the running app (the file browser, or a file
// dropped on the window), as a new scene's cloth or balloon, or as a collider
// added to the current scene: the scene changes only when the file loads;
// otherwise it stays as it was and the error says why.

#include <string>

#include "app/session.hpp"
#include "scene/mesh_scene.hpp"
#include "sim/sim.hpp"

namespace drape::app {

// Replace `session` with a scene built from the OBJ file at `path`, or leave
// it exactly as it was and return the reason. The colliders added to the
// old scene (--collider, or loaded as colliders) go on in the new one.
Result<void> loadMeshScene(Session& session, const std::string& path,
                           scene::MeshSceneOptions options);

// Add the OBJ file at `path` to the scene as a static mesh collider, turned
// and scaled as `options` would a cloth (options.zUp, options.scale); the
// cloth stays. Session::addMeshCollider, the loader of --collider.
Result<void> loadMeshCollider(Session& session, const std::string& path,
                              const scene::MeshSceneOptions& options);

// Of the paths dropped on the window (GLFW's drop callback), the first that
// names an OBJ file (by its extension, any case). Fails, naming what was
// dropped, when none does.
Result<std::string> droppedMesh(int count, const char** paths);

}  // namespace drape::app
