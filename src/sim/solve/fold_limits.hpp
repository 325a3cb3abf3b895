#pragma once
// Fold limits: how far a hinge may fold where the cloth has a thickness.
// Two triangles sharing an edge, folded by the dihedral angle θ (0 flat, π
// folded flat onto each other), bring the tip of the narrower one, at
// altitude a from the edge, within a·sin(π − |θ|) of the other's plane. A
// layer of thickness h keeps that distance at least h, so
//
//   |θ| ≤ π − asin(h / a),
//
// a one-sided bound on the bending constraint's angle (Müller et al. 2007
// §4.2, projected like a contact: stiffness 1, mass weighted). Self
// contacts skip the vertices joined to a triangle's corners (they lie
// closer than the thickness wherever the cloth creases), so nothing else
// stops a crease folding through itself: a coarse mesh crumpling at the
// scale of its edges passes its edges through the triangles one ring away.
//
// Only with self collision on, and only for the hinges near their bound at
// the start of the sub-step; the bound's side is the side the hinge is
// folded towards there.

#include <cstdint>
#include <vector>

#include "sim/cloth.hpp"
#include "sim/state.hpp"
#include "sim/tuning.hpp"

namespace drape::sim {

// π − asin(min(1, h / a)), at least tuning::kFoldLimitFloor.
float foldLimit(float thickness, float altitude);

// The narrower altitude of each hinge of cloth.bend, from the rest shape.
std::vector<float> hingeAltitudes(const Cloth& cloth);

struct FoldLimit {
  std::uint32_t hinge;  // index into cloth.bend
  float bound;          // signed: the side the hinge folds towards
};

struct FoldLimits {
  std::vector<FoldLimit> active;  // this sub-step's, in hinge order
  // For the topology and thickness they were made for: each hinge's bound
  // and the cosine below which a hinge is within tuning::kFoldLimitWindow of it.
  std::vector<float> bound, cosWithin;
  // The choice's scratch: each chunk of hinges' limits.
  std::vector<std::vector<FoldLimit>> chunkActive;
  std::uint64_t topology = UINT64_MAX;
  float thickness = -1.0f;
};

// What a choice of the sub-step's limits reads: the cloth at x, the self
// contacts' thickness, and where it is tangled (the corners of known
// crossings, and the parts inside their contours; untangle.hpp), whose
// hinges get no limit: they fold through the other layer there, and
// opening them drags it along.
struct FoldInput {
  const Cloth& cloth;
  const std::vector<glm::vec3>& x;
  float thickness;
  const std::vector<std::uint8_t>& crossingVertices;  // empty: none
  const std::vector<std::uint32_t>& region;           // empty: none
};

// The choice in parts, for a job that runs other work beside them:
// beginFoldLimits returns the number of chunks of hinges (remaking the
// bounds for a new topology or thickness), chooseFoldLimitsOf finds each
// chunk's (each on its own, on any thread), and joinFoldLimits joins them
// in hinge order into `active`: the same for any thread count.
std::size_t beginFoldLimits(FoldLimits& limits, const Cloth& cloth, float thickness);
void chooseFoldLimitsOf(FoldLimits& limits, const FoldInput& in, std::size_t chunk);
void joinFoldLimits(FoldLimits& limits, const Cloth& cloth);

// Project each limit on the solver's points, at stiffness 1, a move of at
// most tuning::kMaxBendMove of the hinge's rest length each (as bending's).
void solveFoldLimits(const Points& pts, const Cloth& cloth, const FoldLimit* limits,
                     std::size_t count);

}  // namespace drape::sim
