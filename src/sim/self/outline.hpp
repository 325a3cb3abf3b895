#pragma once
// Whether the outline of a patch of surface, seen along a direction all its
// triangles face (within 90°), is one simple closed curve. The number of
// triangles over a point of the plane is then the outline's winding number
// about it, 1 inside and 0 outside: no two triangles of the patch meet, so
// the patch cannot pass through itself (Volino & Magnenat-Thalmann 1994).
// A narrow cone of normals alone does not do: a flat strip wound round in
// its own plane passes through itself with every normal parallel.

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace drape::sim {

// A side of the outline, from vertex `from` at p to vertex `to` at q (in
// the plane across the direction), as its triangle runs round it.
struct OutlineSide {
  glm::dvec2 p, q;
  std::uint32_t from, to;
};

struct OutlineScratch {
  // Per vertex: the side it starts, and the call that set it.
  std::vector<std::uint32_t> start, stamp;
  std::uint32_t call = 0;
  // The sides by cell of a grid (CSR), and each side's cells (x0, y0, x1, y1).
  std::vector<std::uint32_t> cellStart, fill, cell;
  std::vector<glm::ivec4> span;
};

// True where the sides form one loop, every vertex the start of one side,
// and no two sides that do not follow one another meet. Cheap where every
// side turns counter-clockwise round the corners' mean, once round (a
// star-shaped outline: Schvartzman, Pérez and Otaduy 2010); otherwise the
// sides are bucketed on a grid and the sides in each cell tested in pairs.
bool simpleOutline(const std::vector<OutlineSide>& sides, OutlineScratch& scratch);

}  // namespace drape::sim
