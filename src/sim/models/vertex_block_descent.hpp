#pragma once
// Vertex Block Descent (Chen, Liu, Yang and Yuksel 2024, "Vertex Block
// Descent"), solver=vbd: each iteration visits the vertices colour by colour
// and moves each one to lower the sub-step's incremental potential
//
//   G(x) = Σ_i m_i / (2h²) |x_i − y_i|² + Σ_c ½ k_c C_c(x)²,
//
// y the inertial prediction (x + h v + h² g, the sub-step's p before the
// iterations), holding every other vertex fixed: one Newton step on the
// vertex's 3×3 block, x_i ← x_i + H_i⁻¹ f_i with
//
//   f_i = −m_i/h² (x_i − y_i) − Σ_c k_c C_c ∇_i C_c,
//   H_i =  m_i/h² I + Σ_c k_c ∇_i C_c ∇_i C_cᵀ  (+ the stretch's own
//          curvature k (1 − l/|d|)(I − d̂ d̂ᵀ) where an edge is longer than rest).
//
// The constraints are the position-based solvers' own: stretch |d| − l per
// edge and the bending of the `bending` model (dihedral angle, or isometric
// (Bergou et al. 2006)). Their stiffness k = 1/α is XPBD's compliance α
// from k_stretch and k_bend (params.hpp), so the sliders mean what
// they mean to XPBD; a rigid edge (k_stretch 1, α = 0) takes kStiffest.
// Vertices of one colour share no constraint, so a colour's updates are
// independent: they run on the solver's threads and the result is the same
// on any thread count. Contacts, pressure, the hand and attachments keep
// their position-based projections after the vertices (step/stages.cpp), and
// Chebyshev acceleration (chebyshev.hpp) applies as to PBD.

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth.hpp"
#include "sim/state.hpp"
#include "sim/tuning.hpp"

namespace drape::sim {

// What the vertex sweeps need from the mesh, remade when its topology or
// the bending model changes: the vertices by colour, and each vertex's
// edges and bending stencils (stencil index × 4 + the vertex's place in it).
struct VbdTopology {
  std::vector<std::uint32_t> colourStart, byColour;
  std::vector<std::uint32_t> edgeStart, edges;
  std::vector<std::uint32_t> stencilStart, stencils;
  std::uint64_t version = UINT64_MAX;
  bool isometric = false;
};

void buildVbdTopology(const Cloth& cloth, bool isometric, VbdTopology& topology);

// The stiffnesses of one sub-step: k of a constraint is base × its own
// multiplier, turned into 1/α.
struct VbdStiffness {
  float kStretch = 1.0f, kBend = 1.0f;  // the sliders
  float h = 1.0f;                       // the sub-step, s
};
// 1/α for XPBD's k with its compliance unit (params.hpp), at most
// tuning::kVbdStiffest; 0 for k = 0.
float vbdStiffness(float k, float unit);

// Vertex i's block of the incremental potential at positions `pts`: the
// force f (−∇_i G) and the 3×3 block H, and G's terms that involve i.
struct VbdBlock {
  glm::vec3 force{0.0f};
  glm::mat3 hessian{0.0f};
  double energy = 0.0;
};
VbdBlock vbdBlock(const Cloth& cloth, const VbdTopology& topology, const Points& pts,
                  const glm::vec4* target, const VbdStiffness& k, std::uint32_t i);

// One Newton step for each vertex byColour[begin, end) with a free mass.
void vbdSweep(const Cloth& cloth, const VbdTopology& topology, const Points& pts,
              const glm::vec4* target, const VbdStiffness& k, std::uint32_t begin,
              std::uint32_t end);

}  // namespace drape::sim
