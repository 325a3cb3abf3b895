#include "render/normals.hpp"

namespace drape::render {

void computeVertexNormals(const std::vector<glm::vec3>& positions,
                          const std::vector<glm::uvec3>& triangles,
                          std::vector<glm::vec3>& normals) {
  normals.assign(positions.size(), glm::vec3(0.0f));
  for (const glm::uvec3& t : triangles) {
    const glm::vec3 n =
        glm::cross(positions[t.y] - positions[t.x], positions[t.z] - positions[t.x]);
    normals[t.x] += n;
    normals[t.y] += n;
    normals[t.z] += n;
  }
  for (glm::vec3& n : normals) {
    const float len2 = glm::dot(n, n);
    n = len2 > 1e-30f ? n / std::sqrt(len2) : glm::vec3(0.0f, 1.0f, 0.0f);
  }
}

}  // namespace drape::render
