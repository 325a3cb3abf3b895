#pragma once
// A scene from a loaded triangle mesh (an OBJ file, say): the mesh as a cloth
// or a balloon, optionally pinned, above a floor, with a camera that frames
// it. The mesh keeps the file's coordinates; only the floor and the camera
// adapt to where it is.

#include <cstdint>
#include <string>
#include <vector>

#include "scene/scenes.hpp"
#include "sim/mesh.hpp"
#include "sim/params.hpp"
#include "sim/result.hpp"

namespace drape::scene {

enum class MeshAs : std::uint8_t {
  Auto,     // balloon when the mesh is closed, cloth otherwise
  Cloth,    // no pressure, even on a closed mesh
  Balloon,  // overpressure (paper §4.4); the mesh must be closed
};

struct MeshPin {
  enum class Kind : std::uint8_t { None, Top, List };
  Kind kind = Kind::None;
  // Kind::List: input vertex indices, 0-based in the file's vertex order
  // (before welding; mapped through inputToVertex).
  std::vector<std::uint32_t> vertices;
};

struct MeshSceneOptions {
  std::string name = "mesh";  // how messages name the mesh (its file)
  MeshAs as = MeshAs::Auto;
  MeshPin pin;
};

// The text forms shared by the command line and scene files. Errors say what
// was expected; the caller names the option and the value.
Result<MeshAs> parseMeshAs(const std::string& text);    // auto | cloth | balloon
Result<MeshPin> parseMeshPin(const std::string& text);  // top | none | i,j,k
const char* meshAsName(MeshAs as);

// What options.as becomes for this mesh (Auto resolved; never Auto). Fails
// for a balloon that cannot hold pressure (open, or enclosing no volume).
Result<MeshAs> resolveMeshAs(const sim::TriMesh& mesh, const MeshSceneOptions& options);

// Scene defaults for a mesh scene of the resolved kind: a balloon takes the
// built-in balloon scene's, a cloth the global ones.
void meshSceneDefaults(MeshAs resolved, sim::Params& params);

// Prepare the mesh (weld, repair, orient), build the world and place a floor
// plane max(0.5 m, 25 % of the mesh's height) below its lowest point.
// "top" pins every vertex within 1 % of the height of the highest y.
Result<Scene> meshScene(const sim::TriMesh& mesh, const sim::Params& params,
                        const MeshSceneOptions& options);

}  // namespace drape::scene
