#pragma once
// XPBD carried to its answer within a sub-step: one augmented-Lagrangian
// Newton step after the iterations (solver=xpbd, `newton_cg`).
//
// Why: at h = 1/120 s a hinge's Σ w|∇θ|² is about 10⁸ against an α̃ of
// about 10⁴, so within an iteration Gauss-Seidel treats the hinges as rigid
// and XPBD's compliance hardly enters; a bending load then crosses the cloth
// one ring of hinges per sweep, and where the iterations stop, not k_bend,
// decides the shape.
//
// The step (the sub-step's incremental potential, the stretch and bending
// constraints C with compliances α̃ and multipliers λ from the sweeps; per
// constraint κ = s / (1 + s α̃) for a penalty s, the augmented Lagrangian of
// C + α̃ λ = 0, which for a stiff constraint is s and for a soft one 1/α̃):
//
//     (M + Σ κ ∇C ∇Cᵀ + G) Δx = M (x̃ − x) + Σ ∇C (λ − κ (C + α̃ λ))
//     λ ← λ − κ (C + α̃ λ + ∇C·Δx)
//
// with G the taut edges' λ ∇²C. Hinges stiffer than their penalty stay with
// the sweeps, and the move is bounded (kNewtonMaxMove).
//
// Its fixed point is XPBD's: M (x − x̃) = Σ ∇C λ with C + α̃ λ = 0, whatever
// the budget. The linear system is solved by conjugate gradients (matrix
// free, on the constraints' gradients at the sub-step's positions),
// preconditioned by each vertex's 3 × 3 block plus a Galerkin coarse
// correction P (Pᵀ A P)⁻¹ Pᵀ on a coarse level of the hierarchy
// (hierarchy.hpp: each vertex as weights over the level's vertices): the
// coarse level carries what the blocks cannot, across the cloth (with the
// blocks alone, a clamped strip still hangs far too low when the iterations
// stop). Pinned vertices (inverse mass 0) do not move.

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace drape::sim {

struct Cloth;
struct Coefficients;
struct PackedBend;
struct PackedStretch;
struct Points;

// Cholesky factor of a symmetric positive definite matrix kept in its
// envelope (each row from its first non-zero column), for the coarse level.
struct EnvelopeCholesky {
  int n = 0;
  std::vector<double> a;  // n × n, row-major; the factor in the lower triangle
  std::vector<int> first;
  // Factor the lower triangle of `a`; false where it is not positive
  // definite (the factor is then unusable).
  bool factor();
  void solve(double* b) const;  // b ← A⁻¹ b
};

// Each cloth vertex as weights over the vertices of one coarse level:
// vertex i is Σ weight[k] · coarse vertex index[k], k in [start[i], start[i + 1]).
struct NewtonCoarse {
  std::vector<std::uint32_t> start, index;
  std::vector<double> weight;
  std::vector<std::uint32_t> vertex;  // the coarse vertices (cloth indices)
  std::uint64_t topology = UINT64_MAX, pins = UINT64_MAX;
};

// The finest level with at most this many vertices (else the coarsest
// there is): its factor costs about (3 n)³ / 3 at worst, and a small level
// converges the step about as fast as a larger one.
constexpr std::size_t kNewtonCoarseMost = 64;

// The coarse space over the hierarchy of `cloth` with inverse masses `w`.
NewtonCoarse buildNewtonCoarse(const Cloth& cloth, const std::vector<float>& w);

// The coarse matrix that preconditions the step, factored: made at the
// positions of the frame it was made in, so named state (World::solver),
// copied with the world.
struct NewtonPreconditioner {
  EnvelopeCholesky factor;
  std::vector<int> dof;  // per coarse vertex: its dof block, or −1 (pinned)
  bool ready = false;
  std::uint64_t frame = UINT64_MAX;  // the frame the factor was made in
  // The topology and pins of the coarse space it was made for.
  std::uint64_t topology = UINT64_MAX, pins = UINT64_MAX;
};

// The step's coarse space (remade when the topology or the pins change) and
// its buffers.
struct NewtonScratch {
  NewtonCoarse coarse;
  std::vector<glm::vec4> predicted;  // x̃, in the solve buffer's frame
  std::vector<double> mass;          // per vertex; 0 where it does not move
  // Per stretch constraint C and ∇C at its two ends, per hinge C and ∇C at
  // its four (0 at a vertex that does not move), and each one's κ.
  std::vector<double> stretchC, bendC;
  std::vector<glm::dvec3> stretchGrad, bendGrad;
  std::vector<double> stretchKappa, bendKappa;
  std::vector<glm::dvec3> stretchDir;  // the edge's direction
  std::vector<double> stretchTension;  // −λ / length where λ < 0 (taut), else 0
  std::vector<glm::dvec3> rhs, x, r, z, d, ad;
  std::vector<glm::dmat3> blockInverse;
  std::vector<double> coarseWork;
  std::vector<glm::dvec3> coarseGrad;
  std::vector<std::uint8_t> coarseMark;
  std::vector<std::uint32_t> touched;
};

// Frames between two coarse matrices (they only precondition; each costs
// an outer product of every constraint's coarse gradient).
constexpr std::uint64_t kNewtonCoarseFrames = 8;

// The penalty s of the step per kilogram of an edge's vertices: stiffer
// than their inertia, so a rigid edge keeps its length through the step
// (the sweeps' multipliers carry the rest), but not so stiff that a few
// iterations of conjugate gradients cannot solve it (far stiffer, a clamped
// strip flaps about its clamp; below that, the result hardly depends on it).
// A hinge's, per kilogram-metre², is far higher: its multiplier from the
// sweeps is that of a rigid hinge, and a step with κ short of 1/α̃ keeps
// part of it, and with it too stiff a shape.
constexpr double kNewtonPenalty = 1e2, kNewtonBendPenalty = 1e6;

// The longest move of a vertex in one step, in mean rest edges.
constexpr double kNewtonMaxMove = 0.25;

// One step on the solve buffer `pts` (positions relative to its origin, as
// `predicted` is), with the multipliers of the sweeps (packed order) and the
// coefficients' α̃; `refreshCoarse` makes the coarse matrix again at the
// current positions (once a frame: it only preconditions, the step solves
// with the current gradients). Conjugate gradients until the residual has
// fallen by `tolerance` (its norm in the preconditioner's metric), at most
// `iterations`.
void newtonStep(const Points& pts, const PackedStretch& stretch, const PackedBend& bend,
                const Coefficients& c, float* lambdaStretch, float* lambdaBend, int iterations,
                double tolerance, bool refreshCoarse, NewtonScratch& scratch,
                NewtonPreconditioner& coarse);

}  // namespace drape::sim
