#pragma once
// The thread team a world's step runs on: the solver's projection, its
// contact and self-collision searches, damping, and whatever works beside
// the step on the same threads (recording).

#include <cstddef>

#include "sim/world.hpp"

namespace drape::sim {

class ThreadTeam;

// The threads of the solver's team for a cloth of `constraints` stretch and
// bending constraints, `requested` the threads parameter (0: one per core):
// below about 6,000 constraints each, the barriers between colours cost more
// than the work shared. Whatever shares the team in a step asks with the
// same count, so the team is not remade.
int solverThreads(int requested, std::size_t constraints);

// The team every parallel part of a world's step runs on, asked for
// solverThreads(): the one handed to the world (setSolverTeam), or else
// the process's (threadTeam()). Handing a team in is how a caller with its
// own threads (as Box2D's enqueueTask) keeps the solver on them.
ThreadTeam& solverTeam(const World& world);
// Hand `team` to the world's solver (null: the process's team again). The
// team must outlive the world's steps; copies of the world share it.
void setSolverTeam(World& world, ThreadTeam* team);

}  // namespace drape::sim
