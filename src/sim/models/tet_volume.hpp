#pragma once
// Balloons from tetrahedra (balloon_model=tets; volume constraints per tetrahedron):
// every surface triangle of a closed piece and an interior point form a
// tetrahedron with its own volume constraint (evalTetVolume), instead of one
// global overpressure constraint over the whole mesh.
//
// The interior point. The seed joins each triangle to the sphere's centre
// (and, for other shapes, to the centres of spheres packed inside); it does
// not say how the centre moves. Here an interior point is the mass-weighted
// centroid of a set of the piece's vertices, so it moves with the shell and
// is no extra particle. Its gradient is honoured: the centroid's share of a
// correction, Δp_j = −s w_j (m_j / M) ∇_c C, is the same translation −s ∇_c C / M
// of every free member, so the projection conserves linear momentum like the
// paper's internal constraints (§3.3). That translation is summed over one
// pass and applied after it (it leaves the tetrahedra of a fully free piece
// unchanged, which are translation invariant).
//
// Which interior points. The piece's centroid, when every triangle has a
// positive rest volume with it (convex and star-shaped pieces). Otherwise
// (non-convex pieces: a dumbbell, a torus) the triangles are clustered by
// position (k-means, k = 2…8) and each cluster's vertex centroid is a
// candidate too; each triangle takes the nearest candidate that stands at
// least 1 % of the piece's size behind it. Triangles with no such candidate
// get no tetrahedron (counted in `skipped`).
//
// Tetrahedra are built for each closed, outward-oriented piece while the
// cloth is a balloon (cloth.pressureActive, the same condition as the
// pressure model), and rebuilt when the topology changes: a torn balloon is
// open and loses them, as it loses its pressure.

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth.hpp"
#include "sim/params.hpp"
#include "sim/state.hpp"

namespace drape::sim {

// A surface triangle (outward: counter-clockwise seen from outside) and the
// interior point it is joined to.
struct VolumeTet {
  std::uint32_t v[3];
  std::uint32_t centre;  // index into TetVolumes::centres
  float restSixVolume;   // m³, six times the rest volume (> 0)
};

// An interior point: the mass-weighted centroid of members[begin, end).
struct TetCentre {
  std::uint32_t begin, end;
  float mass;  // kg, Σ of the members' masses
};

struct TetVolumes {
  std::vector<VolumeTet> tets;
  std::vector<TetCentre> centres;
  std::vector<std::uint32_t> members;
  std::vector<float> weight;           // m_j / M of each member in its centre
  std::size_t skipped = 0;             // triangles of closed pieces left without a tetrahedron
  std::uint64_t version = UINT64_MAX;  // the cloth topology they were built for
  // Solver scratch, per centre: position, free mass, translation of the pass.
  std::vector<glm::dvec3> centrePos;
  std::vector<double> freeMass;
  std::vector<glm::vec3> shift;
};

// The tetrahedra of every closed piece of `cloth`, from its rest positions
// and masses (empty unless cloth.pressureActive).
TetVolumes buildTetVolumes(const Cloth& cloth);

// One Gauss-Seidel pass over the tetrahedra, stiffness 1 (like the pressure
// constraint), target volume k_pressure · V0 each.
void solveTetVolumes(State& s, TetVolumes& tets, float kPressure);

// The balloon constraint of the PBD/XPBD iterations: the global pressure
// constraint or, for balloon_model=tets, the tetrahedra `tets` (built for
// the cloth's topology). Call only when cloth.pressureActive. `grad` is
// scratch.
void solveBalloon(State& s, const Cloth& cloth, const Params& params, TetVolumes& tets,
                  std::vector<glm::vec3>& grad);
// The global overpressure constraint (Müller et al. 2007 §4.4), stiffness 1:
// C = Σ (p_a × p_b)·p_c − kPressure · 6V0 over the cloth's triangles.
void solvePressure(State& s, const Cloth& cloth, float kPressure, std::vector<glm::vec3>& grad);

}  // namespace drape::sim
