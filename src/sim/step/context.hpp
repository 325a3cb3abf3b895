#pragma once
// The step's own context (as Jolt's SoftBodyUpdateContext): what it derives
// from the world and the buffers it reuses, so that a warm step allocates
// nothing. Owned by the world's ContextSlot and never copied: everything in
// it is either made again from the world by prepare() (the derived data) or
// written before it is read within a step (the buffers). What changes
// results from one step to the next is the world's named state
// (World::solver), not this.

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/collision/collider_contacts.hpp"
#include "sim/models/aerodynamics.hpp"
#include "sim/models/mass_spring.hpp"
#include "sim/models/tet_volume.hpp"
#include "sim/self/self_collision.hpp"
#include "sim/self/self_contact.hpp"
#include "sim/self/untangle.hpp"
#include "sim/solve/coloring.hpp"
#include "sim/solve/damping.hpp"
#include "sim/solve/fold_limits.hpp"
#include "sim/solve/hierarchy.hpp"
#include "sim/solve/newton_step.hpp"
#include "sim/solve/ropes.hpp"
#include "sim/solve/tethers.hpp"
#include "sim/step/plan.hpp"
#include "sim/world.hpp"

namespace drape::sim {

// What the derived data is made from. Each part keeps the key it was made
// for and is made again by prepare() where the fields it reads differ.
struct DerivedKey {
  std::uint64_t topology = UINT64_MAX, pins = UINT64_MAX;
  std::uint32_t grabbed = UINT32_MAX;  // a hard grab's vertex (its w is 0)
  int levels = -1;
  bool coloured = false, isometric = false;
};

struct StepContext {
  StepContext() = default;
  StepContext(const StepContext&) = delete;
  StepContext& operator=(const StepContext&) = delete;

  // Derived data (prepare.cpp), with the key each part was made for.
  PackedStretch packedStretch;
  PackedBend packedBend;
  DerivedKey packedFor;
  Tethers tethers;
  DerivedKey tethersFor;
  Hierarchy hierarchy;
  DerivedKey hierarchyFor;
  SpringSet springs;  // the explicit springs (their forces are per sub-step)
  TetVolumes tets;
  NewtonScratch newton;  // its coarse space, for newtonFor
  DerivedKey newtonFor;

  // The subsystems, each with its own derived data and buffers.
  ColliderContacts colliders;
  SelfCollision self;
  SelfContactBlocks selfBlocks;          // the self contacts grouped for the threads
  Tangles tangles;                       // the crossing search, and the crossings' regions
  std::vector<Crossing> knownCrossings;  // those known before a search
  FoldLimits foldLimits;

  // Buffers written and read within a step.
  std::vector<std::uint8_t> crossingVertices;  // corners of known crossings, per sub-step
  std::vector<glm::vec3> selfAhead;            // a span's predicted positions
  std::vector<std::uint8_t> spannedColliders;  // 1 per collider searched once a span
  bool selfSearched = false;                   // the span's search found something to look for
  std::vector<glm::vec4> solvePoints;          // p and w, x y z w per vertex (kernel_args.hpp)
  std::vector<float> lambdaStretch, lambdaBend;
  RopeScratch ropes;                           // the ropes' multipliers and band (solve/ropes.hpp)
  std::vector<float> kStretchEach, kBendEach;  // each constraint's k or α̃ (materials)
  std::vector<float> chebyshevOmega;
  std::vector<glm::vec4> chebyshevOlder, chebyshevLast;
  std::vector<float> chebyshevLambdaOlder, chebyshevLambdaLast;
  std::vector<std::size_t> contactSplit;  // each thread's first collider contact
  std::vector<glm::vec3> pressureGrad;
  AirScratch air;
  DampingScratch damping;
};

// The world's context, made when it has none.
StepContext& contextOf(World& world);

// Makes again whatever part of the derived data the plan uses whose inputs
// changed (the topology, the pins, a hard grab, the levels, the kernels,
// the bending model).
void prepare(StepContext& context, const World& world, const StepPlan& plan);

}  // namespace drape::sim
