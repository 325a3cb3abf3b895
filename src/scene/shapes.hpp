#pragma once
// Mesh generators for the built-in scenes.

#include <cstdint>

#include <glm/glm.hpp>

#include "sim/mesh.hpp"

namespace drape::scene {

// A square grid of n×n vertices spanning `size` metres in x and z, centred on
// `center`, normal +y, two triangles per quad with alternating diagonals.
// Vertex (i, j) (i along x, j along z) has index j·n + i.
sim::TriMesh makeGrid(int n, float size, const glm::vec3& center);

// An icosahedron subdivided `levels` times, projected onto a sphere; outward
// orientation. levels = 3 gives 642 vertices and 1280 triangles.
sim::TriMesh makeIcosphere(int levels, float radius, const glm::vec3& center);

}  // namespace drape::scene
