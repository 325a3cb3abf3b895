#pragma once
// Triangle meshes of the collider shapes, in each shape's local frame (the
// frame of sim::Collider: centre at the origin, capsule axis along +y), with
// outward normals. Built once per scene; the pose moves them each frame.

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/sim.hpp"

namespace drape::render {

// The vertex layout of every lit mesh (cloth and colliders).
struct LitVertex {
  glm::vec3 position;
  glm::vec3 normal;
};

struct PrimitiveMesh {
  std::vector<LitVertex> vertices;
  std::vector<std::uint32_t> indices;  // triangles, counter-clockwise from outside
};

PrimitiveMesh makeSphereMesh(float radius, int slices = 48, int stacks = 24);
// Cylinder of `halfLength` along y between two hemispheres of `radius`.
PrimitiveMesh makeCapsuleMesh(float radius, float halfLength, int slices = 48, int stacks = 24);
PrimitiveMesh makeBoxMesh(const glm::vec3& halfExtents);
// A mesh collider's triangles with its angle-weighted vertex normals.
PrimitiveMesh makeShapeMesh(const sim::MeshShape& shape);

}  // namespace drape::render
