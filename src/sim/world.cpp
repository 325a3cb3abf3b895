#include "sim/world.hpp"
#include "sim/tuning.hpp"

#include <algorithm>
#include <utility>

#include "sim/thread_team.hpp"

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
  if (world.grab.active && !world.grab.soft && world.grab.vertex < m.size())
    world.state.w[world.grab.vertex] = 0.0f;
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
  world.pinsVersion = nextVersion();
}

void unpinVertex(World& world, std::uint32_t vertex) {
  auto it = std::remove_if(world.pins.begin(), world.pins.end(),
                           [&](const Pin& p) { return p.vertex == vertex; });
  if (it == world.pins.end()) return;
  world.pins.erase(it, world.pins.end());
  world.pinsVersion = nextVersion();
  freeVertex(world, vertex);
}

void unpinAll(World& world) {
  std::vector<Pin> pins = std::move(world.pins);
  world.pins.clear();
  for (const Pin& p : pins) freeVertex(world, p.vertex);
  if (!pins.empty()) world.pinsVersion = nextVersion();
}

void startGrab(World& world, std::uint32_t vertex, float tear) {
  if (world.grab.active) endGrab(world, glm::vec3(0.0f));
  if (vertex >= world.state.x.size()) return;
  const std::vector<glm::vec3>& x = world.state.x;
  Grab grab;
  grab.active = true;
  grab.vertex = vertex;
  grab.target = x[vertex];
  grab.from = grab.at = grab.target;
  grab.tear = tear;
  grab.soft = tear <= 0.0f && !isPinned(world, vertex);
  if (!grab.soft) {
    world.grab = std::move(grab);
    world.state.w[vertex] = 0.0f;
    world.state.v[vertex] = glm::vec3(0.0f);
    return;
  }
  // The patch: free vertices within tuning::kGrabRadius of the grabbed one's edges'
  // mean rest length.
  double sum = 0.0;
  int count = 0;
  for (const StretchConstraint& c : world.cloth.stretch)
    if (c.a == vertex || c.b == vertex) {
      sum += double(c.rest);
      ++count;
    }
  const float edge = count > 0 ? float(sum / count) : 0.01f;
  const float radius = tuning::kGrabRadius * edge;
  grab.step = tuning::kGrabStep * edge;
  grab.patch.push_back(vertex);
  grab.offset.emplace_back(0.0f);
  grab.weight.push_back(1.0f);
  for (std::uint32_t i = 0; i < x.size(); ++i) {
    const float d = glm::length(x[i] - x[vertex]);
    if (i == vertex || !(d < radius) || world.state.w[i] == 0.0f) continue;
    const float falloff = 1.0f - d / radius;
    grab.patch.push_back(i);
    grab.offset.push_back(x[i] - x[vertex]);
    grab.weight.push_back(falloff * falloff);
  }
  world.grab = std::move(grab);
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
  const bool soft = world.grab.soft;
  world.grab = Grab{};
  // A soft grab's patch moved with its own velocities all along.
  if (soft || v >= world.state.x.size() || isPinned(world, v)) return;
  const float m = world.cloth.mass[v];
  world.state.w[v] = m > 0.0f ? 1.0f / m : 0.0f;
  world.state.v[v] = velocity;
}

void pullGrabPatch(const Points& points, const Grab& grab, float share) {
  const float step = share * grab.step;
  for (std::size_t k = 0; k < grab.patch.size(); ++k) {
    const std::uint32_t v = grab.patch[k];
    glm::vec3 d =
        (grab.at + grab.offset[k] - points.world(v)) * (tuning::kGrabPull * grab.weight[k]);
    const float length = glm::length(d);
    if (length > step) d *= step / length;
    points.p(v) += d;
  }
}

std::uint32_t addBody(World& world, const RigidBody& body) {
  RigidBody b = body;
  b.collider = std::uint32_t(world.colliders.size());
  world.colliders.push_back(Collider::box(b.x, b.halfExtents, b.q));
  world.bodies.push_back(b);
  return std::uint32_t(world.bodies.size() - 1);
}

void attachToBody(World& world, std::uint32_t vertex, std::uint32_t body) {
  const RigidBody& b = world.bodies[body];
  world.attachments.push_back({vertex, body, glm::conjugate(b.q) * (world.state.x[vertex] - b.x)});
}

int solverThreads(int requested, std::size_t constraints) {
  const int want = requested <= 0 ? hardwareThreads() : requested;
  const int useful = int(std::max<std::size_t>(1, constraints / 6000));
  return std::max(1, std::min(want, useful));
}

ThreadTeam& solverTeam(const World& world) {
  const int threads =
      solverThreads(world.params.threads, world.cloth.stretch.size() + world.cloth.bend.size());
  if (ThreadTeam* handed = world.team) {
    handed->request(std::min(threads, handed->capacity()));
    return *handed;
  }
  return threadTeam(threads);
}

void setSolverTeam(World& world, ThreadTeam* team) {
  world.team = team;
}

bool isPinned(const World& world, std::uint32_t vertex) {
  return std::any_of(world.pins.begin(), world.pins.end(),
                     [&](const Pin& p) { return p.vertex == vertex; });
}

}  // namespace drape::sim
