#include "app/footprint.hpp"

#include <vector>

namespace drape::app {
namespace {

template <class T>
std::size_t bytes(const std::vector<T>& v) {
  return v.size() * sizeof(T);
}

}  // namespace

std::size_t clothBytes(const sim::Cloth& c) {
  return sizeof c + bytes(c.triangles) + bytes(c.cornerUVs) + bytes(c.restPositions) +
         bytes(c.mass) + bytes(c.stretch) + bytes(c.bend) + bytes(c.isoBend) +
         bytes(c.ropeSegments) + bytes(c.ropeTurns) + bytes(c.ropes) + bytes(c.piece) +
         bytes(c.inputToVertex);
}

std::size_t stateBytes(const sim::State& s) {
  return bytes(s.x) + bytes(s.p) + bytes(s.v) + bytes(s.w);
}

std::size_t worldBytesWithoutCloth(const sim::World& w) {
  const sim::SolverState& solver = w.solver;
  return sizeof w + stateBytes(w.state) + bytes(w.pins) + bytes(w.grab.patch) +
         bytes(w.grab.offset) + bytes(w.grab.weight) + bytes(w.colliders) + bytes(w.bodies) +
         bytes(w.attachments) + bytes(solver.crossings.crossings) +
         bytes(solver.crossings.rest.pairs) + bytes(solver.newton.factor.a) +
         bytes(solver.newton.factor.first) + bytes(solver.newton.dof);
}

std::size_t worldBytes(const sim::World& w) {
  return worldBytesWithoutCloth(w) + clothBytes(w.cloth);
}

std::size_t sessionBytes(const Session& s) {
  return sizeof s + worldBytes(s.world()) + stateBytes(s.world().state) +
         clothBytes(s.world().cloth);
}

}  // namespace drape::app
