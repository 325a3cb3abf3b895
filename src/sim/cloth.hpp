#pragma once
// Rest data of a cloth: what the mesh is at rest and the
// constraints built from it. Per-step state lives in world.hpp. Changing the
// rest data (tearing) is an explicit operation, never a side effect of a step.

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/mesh.hpp"

namespace drape::sim {

// One flat array per constraint kind. Every kind carries a
// material multiplier `stiffness` of the global parameter (k_stretch or
// k_bend): the constraint's own PBD stiffness is min(1, k × stiffness), made
// per iteration count (PBD) or into a compliance (XPBD) like the global one.
// Pieces of different cloth in one world (the bag scene, paper Fig. 3) differ
// by it; at 1 everywhere the solve is exactly that of the global value.
struct StretchConstraint {
  std::uint32_t a, b;
  float rest;              // m
  float stiffness = 1.0f;  // × k_stretch
  float area = 0.0f;       // m², a third of the rest area of the triangles beside it
};

// Vertices in the convention of evalDihedral: v[0], v[1] opposite the shared
// edge v[2]→v[3].
struct BendConstraint {
  std::uint32_t v[4];
  float restAngle;          // rad, signed
  float restLength = 1.0f;  // m, of the shared edge (bounds one projection's move)
  float restArea = 1.0f;    // m², twice the rest area of the two triangles
  float stiffness = 1.0f;   // × k_bend
};

struct IsoBendConstraint {
  std::uint32_t v[4];
  float q[4][4];
  float rest;               // ½ Σ Q_ij xi·xj at rest
  float restLength = 1.0f;  // m, of the shared edge (bounds one projection's move)
  float stiffness = 1.0f;   // × k_bend
};

// Ropes (strands): polylines of cloth vertices, each segment a stretch and
// each inner vertex a turn (evalRodAngle), solved rope by rope in one
// system (solve/ropes.hpp). A rope's segments and turns are contiguous:
// segments [segmentBegin, segmentEnd), turns [turnBegin, turnEnd), turn j
// of a rope at the vertex between its segments j and j + 1.
struct RopeSegment {
  std::uint32_t a, b;
  float rest;  // m
};
struct RopeTurn {
  std::uint32_t v[3];  // x0, x1 (the turn), x2
  float restAngle;     // rad, ≥ 0
  float length;        // m, half of the two segments' rest lengths
};
struct Rope {
  std::uint32_t segmentBegin, segmentEnd, turnBegin, turnEnd;
};

// A seam (sewing): two vertices pulled together and then held, as Houdini
// Vellum's stitch whose rest length shrinks to zero or Blender's sewing
// springs (solve/seams.hpp). `gap` is their distance at rest, where the
// closing starts from.
struct Seam {
  std::uint32_t a, b;
  float gap;  // m
};

struct Cloth {
  std::vector<glm::uvec3> triangles;
  // Texture coordinates per triangle corner (TriMesh::cornerUVs), or empty.
  // Tearing re-points triangles at new vertices and never reorders them, so
  // these stay valid through every tear.
  std::vector<glm::vec2> cornerUVs;
  std::vector<glm::vec3> restPositions;
  std::vector<float> mass;  // kg per vertex
  std::vector<StretchConstraint> stretch;
  std::vector<BendConstraint> bend;
  std::vector<IsoBendConstraint> isoBend;
  std::vector<RopeSegment> ropeSegments;
  std::vector<RopeTurn> ropeTurns;
  std::vector<Rope> ropes;
  // Kept through tearing: a split vertex's seams go with its larger side.
  std::vector<Seam> seams;

  // Balloon (paper §4.4): the overpressure constraint acts only on a closed,
  // consistently oriented mesh.
  bool closed = false;
  bool pressureActive = false;
  float restSixVolume = 0.0f;  // 6 V0

  // Connected pieces, for damping per piece (paper §3.5).
  std::vector<std::uint32_t> piece;  // piece index per vertex
  std::uint32_t pieceCount = 0;

  MeshReport report;
  std::vector<std::uint32_t> inputToVertex;
  // Set anew by every change of the constraints (derived data keys on it),
  // from nextVersion(): no two topologies in the process share one.
  std::uint64_t topologyVersion = 0;

  std::size_t vertexCount() const { return restPositions.size(); }
  // The mean rest length of the edges (m), remembered for the topology it
  // was found for: the plan of every frame reads it.
  float meanRestEdge() const;
  // How stiff a unit bending stiffness (1 N·m) makes the stiffest hinge
  // against its vertices' inertia: max over the hinges of k_e Σ w_i |∇_i θ|²
  // at rest (1/s², per N·m), remembered for the topology. A hinge of
  // stiffness D is stiff for a sub-step h where D h² times this is large:
  // sweeps then carry its bending no further than a few hinges.
  double bendingRate() const;

 private:
  mutable std::uint64_t meanEdgeTopology_ = UINT64_MAX;
  mutable std::size_t meanEdgeCount_ = 0;
  mutable float meanEdge_ = 0.0f;
  mutable std::uint64_t bendingRateTopology_ = UINT64_MAX;
  mutable std::size_t bendingRateCount_ = 0;
  mutable double bendingRate_ = 0.0;
};

// A number no earlier call in this process returned: the versions of
// topologies and pin sets, so that derived data made for one is never taken
// for another's (a copy of a world shares its original's, and may share its
// derived data).
std::uint64_t nextVersion();

// Build the rest data from a prepared (welded, manifold, oriented) mesh with
// surface density `density` [kg/m²]: each vertex gets a third of the mass of
// every triangle around it.
Cloth buildCloth(const PreparedMesh& prepared, float density);

// Recompute vertex masses (a third of each adjacent triangle's ρ·area).
void computeMasses(Cloth& cloth, float density);

// Add ropes along polylines of the cloth's vertices (each at least two
// distinct vertices in a row; none repeated within a polyline), their rest
// shape from restPositions. Rope vertices that are no triangle's get the
// mass of a strand of width tuning::kRopeWidth of the cloth's `density`
// (kg/m²) over half of each segment beside them. Pieces are recomputed.
void addRopes(Cloth& cloth, const std::vector<std::vector<std::uint32_t>>& polylines,
              float density);

// Cut a rope at its segment `segment` (an index into ropeSegments): the
// rope becomes the parts before and after it (a part of one vertex is no
// rope), each keeping its segments' and turns' rest values; the turns at
// the cut's two ends go. Masses stay. False (no change) for no such segment.
bool cutRopeSegment(Cloth& cloth, std::uint32_t segment);

// Recompute the connected pieces (`piece`, `pieceCount`) from the stretch
// constraints (the mesh's edges), numbered in vertex order.
void computePieces(Cloth& cloth);

}  // namespace drape::sim
