#include "scene/rope_scene.hpp"

#include <cstdint>
#include <vector>

#include "scene/shapes.hpp"

namespace drape::scene {
namespace {

constexpr int kLineVertices = 49;  // a 2.4 m line, a vertex every 5 cm
constexpr int kFlagVertices = 11;  // a 0.5 m square flag, the same spacing
constexpr int kFlagFirst = 19;     // the line's vertex at the flag's left corner
constexpr int kRopeVertices = 41;  // the swinging ropes: 1.2 m, 3 cm apart

// Rope points from `from`, `count` of them `step` apart along `along`.
std::vector<std::uint32_t> appendLine(sim::Cloth& cloth, glm::vec3 from, glm::vec3 step,
                                      int count) {
  std::vector<std::uint32_t> line;
  for (int k = 0; k < count; ++k) {
    line.push_back(std::uint32_t(cloth.restPositions.size()));
    cloth.restPositions.push_back(from + float(k) * step);
  }
  return line;
}

}  // namespace

// rope: a washing line pinned at both ends at y = 1.6 m holding a small
// flag (its top row of vertices is the line's), and three ropes pinned
// above a ball of radius 0.3 m, released level so that they swing down
// and drape over it; floor at y = −0.5.
Result<Scene> buildRope(const sim::Params& params) {
  sim::TriMesh flag = makeGrid(kFlagVertices, 0.5f, glm::vec3(0.0f));
  // Grid row j (z from −0.25 to 0.25) hangs from y = 1.6 down, at z = −0.8.
  for (glm::vec3& x : flag.positions) x = glm::vec3(x.x, 1.6f - (x.z + 0.25f), -0.8f);
  auto prepared = sim::prepareMesh(flag);
  if (!prepared) return fail(prepared.error());
  sim::Cloth cloth = sim::buildCloth(prepared.value(), params.density);

  std::vector<std::vector<std::uint32_t>> lines;
  // The line: its own vertices, but the flag's top row where they meet.
  const float step = 0.05f;
  std::vector<std::uint32_t> line;
  for (int k = 0; k < kLineVertices; ++k) {
    const int top = k - kFlagFirst;
    if (top >= 0 && top < kFlagVertices) {
      line.push_back(prepared->inputToVertex[std::size_t(top)]);
      continue;
    }
    line.push_back(std::uint32_t(cloth.restPositions.size()));
    cloth.restPositions.emplace_back(-1.2f + step * float(k), 1.6f, -0.8f);
  }
  lines.push_back(line);
  // Three ropes from above the ball, level: along −x, +z and +x.
  const glm::vec3 ball(0.0f, 0.4f, 0.5f);
  const glm::vec3 top = ball + glm::vec3(0.0f, 0.9f, 0.0f);
  const float ropeStep = 1.2f / float(kRopeVertices - 1);
  const glm::vec3 ways[3] = {{-1, 0, 0}, {0, 0, 1}, {1, 0, 0}};
  const glm::vec3 offsets[3] = {{-0.08f, 0, 0}, {0, 0, 0.08f}, {0.08f, 0, 0}};
  for (int r = 0; r < 3; ++r)
    lines.push_back(appendLine(cloth, top + offsets[r], ropeStep * ways[r], kRopeVertices));
  sim::addRopes(cloth, lines, params.density);

  Scene scene{"rope", sim::makeWorld(std::move(cloth), params), {}};
  sim::World& w = scene.world;
  sim::pinVertex(w, lines[0].front());
  sim::pinVertex(w, lines[0].back());
  for (int r = 1; r <= 3; ++r) sim::pinVertex(w, lines[std::size_t(r)].front());
  w.colliders.push_back(sim::Collider::sphere(ball, 0.3f));
  w.colliders.push_back(sim::Collider::plane({0.0f, -0.5f, 0.0f}, {0.0f, 1.0f, 0.0f}));
  scene.camera = framedFrom(0.5f, 0.3f);
  return scene;
}

}  // namespace drape::scene
