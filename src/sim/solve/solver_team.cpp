#include "sim/solve/solver_team.hpp"

#include <algorithm>

#include "sim/solve/solver_scratch.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {

int solverThreads(int requested, std::size_t constraints) {
  const int want = requested <= 0 ? hardwareThreads() : requested;
  const int useful = int(std::max<std::size_t>(1, constraints / 6000));
  return std::max(1, std::min(want, useful));
}

ThreadTeam& solverTeam(const World& world) {
  const int threads =
      solverThreads(world.params.threads, world.cloth.stretch.size() + world.cloth.bend.size());
  if (ThreadTeam* handed = world.scratch->team) {
    handed->request(std::min(threads, handed->capacity()));
    return *handed;
  }
  return threadTeam(threads);
}

void setSolverTeam(World& world, ThreadTeam* team) {
  world.scratch->team = team;
}

}  // namespace drape::sim
