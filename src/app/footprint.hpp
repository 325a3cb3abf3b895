#pragma once
// What a copy of a world or a session holds in memory, in bytes: the sum
// of its arrays (a copy's arrays are as long as the original's, no longer),
// for the bounds of the undo history and the timeline. Mesh colliders'
// shapes are shared between copies and not counted.

#include <cstddef>

#include "app/session.hpp"
#include "sim/sim.hpp"

namespace drape::app {

std::size_t clothBytes(const sim::Cloth& cloth);
std::size_t stateBytes(const sim::State& state);
// Everything but the cloth: state, pins, grab, colliders, bodies, named state.
std::size_t worldBytesWithoutCloth(const sim::World& world);
std::size_t worldBytes(const sim::World& world);
// The world, and the watchdog's last good state and cloth.
std::size_t sessionBytes(const Session& session);

}  // namespace drape::app
