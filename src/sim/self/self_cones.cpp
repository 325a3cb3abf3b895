#include "sim/self/self_cones.hpp"
#include "sim/tuning.hpp"

#include <algorithm>
#include <vector>

#include "sim/self/cone_tree.hpp"
#include "sim/self/untangle.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {

namespace {

// The contacts' cone walk (cone_tree.hpp): a connected patch whose normals
// stay within 60° of one direction over the sub-step is a height field over
// the plane across it, no steeper than √3, and distances within it shrink
// at most by cos 60° seen along that direction. A vertex two rings from a
// triangle (those a lookup does not skip) lies a rest edge or more from it
// on a grid, so at least half an edge in the patch: beyond the thickness
// (at most 0.35 edges) unless the edges are pressed together by a third,
// and a contact there would push the vertex out of its own surface, not
// away from another layer. A narrower bound leaves more triangles to look
// up and finds hardly any more contacts.
// Outlines are not tested here (their shape changes over the sub-step): a
// patch wound round in its own plane may hide a contact between its
// layers, and the crossing search, which tests them, finds what follows.
constexpr ConeWalk kContactWalk{1.0471976f, false, false};

// The cone tree's leaves per chunk of their bounds.
constexpr std::size_t kLeavesPerChunk = 64;

}  // namespace

bool exposeUnsmoothParts(SelfCollision& self, const SelfSearch& in, ThreadTeam& team) {
  const float base = selfPairBase(self.thickness, self.cell);
  const Cloth& cloth = in.cloth;
  const State& s = in.state;
  const Tangles& tangles = in.tangles;
  const glm::vec3 shift = self.shift;
  self.exposed.clear();
  self.exposedVertices.clear();
  const ConeTree& tree = tangles.cones;
  const std::size_t leaves = tree.leafNode.size();
  if (self.leafTopology != tangles.conesTopology) {
    // Each leaf's vertices, each once.
    std::vector<std::uint32_t> last(s.x.size(), UINT32_MAX);
    self.leafStart.assign(leaves + 1, 0);
    self.leafVertices.clear();
    for (std::uint32_t l = 0; l < leaves; ++l) {
      const ConeTree::Node& node = tree.nodes[tree.leafNode[l]];
      for (std::uint32_t k = node.triBegin; k < node.triEnd; ++k)
        for (const std::uint32_t v :
             {cloth.triangles[tree.triangles[k]][0], cloth.triangles[tree.triangles[k]][1],
              cloth.triangles[tree.triangles[k]][2]})
          if (last[v] != l) {
            last[v] = l;
            self.leafVertices.push_back(v);
          }
      self.leafStart[l + 1] = std::uint32_t(self.leafVertices.size());
    }
    self.leafTopology = tangles.conesTopology;
  }
  ConeSearch& search = self.cones;
  search.box.resize(tree.nodes.size());
  search.cone.resize(tree.nodes.size());
  forEachChunk(team, (leaves + kLeavesPerChunk - 1) / kLeavesPerChunk, [&](std::size_t c, int) {
    const std::size_t end = std::min(leaves, (c + 1) * kLeavesPerChunk);
    glm::vec3 normals[3 * kConeLeaf];
    for (std::size_t l = c * kLeavesPerChunk; l < end; ++l) {
      const std::uint32_t n = tree.leafNode[l];
      const ConeTree::Node& node = tree.nodes[n];
      const std::uint32_t* v = self.leafVertices.data() + self.leafStart[l];
      const int count = int(self.leafStart[l + 1] - self.leafStart[l]);
      float moved = 0.0f;
      for (int k = 0; k < count; ++k) moved = std::max(moved, self.travel[v[k]]);
      search.box[n] = sweptBox(s, v, count, shift, base + moved);
      for (std::uint32_t k = node.triBegin; k < node.triEnd; ++k) {
        const glm::uvec3& tri = cloth.triangles[tree.triangles[k]];
        const glm::vec3 a = s.x[tri[1]] - s.x[tri[0]], b = s.x[tri[2]] - s.x[tri[0]];
        const glm::vec3 da = s.p[tri[1]] - s.p[tri[0]] - a, db = s.p[tri[2]] - s.p[tri[0]] - b;
        glm::vec3* N = normals + 3 * (k - node.triBegin);
        N[0] = glm::cross(a, b);
        N[1] = N[0] + 0.5f * (glm::cross(a, db) + glm::cross(da, b));
        N[2] = glm::cross(a + da, b + db);
      }
      search.cone[n] = coneAround(normals, 3 * std::size_t(node.triEnd - node.triBegin));
    }
  });
  const std::size_t count = cloth.triangles.size();
  if (!walkConeTree(tree, kContactWalk, tuning::kConeTestsPerTriangle * count, search, nullptr,
                    &team))
    return false;

  self.exposed.assign(count, 0);
  self.exposedVertices.assign(s.x.size(), 0);
  for (const glm::uvec2& pair : search.pairs)
    for (const std::uint32_t node : {pair.x, pair.y}) {
      const ConeTree::Node& leaf = tree.nodes[node];
      for (std::uint32_t k = leaf.triBegin; k < leaf.triEnd; ++k)
        self.exposed[tree.triangles[k]] = 1;
      for (std::uint32_t k = self.leafStart[leaf.leafBegin]; k < self.leafStart[leaf.leafBegin + 1];
           ++k)
        self.exposedVertices[self.leafVertices[k]] = 1;
    }
  return true;
}

}  // namespace drape::sim
