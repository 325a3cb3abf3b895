#pragma once
// The step of Position Based Dynamics (paper §3.1) and XPBD (Macklin et al.
// 2016) on top, with kernels over index ranges so colouring and
// threads can come later without touching the math.

#include <cstddef>

#include "sim/world.hpp"

namespace drape::sim {

// Advance one frame of `params.dt`, in `params.substeps` sub-steps.
void step(World& world);

// Kernels, exposed for tests and benchmarks. `k` is the per-iteration PBD
// stiffness (already linearised); `alphaTilde` is XPBD's α/Δt². `kEach` /
// `alphaEach`, where given, hold each constraint's own value (materials,
// cloth.hpp), indexed like `c`.
void solveStretchPbd(State& s, const StretchConstraint* c, std::size_t begin, std::size_t end,
                     float k, const float* kEach = nullptr);
void solveStretchXpbd(State& s, const StretchConstraint* c, std::size_t begin, std::size_t end,
                      float alphaTilde, float* lambda, const float* alphaEach = nullptr);
void solveBendPbd(State& s, const BendConstraint* c, std::size_t begin, std::size_t end, float k,
                  const float* kEach = nullptr);
void solveBendXpbd(State& s, const BendConstraint* c, std::size_t begin, std::size_t end,
                   float alphaTilde, float* lambda, const float* alphaEach = nullptr);
void solveIsoBendPbd(State& s, const IsoBendConstraint* c, std::size_t begin, std::size_t end,
                     float k, const float* kEach = nullptr);
void solveIsoBendXpbd(State& s, const IsoBendConstraint* c, std::size_t begin, std::size_t end,
                      float alphaTilde, float* lambda, const float* alphaEach = nullptr);
// The global overpressure constraint (paper §4.4), stiffness 1.
void solvePressure(State& s, const Cloth& cloth, float kPressure, std::vector<glm::vec3>& grad);
// Rigid-motion-preserving damping of velocities (paper §3.5), per piece,
// pinned vertices excluded.
void dampVelocities(World& world, float kDamping);

// Bending projections move no vertex further than this fraction of the
// hinge's rest length. Full projection (k' = 1) of the nonlinear angle
// constraints in Gauss-Seidel order diverges on badly distorted stencils
// (very soft stretch: neighbouring slivers amplify each move several-fold per
// pass); a uniform scale of all corrections keeps momentum conservation.
inline constexpr float kMaxBendMove = 0.25f;

// XPBD compliance units: α = (1/k − 1) · unit.
inline constexpr float kStretchComplianceUnit = 1e-3f;  // m/N
inline constexpr float kBendComplianceUnit = 0.5f;      // rad²/J (dihedral; isometric alike)

}  // namespace drape::sim
