#pragma once
// The explicit mass-spring cloth (solver=mass-spring; Provot 1995),
// the model that PBD replaces, kept for comparison. Forces, not constraints:
//
// - structural springs on every edge, k = k_stretch · spring_stiffness;
// - shear/bend springs between the two vertices opposite each interior edge
//   (the outer vertices v[0], v[1] of the cloth's bend stencils; on a grid
//   these are the quad diagonals and the neighbours but one),
//   k = k_bend · spring_stiffness;
// - each spring f = k (l − l0) + c (v_b − v_a)·u along its direction u, with a
//   dashpot c = ζ · 2 √(k μ), μ the reduced mass of its two ends and the
//   damping ratio ζ = params.damping (1: critically damped; 0: none). PBD's
//   rigid-motion-preserving damping (§5) is not applied: per sub-step it would
//   scale with the substep count, and the dashpots keep momentum by themselves.
// - gravity, and for closed meshes (cloth.pressureActive) a gas pressure
//   P = (spring_stiffness / R) (k_pressure V0 / V − 1) on the area-weighted
//   normals, R the radius of the ball of volume V0. (balloon_model chooses the
//   constraints of PBD/XPBD; this solver has no constraints.)
//
// Symplectic (semi-implicit) Euler per sub-step: v += h M⁻¹ f, p = x + h v.
// Pins and the grab set p to their targets as in PBD's prediction. Collider
// and self contacts are then projected once onto p as position corrections,
// with PBD's friction (the step's plan for this solver), and the vertices
// they moved get v = (p − x) / h; restitution as in PBD.
//
// Its weakness: explicit integration is stable only for h ≲ 2/ω_max, and
// with the default spring_stiffness that is far shorter than a frame. So the
// step takes the sub-steps the limit needs (stable_substeps, on by
// default; substeps is then the least it takes); with it off, a step too
// long explodes and the watchdog (watchdog.hpp) rolls back and names the
// limit.

#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth.hpp"
#include "sim/params.hpp"
#include "sim/state.hpp"
#include "sim/tuning.hpp"

namespace drape::sim {

struct Spring {
  std::uint32_t a, b;
  float rest;  // m
};

// Structural springs [0, structural), then shear/bend springs; remade when
// the cloth's topology changes. Spring constants come from the parameters at
// each step, so they can change while running.
struct SpringSet {
  std::vector<Spring> springs;
  std::size_t structural = 0;
  std::uint64_t version = UINT64_MAX;  // the cloth topology they were built for
  std::vector<glm::vec3> force;        // N per vertex, this sub-step
  std::vector<glm::vec3> pressureGrad;
};

SpringSet buildSprings(const Cloth& cloth);

// The forces at (x, v) into set.force (gravity, the springs with their
// dashpots, the gas pressure), then one symplectic Euler step of h:
// v += h w f, p = x + h v.
void integrateSprings(const Cloth& cloth, const Params& params, State& s, float h, SpringSet& set);

// An estimate of the largest stable sub-step (s): h = 2/ω_max for the highest
// frequency of the springs linearised at the current positions (power
// iteration on M⁻¹K), lowered for the dashpots. Infinity when no free vertex
// has springs.
float massSpringStableStep(const Cloth& cloth, const State& s, const Params& params);

// massSpringStableStep's last answer and what it was computed from: named
// state (World::solver), since it is estimated at the positions of the
// moment its inputs change.
struct StableStepEstimate {
  float step = 0.0f;
  std::array<double, 7> key{};
  bool known = false;
};

// The estimate made again where the topology, the pins, the masses' scale
// or a spring parameter changed since it was made.
void updateStableStep(const Cloth& cloth, const State& s, const Params& params,
                      std::uint64_t pinsVersion, StableStepEstimate& estimate);

constexpr int kMostStableSubsteps = 1000;
int stableSubsteps(const Params& params, const StableStepEstimate& estimate);

}  // namespace drape::sim
