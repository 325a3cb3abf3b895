#pragma once
// Smooth per-vertex normals of a triangle mesh, recomputed from the current
// positions every frame (the cloth deforms, so no normal is ever constant).

#include <vector>

#include <glm/glm.hpp>

namespace drape::render {

// Each vertex gets the normalised sum of (b − a) × (c − a) over its triangles:
// that cross product is the face normal scaled by twice the face's area, so
// large faces weigh more and slivers barely count. Triangles are
// counter-clockwise seen from the front. A vertex whose sum vanishes (no
// triangle, or only degenerate ones) gets +y. `normals` is resized, and its
// storage reused from call to call.
void computeVertexNormals(const std::vector<glm::vec3>& positions,
                          const std::vector<glm::uvec3>& triangles,
                          std::vector<glm::vec3>& normals);

}  // namespace drape::render
