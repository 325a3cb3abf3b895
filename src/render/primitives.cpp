#include "render/primitives.hpp"

#include <cmath>

namespace drape::render {

PrimitiveMesh makeCapsuleMesh(float radius, float halfLength, int slices, int stacks) {
  // A UV sphere from the top pole (ring 0) to the bottom pole, whose upper
  // half is lifted by halfLength and lower half lowered by it. The equator
  // ring appears twice (once per half) so the quads between the copies form
  // the cylinder; their normals are the sphere's, which are the cylinder's.
  // A sphere is the capsule of half length 0, without the second ring.
  PrimitiveMesh mesh;
  stacks += stacks % 2;  // an even count puts a ring on the equator
  const float pi = 3.14159265358979f;
  std::vector<float> ringPhi, ringShift;
  for (int i = 0; i <= stacks; ++i) {
    const float phi = pi * float(i) / float(stacks);
    if (i == stacks / 2 && halfLength > 0.0f) {
      ringPhi.push_back(phi);
      ringShift.push_back(halfLength);
    }
    ringPhi.push_back(phi);
    ringShift.push_back(i < stacks / 2 ? halfLength : -halfLength);
  }
  const int rings = int(ringPhi.size());
  for (int r = 0; r < rings; ++r) {
    for (int s = 0; s <= slices; ++s) {
      const float theta = 2.0f * pi * float(s) / float(slices);
      const glm::vec3 n(std::sin(ringPhi[r]) * std::cos(theta), std::cos(ringPhi[r]),
                        -std::sin(ringPhi[r]) * std::sin(theta));
      mesh.vertices.push_back({radius * n + glm::vec3(0.0f, ringShift[r], 0.0f), n});
    }
  }
  const std::uint32_t row = std::uint32_t(slices + 1);
  for (int r = 0; r + 1 < rings; ++r)
    for (int s = 0; s < slices; ++s) {
      const std::uint32_t a = std::uint32_t(r) * row + std::uint32_t(s), b = a + 1;
      const std::uint32_t c = a + row, d = c + 1;
      // a b    (ring r, going round counter-clockwise seen from +y)
      // c d    (ring r + 1, below)
      // At the poles a = b (top) or c = d (bottom): leave out the empty triangle.
      if (r > 0) mesh.indices.insert(mesh.indices.end(), {a, c, b});
      if (r + 2 < rings) mesh.indices.insert(mesh.indices.end(), {b, c, d});
    }
  return mesh;
}

PrimitiveMesh makeSphereMesh(float radius, int slices, int stacks) {
  return makeCapsuleMesh(radius, 0.0f, slices, stacks);
}

PrimitiveMesh makeBoxMesh(const glm::vec3& h) {
  PrimitiveMesh mesh;
  // Each face: its normal n and two in-face axes u, v with u × v = n, so the
  // corners (−u−v, +u−v, +u+v, −u+v) run counter-clockwise seen from outside.
  const glm::vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int axis = 0; axis < 3; ++axis)
    for (float sign : {1.0f, -1.0f}) {
      const glm::vec3 n = sign * axes[axis];
      const glm::vec3 u = axes[(axis + 1) % 3];
      const glm::vec3 v = sign * axes[(axis + 2) % 3];
      const std::uint32_t base = std::uint32_t(mesh.vertices.size());
      for (const glm::vec2 c :
           {glm::vec2(-1, -1), glm::vec2(1, -1), glm::vec2(1, 1), glm::vec2(-1, 1)})
        mesh.vertices.push_back({h * (n + c.x * u + c.y * v), n});
      mesh.indices.insert(mesh.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
    }
  return mesh;
}

PrimitiveMesh makeShapeMesh(const sim::MeshShape& shape) {
  PrimitiveMesh m;
  m.vertices.reserve(shape.vertices.size());
  for (std::size_t i = 0; i < shape.vertices.size(); ++i)
    m.vertices.push_back({shape.vertices[i], shape.vertexNormals[i]});
  m.indices.reserve(3 * shape.triangles.size());
  for (const glm::uvec3& t : shape.triangles) {
    m.indices.push_back(t.x);
    m.indices.push_back(t.y);
    m.indices.push_back(t.z);
  }
  return m;
}

}  // namespace drape::render
