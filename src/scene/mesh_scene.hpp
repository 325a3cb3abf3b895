#pragma once
// A scene from a loaded triangle mesh (an OBJ file, say): the mesh as a cloth
// or a balloon, optionally pinned, above a floor, with a camera that frames
// it. The mesh keeps the file's coordinates; only the floor and the camera
// adapt to where it is.

#include <cstdint>
#include <string>
#include <vector>

#include "scene/scenes.hpp"
#include "sim/sim.hpp"

namespace drape::scene {

enum class MeshAs : std::uint8_t {
  Auto,     // balloon when the mesh is closed, cloth otherwise
  Cloth,    // no pressure, even on a closed mesh
  Balloon,  // overpressure (paper §4.4); the mesh must be closed
  // Ropes from the file's strands (`l` polylines on no face); picked by
  // Auto for a file of strands alone. The faces of a file that has both
  // are a cloth (or a balloon, by Auto) beside the ropes.
  Strands,
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
  bool zUp = false;    // the file's up axis is +z (turned to drape's +y)
  float scale = 1.0f;  // file units to metres
  // Seams to sew beside the file's own: pairs of its vertices, 0-based in
  // its vertex order (a scene file's "mesh.seams").
  std::vector<glm::uvec2> seams{};
};

// The mesh as the options place it: turned from z-up to y-up (x, y, z) →
// (x, z, −y) when zUp, then scaled about the origin.
void placeMesh(sim::TriMesh& mesh, const MeshSceneOptions& options);

// A warning when a mesh from Blender (`fromBlender`, its file's header), not
// turned from z-up, is tallest along z: Blender's z is up, and the file
// may keep it; the warning names --up z. Empty otherwise.
std::string upWarning(const sim::TriMesh& mesh, bool fromBlender, const MeshSceneOptions& options);

// A warning when the cloth of a mesh scene is far from cloth sizes (over
// 50 m or under 1 cm across), suggesting a scale; empty otherwise.
std::string sizeWarning(const sim::World& world, const MeshSceneOptions& options);

// The text forms shared by the command line and scene files. Errors say what
// was expected; the caller names the option and the value.
Result<MeshAs> parseMeshAs(const std::string& text);    // auto | cloth | balloon | strands
Result<MeshPin> parseMeshPin(const std::string& text);  // top | none | i,j,k
const char* meshAsName(MeshAs as);

// What options.as becomes for this mesh (Auto resolved; never Auto). Fails
// for a balloon that cannot hold pressure (open, or enclosing no volume).
Result<MeshAs> resolveMeshAs(const sim::PreparedMesh& mesh, const MeshSceneOptions& options);
Result<MeshAs> resolveMeshAs(const sim::TriMesh& mesh, const MeshSceneOptions& options);

// Scene defaults for a mesh scene of the resolved kind: a balloon takes the
// built-in balloon scene's, a cloth the global ones. Either way the
// thickness is at least tuning::kSelfThicknessPerEdge of the mesh's mean edge
// (within the parameter's range): a coarse mesh crumples at the scale of
// its edges, and a thinner layer lets its creases fold through themselves
// (fold_limits.hpp).
void meshSceneDefaults(const sim::PreparedMesh& mesh, MeshAs resolved, sim::Params& params);

// Build the world of a prepared mesh (welded, repaired, oriented) and place
// a floor plane max(0.5 m, 25 % of the mesh's height) below its lowest
// point. "top" pins every vertex within 1 % of the height of the highest y
// (where those span less than half the width, the top of each slice across
// the width in the upper quarter of the height: a shirt's shoulders too);
// on a flat horizontal sheet (height under 1 % of its width), where that
// would be every vertex, it pins the far edge instead: the vertices within
// 1 % of the depth of the lowest z, and says so in `warnings`.
Result<Scene> meshScene(const sim::PreparedMesh& mesh, const sim::Params& params,
                        const MeshSceneOptions& options,
                        std::vector<std::string>* warnings = nullptr);
// The same from an unprepared mesh (prepared here).
Result<Scene> meshScene(const sim::TriMesh& mesh, const sim::Params& params,
                        const MeshSceneOptions& options,
                        std::vector<std::string>* warnings = nullptr);

}  // namespace drape::scene
