#pragma once
// Hierarchical position based dynamics (Müller 2008, "Hierarchical Position
// Based Dynamics"). Gauss-Seidel carries a correction about one edge per
// sweep, so a cloth of N² vertices needs ~N sweeps before a load reaches
// the far side: with a fixed budget, the finer the mesh, the more it
// stretches. A hierarchy of coarser meshes carries it across in a few
// sweeps at any resolution.
//
// Each level keeps a subset of the finer level's vertices (a maximal
// independent set of its graph, pinned vertices first); every finer vertex
// not kept follows its kept neighbours (its parents) with weights by inverse
// rest distance. Coarse vertices are joined by *unilateral* distance
// constraints between vertices two or three finer edges apart,
//
//      c1 ── f ── c2          c1 ── f1 ── f2 ── c2       |p_c1 − p_c2| ≤ rest
//
// rest being their distance at rest (at least 90 % of the path along the
// edges where the rest shape curves): a limit a flat cloth cannot exceed
// without stretching, so the coarse levels resist stretch only, never
// bending or compression. A pass solves the coarsest level first, hands each
// level's corrections down to the vertices it does not keep, and ends at the
// cloth's own constraints.

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace drape::sim {

struct Cloth;
struct Points;
class ThreadTeam;

// A level with at least this many fine vertices has them moved by its
// corrections on all the solver's threads; fewer are cheaper on one.
constexpr std::size_t kSplitFine = 2048;

struct HierarchyLevel {
  // The level's vertices (indices into the cloth).
  std::vector<std::uint32_t> vertex;
  // Unilateral distance constraints, by index into `vertex`, in a fixed
  // order (sorted by vertex pair): one sweep in this order carries a
  // correction across the level, where colour by colour would take a sweep
  // per few edges.
  std::vector<std::uint32_t> a, b;
  std::vector<float> rest;
  std::vector<float> stiffness;  // the least material multiplier (cloth.hpp) of its edges
  // Per constraint, a's and b's cloth indices and inverse masses on this
  // level (each vertex keeps its own mass plus its share of the finer
  // vertices it leads): what the projection reads, without going through
  // `vertex`.
  std::vector<std::uint32_t> aVertex, bVertex;
  std::vector<float> aInvMass, bInvMass;
  // A level of at least kSplitFine fine vertices whose constraints mostly
  // join vertices of one block of cloth indices (coloring.hpp): its
  // constraints by block, each block's in the order above, and those across
  // blocks stored after them (and projected before them); block g is
  // [blockStart[g], blockStart[g + 1]), the rest from blockStart[kSolveBlocks].
  // Empty otherwise.
  std::vector<std::uint32_t> blockStart;
  // The finer level's vertices that this level does not keep, each with its
  // parents (vertices of this level) and weights summing to 1: parents
  // [parentStart[k], parentStart[k + 1]). Cloth indices, all of them.
  std::vector<std::uint32_t> fine, parentStart, parent;
  std::vector<float> weight;
};

struct Hierarchy {
  std::vector<HierarchyLevel> levels;  // levels[0] the finest coarse level
  std::vector<glm::vec3> start;        // scratch: positions at the start of a pass
  bool empty() const { return levels.empty(); }
};

// Up to `maxLevels` coarse levels over the cloth's stretch constraints;
// vertices whose inverse mass in `w` is 0 (pins, a grabbed vertex) are kept
// on every level. Coarsening stops at a level of fewer than kMinCoarse
// vertices or when a level would keep most of the finer one's.
constexpr std::size_t kMinCoarse = 32;
Hierarchy buildHierarchy(const Cloth& cloth, const std::vector<float>& w, int maxLevels);

// One pass, coarsest level first, kHierarchySweeps Gauss-Seidel sweeps per
// level: each constraint |p_a − p_b| ≤ rest · stretchLimitSlack(its
// k_stretch × multiplier, at most 1) projected mass-weighted (stiffness 1; a
// vertex with inverse mass 0 in `pts` does not move), then each level's
// corrections passed to the vertices it does not keep.
//
// Called by every thread t of n in a job of `team` (null when n is 1), which
// it meets at the team's barrier between the parts: the projections run on
// thread 0 in the levels' own order (which carries a correction further per
// sweep than colour by colour), but on a level in blocks thread 0 first
// projects those across blocks and then each thread whole blocks; the fine
// vertices of a level of at least kSplitFine are moved on all the threads,
// of a smaller one on thread 0. The same result on any n.
constexpr int kHierarchySweeps = 1;
void solveHierarchy(const Points& pts, Hierarchy& hierarchy, float kStretch, int t = 0, int n = 1,
                    ThreadTeam* team = nullptr);

}  // namespace drape::sim
