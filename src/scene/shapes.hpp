#pragma once
// Mesh generators for the built-in scenes.

#include <cstdint>

#include <glm/glm.hpp>

#include "sim/sim.hpp"

namespace drape::scene {

// A square grid of n×n vertices spanning `size` metres in x and z, centred on
// `center`, normal +y, two triangles per quad with alternating diagonals.
// Vertex (i, j) (i along x, j along z) has index j·n + i and UV (i, j) / (n − 1).
sim::TriMesh makeGrid(int n, float size, const glm::vec3& center);

// An icosahedron subdivided `levels` times, projected onto a sphere; outward
// orientation. levels = 3 gives 642 vertices and 1280 triangles.
sim::TriMesh makeIcosphere(int levels, float radius, const glm::vec3& center);

// A rectangular sheet of nu × nv vertices from `origin` along the edges
// `uEdge` (nu vertices) and `vEdge` (nv vertices), normal along uEdge × vEdge,
// alternating diagonals. Vertex (i, j) has index j·nu + i and UV
// (i / (nu − 1), j / (nv − 1)).
sim::TriMesh makeSheet(int nu, int nv, const glm::vec3& origin, const glm::vec3& uEdge,
                       const glm::vec3& vEdge);

// A gingerbread figure about 1.1 m tall (× scale), standing along +y with
// its front towards +z and its torso's centre at `center`: torso, head, two
// arms and two legs, blended smoothly into one surface. An icosphere of
// `levels` subdivisions is projected onto it along rays from the torso's
// centre (the figure is star-shaped about that point) and then relaxed
// along the surface, so the result is a single closed, outward-oriented
// manifold of the icosphere's size (levels = 4: 2562 vertices).
sim::TriMesh makeCharacter(int levels, float scale, const glm::vec3& center);

}  // namespace drape::scene
