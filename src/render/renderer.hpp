#pragma once
// Draws a sim::World: background, floor with its grid, planar shadows, the
// cloth (two-sided), the colliders at their current poses and the pins. Reads
// the world, never writes it. Needs a current OpenGL 3.3 core context from
// creation to destruction.

#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "render/camera.hpp"
#include "render/cloth_view.hpp"
#include "render/gpu_mesh.hpp"
#include "render/program.hpp"
#include "render/shader_files.hpp"
#include "sim/result.hpp"
#include "sim/world.hpp"

namespace drape::render {

// Colours (sRGB) and light of the picture.
struct Look {
  glm::vec3 clothFront{0.86f, 0.42f, 0.26f};  // warm terracotta
  glm::vec3 clothBack{0.50f, 0.17f, 0.22f};   // darker wine red
  glm::vec3 collider{0.70f, 0.71f, 0.74f};    // neutral grey
  glm::vec3 pin{1.00f, 0.84f, 0.18f};         // yellow, apart from every other colour
  glm::vec3 skyTop{0.33f, 0.39f, 0.48f};      // zenith
  glm::vec3 skyBottom{0.72f, 0.74f, 0.77f};   // horizon, and the far floor's fog
  // Towards the key light, in view space (x right, y up, z towards the
  // viewer): the light turns with the camera, so whatever side of the cloth
  // is looked at is lit, from a little above and left of the viewer.
  glm::vec3 keyLightInView = glm::normalize(glm::vec3(-0.3f, 0.45f, 0.85f));
  // Shadows fall almost straight down, whatever lights the cloth: a floor
  // shadow then shows where things are above the floor, which is its use here.
  glm::vec3 shadowDir = glm::normalize(glm::vec3(-0.12f, 1.0f, 0.10f));
  glm::vec4 shadow{0.05f, 0.06f, 0.09f, 0.30f};
  float pinRadius = 0.025f;  // m
};

class Renderer {
 public:
  // The shader files the renderer needs (for loadShaderSources).
  static const std::vector<std::string>& shaderFiles();
  // Compile and link every program; fails with a one-line message.
  static Result<Renderer> create(const ShaderSources& sources);

  // A new or rebuilt scene: collider meshes, floor height, cloth topology.
  void setScene(const sim::World& world);
  // Draw one frame into the default framebuffer of `fbWidth` × `fbHeight`
  // pixels (the camera's viewport is in screen coordinates, which may differ).
  void draw(const sim::World& world, const Camera& camera, int fbWidth, int fbHeight);

  Look look;

 private:
  struct ColliderMesh {
    std::size_t collider;  // index in world.colliders
    GpuMesh mesh;
  };

  void drawLitMeshes(const sim::World& world, const Program& program);
  void drawPins(const sim::World& world, const Camera& camera, int fbHeight);

  Program mesh_, shadow_, floor_, background_, pin_;
  ClothView cloth_;
  std::vector<ColliderMesh> colliders_;
  VertexArray emptyVao_;  // for the shaders that make their vertices from gl_VertexID
  VertexArray pinVao_;
  Buffer pinBuffer_;
  std::vector<glm::vec3> pinPositions_;
  std::size_t pinCapacity_ = 0;
  float floorHeight_ = 0.0f;
  bool floorFromPlane_ = false;
  bool newTopology_ = true;
};

}  // namespace drape::render
