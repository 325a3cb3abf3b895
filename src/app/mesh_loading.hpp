#pragma once
// Loading an OBJ file into the running app (the file browser, or a file
// dropped on the window): the new scene replaces the current one only when it
// builds; otherwise the current scene stays and the error says why.

#include <string>

#include "app/session.hpp"
#include "scene/mesh_scene.hpp"
#include "sim/result.hpp"

namespace drape::app {

// Replace `session` with a scene built from the OBJ file at `path`, or leave
// it exactly as it was and return the reason.
Result<void> loadMeshScene(Session& session, const std::string& path,
                           scene::MeshSceneOptions options);

// Of the paths dropped on the window (GLFW's drop callback), the first that
// names an OBJ file (by its extension, any case). Fails, naming what was
// dropped, when none does.
Result<std::string> droppedMesh(int count, const char** paths);

}  // namespace drape::app
