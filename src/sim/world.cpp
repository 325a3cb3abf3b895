#include "sim/world.hpp"

#include <algorithm>

namespace drape::sim {

World makeWorld(Cloth cloth, const Params& params) {
  World world;
  world.params = params;
  world.cloth = std::move(cloth);
  const std::size_t n = world.cloth.vertexCount();
  world.state.x = world.cloth.restPositions;
  world.state.p = world.state.x;
  world.state.v.assign(n, glm::vec3(0.0f));
  refreshInverseMasses(world);
  return world;
}

void refreshInverseMasses(World& world) {
  const std::vector<float>& m = world.cloth.mass;
  world.state.w.resize(m.size());
  for (std::size_t i = 0; i < m.size(); ++i) world.state.w[i] = m[i] > 0.0f ? 1.0f / m[i] : 0.0f;
  for (const Pin& pin : world.pins) world.state.w[pin.vertex] = 0.0f;
  if (world.grab.active && world.grab.vertex < m.size()) world.state.w[world.grab.vertex] = 0.0f;
}

namespace {

// An unpinned vertex moves again with its mass (unless the hand holds it).
void freeVertex(World& world, std::uint32_t vertex) {
  if (world.grab.active && world.grab.vertex == vertex) return;  // still held
  const float m = world.cloth.mass[vertex];
  world.state.w[vertex] = m > 0.0f ? 1.0f / m : 0.0f;
}

}  // namespace

void pinVertex(World& world, std::uint32_t vertex, const Motion& motion) {
  // A pinned vertex has w = 0: one with w > 0 is not on the list, which
  // then need not be searched (a scene file's many pins stay linear).
  if (world.state.w[vertex] == 0.0f) unpinVertex(world, vertex);
  // The anchor is the rest point whose motion at the current time lands on
  // the vertex; for a static motion that is the vertex itself.
  world.pins.push_back({vertex, world.state.x[vertex], motion, world.time});
  world.state.w[vertex] = 0.0f;
  world.state.v[vertex] = glm::vec3(0.0f);
  ++world.pinsVersion;
}

void unpinVertex(World& world, std::uint32_t vertex) {
  auto it = std::remove_if(world.pins.begin(), world.pins.end(),
                           [&](const Pin& p) { return p.vertex == vertex; });
  if (it == world.pins.end()) return;
  world.pins.erase(it, world.pins.end());
  ++world.pinsVersion;
  freeVertex(world, vertex);
}

void unpinAll(World& world) {
  std::vector<Pin> pins = std::move(world.pins);
  world.pins.clear();
  for (const Pin& p : pins) freeVertex(world, p.vertex);
  if (!pins.empty()) ++world.pinsVersion;
}

void startGrab(World& world, std::uint32_t vertex) {
  if (world.grab.active) endGrab(world, glm::vec3(0.0f));
  if (vertex >= world.state.x.size()) return;
  world.grab = {true, vertex, world.state.x[vertex]};
  world.state.w[vertex] = 0.0f;
  world.state.v[vertex] = glm::vec3(0.0f);
}

void moveGrab(World& world, const glm::vec3& target) {
  if (!world.grab.active) return;
  world.grab.target = target;
  // A pinned vertex stays pinned where the hand leaves it.
  for (Pin& pin : world.pins)
    if (pin.vertex == world.grab.vertex && pin.motion.isStatic()) pin.anchor = target;
}

void endGrab(World& world, const glm::vec3& velocity) {
  if (!world.grab.active) return;
  const std::uint32_t v = world.grab.vertex;
  world.grab.active = false;
  if (v >= world.state.x.size() || isPinned(world, v)) return;
  const float m = world.cloth.mass[v];
  world.state.w[v] = m > 0.0f ? 1.0f / m : 0.0f;
  world.state.v[v] = velocity;
}

bool isPinned(const World& world, std::uint32_t vertex) {
  return std::any_of(world.pins.begin(), world.pins.end(),
                     [&](const Pin& p) { return p.vertex == vertex; });
}

}  // namespace drape::sim
