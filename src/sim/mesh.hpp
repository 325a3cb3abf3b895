#pragma once
// Triangle meshes as they arrive (from a generator or a file) and their
// preparation into a clean manifold that the cloth can be built on (Müller et al. 2007).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "sim/result.hpp"

namespace drape::sim {

struct TriMesh {
  std::vector<glm::vec3> positions;
  std::vector<glm::uvec3> triangles;  // counter-clockwise seen from the front
  // Texture coordinates per triangle corner (3 per triangle, in the order of
  // `triangles`), or empty. Per corner, not per vertex: a UV seam (one
  // position, two texture coordinates) stays one simulated vertex, and a torn
  // vertex keeps each corner's coordinate.
  std::vector<glm::vec2> cornerUVs;
  // Ropes: polylines of vertices that no triangle uses (cloth.hpp).
  std::vector<std::vector<std::uint32_t>> strands;
  // Seams (sewing): pairs of vertices of the triangles, in this mesh's
  // vertex order, pulled together and then held (cloth.hpp, Seam).
  std::vector<glm::uvec2> seams{};

  bool hasUVs() const { return !cornerUVs.empty(); }
};

// What preparation changed, for the user (mesh facts panel, warnings).
struct MeshReport {
  std::size_t inputVertices = 0;
  std::size_t inputTriangles = 0;
  std::size_t weldedVertices = 0;       // vertices merged into another at the same position
  std::size_t unusedVertices = 0;       // vertices no triangle referenced (dropped)
  std::size_t degenerateTriangles = 0;  // zero-area or repeated-index triangles (dropped)
  std::size_t duplicateTriangles = 0;   // same three vertices twice (dropped)
  std::size_t nonManifoldEdges = 0;     // edges with more than two triangles (split apart)
  std::size_t flippedTriangles = 0;     // re-oriented to agree with their neighbours
  std::size_t weldedSeams = 0;          // seams whose two ends welded into one vertex (dropped)
  std::size_t boundaryEdges = 0;
  std::size_t pieces = 0;  // connected components
  bool closed = false;     // every edge has two triangles
  bool orientable = true;  // false: some piece could not be oriented consistently

  // One line per repair, empty when the mesh needed none.
  std::vector<std::string> repairs() const;
};

struct PreparedMesh {
  TriMesh mesh;
  // For every input vertex, its index in mesh.positions (or UINT32_MAX when it was dropped).
  std::vector<std::uint32_t> inputToVertex;
  MeshReport report;
  // The input's strands (TriMesh::strands) as points, and the input vertex
  // of each: buildCloth appends them after the mesh's vertices as ropes.
  std::vector<std::vector<glm::vec3>> strands;
  std::vector<std::vector<std::uint32_t>> strandInputs;
};

struct PrepareOptions {
  // Vertices closer than weldTolerance × (bounding box diagonal) are merged.
  float weldTolerance = 1e-6f;
};

// Weld, drop degenerate and duplicate triangles and unused vertices, split
// non-manifold edges, orient every piece consistently (outward for closed
// pieces). Fails only when nothing usable is left or input is not finite.
// A mesh of strands alone (no triangles) is usable: its mesh is empty.
Result<PreparedMesh> prepareMesh(const TriMesh& input, const PrepareOptions& options = {});

// Smooth per-vertex normals: each vertex gets the normalised sum of
// (b − a) × (c − a) over its triangles, the face normal scaled by twice the
// face's area, so large faces weigh more and slivers barely count. A vertex
// whose sum vanishes (no triangle, or only degenerate ones) gets +y.
// `normals` is resized, its storage reused from call to call.
void computeVertexNormals(const std::vector<glm::vec3>& positions,
                          const std::vector<glm::uvec3>& triangles,
                          std::vector<glm::vec3>& normals);
// A vertex's summed triangle normals made unit length as above (+y when the
// sum vanishes).
glm::vec3 normalizedVertexNormal(glm::vec3 sum);

// 6 × the signed enclosed volume (Müller et al. 2007, §4.4): Σ (p_a × p_b) · p_c.
float sixVolume(const std::vector<glm::vec3>& positions, const std::vector<glm::uvec3>& triangles);

// The mean length of the mesh's edges, each counted once (0 without any).
float meanEdgeLength(const TriMesh& mesh);

}  // namespace drape::sim
