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

#include "sim/world.hpp"

namespace drape::sim {

// A hinge's bound is never below this (rad): a sliver (an altitude far
// below the thickness) would otherwise hold its crease at 90°.
inline constexpr float kFoldLimitFloor = 2.0943951f;  // 120°
// Hinges within this of their bound (rad) at the start of a sub-step get
// the constraint for it: more than a sub-step's iterations fold a hinge.
inline constexpr float kFoldLimitWindow = 0.5235988f;  // 30°

// π − asin(min(1, h / a)), at least kFoldLimitFloor.
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
  // and the cosine below which a hinge is within kFoldLimitWindow of it.
  std::vector<float> bound, cosWithin;
  // The choice's scratch: each chunk of hinges' limits.
  std::vector<std::vector<FoldLimit>> chunkActive;
  std::uint64_t topology = UINT64_MAX;
  float thickness = -1.0f;
};

// The sub-step's fold limits, for the cloth at x and the self contacts'
// thickness (prepareSelfContacts), into the solver scratch's
// foldLimits.active, on the solver's threads; the same for any thread count.
void chooseFoldLimits(World& world);
// The same in parts, for a job that runs other work beside them:
// beginFoldLimits returns the number of chunks of hinges, whose limits
// chooseFoldLimitsOf finds (each chunk on its own, on any thread), and
// joinFoldLimits joins them in hinge order.
std::size_t beginFoldLimits(World& world);
void chooseFoldLimitsOf(World& world, std::size_t chunk);
void joinFoldLimits(World& world);

// Project each limit on the solver's points, at stiffness 1, a move of at
// most kMaxBendMove of the hinge's rest length each (as bending's).
void solveFoldLimits(const Points& pts, const Cloth& cloth, const FoldLimit* limits,
                     std::size_t count);

}  // namespace drape::sim
