#pragma once
// Draws a sim::World: background, floor with its grid, planar shadows, the
// cloth (two-sided, shaded or as a strain heat map, optionally with its
// wireframe), open seams as threads, the colliders at their current poses,
// and markers for the pins,
// the grabbed vertex and the vertex under the cursor. Reads the world, never
// writes it. Needs a current OpenGL 3.3 core context from creation to
// destruction.

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "render/camera.hpp"
#include "render/cloth_view.hpp"
#include "render/gpu_mesh.hpp"
#include "render/pixel_rect.hpp"
#include "render/program.hpp"
#include "render/shader_files.hpp"
#include "sim/sim.hpp"

namespace drape::render {

// Colours (sRGB) and light of the picture.
struct Look {
  glm::vec3 clothFront{0.86f, 0.42f, 0.26f};   // warm terracotta
  glm::vec3 clothBack{0.50f, 0.17f, 0.22f};    // darker wine red
  glm::vec3 collider{0.70f, 0.71f, 0.74f};     // neutral grey
  glm::vec3 rope{0.80f, 0.68f, 0.46f};         // hemp
  glm::vec3 seam{0.20f, 0.90f, 0.45f};         // green thread: a seam still open
  glm::vec3 pin{1.00f, 0.84f, 0.18f};          // yellow, apart from every other colour
  glm::vec3 grabbed{0.30f, 0.86f, 1.00f};      // cyan: the vertex the hand holds
  glm::vec3 hovered{0.97f, 0.97f, 0.97f};      // white ring: what a click would take
  glm::vec4 wire{0.08f, 0.08f, 0.10f, 0.45f};  // wireframe lines, blended over the cloth
  glm::vec3 skyTop{0.33f, 0.39f, 0.48f};       // zenith
  glm::vec3 skyBottom{0.72f, 0.74f, 0.77f};    // horizon, and the far floor's fog
  // Towards the key light, in view space (x right, y up, z towards the
  // viewer): the light turns with the camera, so whatever side of the cloth
  // is looked at is lit, from a little above and left of the viewer.
  glm::vec3 keyLightInView = glm::normalize(glm::vec3(-0.3f, 0.45f, 0.85f));
  // Shadows fall almost straight down, whatever lights the cloth: a floor
  // shadow then shows where things are above the floor, which is its use here.
  glm::vec3 shadowDir = glm::normalize(glm::vec3(-0.12f, 1.0f, 0.10f));
  glm::vec4 shadow{0.05f, 0.06f, 0.09f, 0.30f};
  float pinRadius = 0.025f;    // m
  float ropeRadius = 0.01f;    // m, half the width a rope's material is taken over
  float seamRadius = 0.0015f;  // m, an open seam's thread
  float pinMinPixels = 11.0f;  // a pin marker is never drawn smaller across
  // The lit cloth's fabric (shaders/mesh.frag): a plain weave whose cells
  // (one crossing of two threads) measure `weaveCell` on the cloth at rest,
  // its threads' edges 0.64 × `weave` darker and crowns 0.36 × `weave`
  // brighter in linear light; and folds that bend as tight as `foldRadius`
  // take `foldShade` of the ambient light (half that of the key) from their
  // inside.
  float weave = 0.1f;
  float weaveCell = 0.02f;   // m
  float foldRadius = 0.08f;  // m
  float foldShade = 0.6f;
};

// How the cloth is shown.
enum class Shading : std::uint8_t {
  Lit,     // front and back colours, lit
  Strain,  // per-vertex strain heat map (strain.hpp), lit
};

struct ViewOptions {
  Shading shading = Shading::Lit;
  bool wireframe = false;   // the cloth's edges over whichever shading
  float strainMax = 0.10f;  // strain |l − l0|/l0 at the top of the colour ramp
  // Strain view: triangles where the cloth passes through itself, shown in
  // kCrossingColor (null: none marked).
  const std::vector<std::uint32_t>* crossed = nullptr;
};

constexpr std::uint32_t kNoVertex = UINT32_MAX;

class Renderer {
 public:
  // The shader files the renderer needs (for loadShaderSources).
  static const std::vector<std::string>& shaderFiles();
  // Compile and link every program; fails with a one-line message.
  static Result<Renderer> create(const ShaderSources& sources);

  // A new or rebuilt scene: collider meshes, floor height, cloth topology.
  void setScene(const sim::World& world);
  // The floor's height: the lowest upward plane's, else under the cloth.
  float floorHeight() const { return floorHeight_; }
  // Draw one frame into the default framebuffer of `fbWidth` × `fbHeight`
  // pixels (the camera's viewport is in screen coordinates, which may differ).
  // `hoveredVertex` (kNoVertex: none) gets a ring marker. `area`, when set
  // (not empty), confines the picture to that part of the framebuffer (side
  // by side).
  void draw(const sim::World& world, const Camera& camera, int fbWidth, int fbHeight,
            const ViewOptions& view = {}, std::uint32_t hoveredVertex = kNoVertex,
            PixelRect area = {});
  // Where the last draw put the cloth, the colliders and their shadows: the
  // projection of their box and of its shadow, a pixel wider, within the
  // draw's area. Only there are there edges for anti-aliasing to smooth
  // (the floor's grid and the sky smooth themselves).
  PixelRect edgeArea() const { return edgeArea_; }

  Look look;

 private:
  struct ColliderMesh {
    std::size_t collider;  // index in world.colliders
    GpuMesh mesh;
    double shownTime = -1.0;  // a deforming collider's: the time its vertices show
  };
  // Deforming colliders' vertices made again where the world's time moved.
  void updateDeforming(const sim::World& world);
  sim::MeshShape deformed_;

  // The cloth (with its vertex colours when `clothColors`) and the colliders.
  void drawLitMeshes(const sim::World& world, const Program& program, bool clothColors);
  void drawWireframe(const glm::mat4& viewProj);
  void drawMarkers(const sim::World& world, const Camera& camera, int fbHeight,
                   std::uint32_t hoveredVertex);
  void drawMarkerRange(std::size_t first, std::size_t count, const glm::vec3& color, float radius,
                       float minPixels, bool ring) const;

  Program mesh_, shadow_, floor_, background_, pin_, wire_;
  ClothView cloth_;
  // The ropes' tubes (rope_tubes.hpp), their triangles made again when the
  // cloth's topology changes.
  GpuMesh ropes_;
  std::vector<LitVertex> ropeVertices_;
  std::vector<std::uint32_t> ropeIndices_;
  std::uint64_t ropeTopology_ = 0;
  // The open seams' threads, made anew each frame.
  GpuMesh seams_;
  std::vector<LitVertex> seamVertices_;
  std::vector<std::uint32_t> seamIndices_;
  std::vector<ColliderMesh> colliders_;
  VertexArray emptyVao_;  // for the shaders that make their vertices from gl_VertexID
  // Marker positions, in this order: the pins, the grabbed vertex, the
  // hovered vertex; one buffer, one draw per kind.
  VertexArray markerVao_;
  Buffer markerBuffer_;
  std::vector<glm::vec3> markers_;
  std::size_t markerCapacity_ = 0;
  PixelRect edgeArea_;
  float floorHeight_ = 0.0f;
  bool floorFromPlane_ = false;
  bool newTopology_ = true;
};

}  // namespace drape::render
