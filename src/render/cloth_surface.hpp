#pragma once
// What the cloth's surface shading needs besides positions and normals, on
// the CPU, with no GL:
//
// - The layout of its vertices as drawn. A vertex whose triangle corners
//   carry different texture coordinates (a UV seam) is drawn once per
//   coordinate, so each drawn vertex has one; the weave pattern of
//   shaders/mesh.frag reads them. Without UVs the drawn vertices are the
//   simulated ones.
// - How far each vertex lies in a fold: the cloth bent towards one side
//   shades that side darker there, a cheap stand-in for ambient occlusion.

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/sim.hpp"

namespace drape::render {

struct SurfaceLayout {
  std::vector<std::uint32_t> source;   // per drawn vertex: the simulated vertex
  std::vector<glm::vec2> uvs;          // per drawn vertex; empty without UVs
  std::vector<std::uint32_t> indices;  // triangles of drawn vertices, as cloth.triangles
  // Rest length per unit of texture coordinate, averaged over the triangles'
  // edges (0 without UVs, or when they do not vary): what makes the weave's
  // threads the same size in metres on any mesh.
  float metresPerUV = 0.0f;
};

// The layout of `cloth` (its triangles, corner UVs and rest positions);
// `out`'s storage is reused.
void layoutSurface(const sim::Cloth& cloth, SurfaceLayout& out);

// Per vertex, how deep in a fold it lies, in [−1, 1]: positive where the
// surface bends towards its normal's side (that side is the inside of the
// fold), negative where it bends away. From the umbrella vector u (the mean
// of the vertex's neighbours, over its triangles, less the vertex): a
// neighbour at distance s on a surface of mean curvature H lies about
// H·s²/2 off the tangent plane, so H ≈ 2 u·n / h² with h² the mean squared
// distance to the neighbours (1/R on a sphere of radius R, 1/(2R) on a
// cylinder), and fold = clamp(H · radius): `radius` is the bend radius that
// counts as a full fold. Averaged once with the neighbours, so that a
// crease shades a band a few vertices wide.
// `fold` and `scratch` are resized and their storage reused.
void computeFold(const std::vector<glm::vec3>& positions, const std::vector<glm::vec3>& normals,
                 const std::vector<glm::uvec3>& triangles, float radius, std::vector<float>& fold,
                 std::vector<glm::vec4>& scratch);

}  // namespace drape::render
