#pragma once
// Rigid-motion-preserving damping of velocities (Müller et al. 2007 §3.5).

#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth.hpp"
#include "sim/state.hpp"

namespace drape::sim {

class ThreadTeam;

// Mass-weighted sums over some of a piece's vertices (damping).
struct PieceSums {
  glm::dvec3 x{0.0}, v{0.0}, L{0.0};  // Σ m x, Σ m v, Σ r × m v
  double mass = 0.0;
  // Σ m (|r|² 1 − r rᵀ), symmetric: xx, yy, zz, then xy, xz, yz.
  double inertia[6] = {};
  PieceSums& operator+=(const PieceSums& o) {
    x += o.x;
    v += o.v;
    L += o.L;
    mass += o.mass;
    for (int k = 0; k < 6; ++k) inertia[k] += o.inertia[k];
    return *this;
  }
};

// The sums per piece over a chunk of vertices, chunk-major (double: sums
// over many vertices); then per piece its centre of mass, velocity and
// angular velocity.
struct DampingScratch {
  std::vector<PieceSums> sums;
  std::vector<glm::dvec3> pieceX, pieceV, pieceOmega;
};

// Each piece's velocities pulled by kDamping towards the piece's rigid
// motion (its centre of mass's velocity and its angular velocity), pinned
// vertices excluded. The sums run in fixed chunks on the team's threads,
// added in chunk order: the same result on any thread count.
void dampVelocities(State& s, const Cloth& cloth, float kDamping, ThreadTeam& team,
                    DampingScratch& scratch);

}  // namespace drape::sim
