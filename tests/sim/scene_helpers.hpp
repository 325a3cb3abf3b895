#pragma once
// Helpers the simulation tests share: a built-in scene with --set style
// overrides, and a hash of the positions for determinism checks.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "scene/scenes.hpp"
#include "sim/self/self_collision.hpp"
#include "sim/self/self_cones.hpp"
#include "sim/self/untangle.hpp"
#include "sim/step/plan.hpp"
#include "sim/world.hpp"

namespace drape::test_support {

// The built-in scene `name` with its defaults, then `sets` ("KEY=VALUE").
inline sim::World buildScene(const char* name, const std::vector<std::string>& sets = {}) {
  const scene::SceneInfo* info = scene::findScene(name);
  EXPECT_NE(info, nullptr) << name;
  sim::Params params = scene::sceneParams(*info);
  for (const std::string& s : sets) {
    auto r = sim::setParamAssignment(params, s);
    EXPECT_TRUE(r) << r.error();
  }
  auto built = info->build(params);
  EXPECT_TRUE(built) << built.error();
  return std::move(built->world);
}

// FNV-1a over the bytes of every position: equal hashes, bit-identical runs.
inline std::uint64_t hashPositions(const sim::World& w) {
  std::uint64_t h = 1469598103934665603ull;
  for (const glm::vec3& x : w.state.x) {
    unsigned char bytes[sizeof(glm::vec3)];
    std::memcpy(bytes, &x, sizeof bytes);
    for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ull;
  }
  return h;
}

// Pin the highest and the lowest vertex and move them apart vertically at
// `speed` m/s each (pulls a balloon apart); returns the two vertices.
inline std::pair<std::uint32_t, std::uint32_t> pullTopAndBottomApart(sim::World& w,
                                                                     float speed = 1.5f) {
  std::uint32_t top = 0, bottom = 0;
  for (std::uint32_t i = 0; i < w.vertexCount(); ++i) {
    if (w.state.x[i].y > w.state.x[top].y) top = i;
    if (w.state.x[i].y < w.state.x[bottom].y) bottom = i;
  }
  sim::Motion up, down;
  up.velocity = glm::vec3(0.0f, speed, 0.0f);
  down.velocity = glm::vec3(0.0f, -speed, 0.0f);
  sim::pinVertex(w, top, up);
  sim::pinVertex(w, bottom, down);
  return {top, bottom};
}

// One sub-step's self-contact search on its own, as a step makes it: the
// subsystem (self_collision.hpp) for the world's x → p, with the crossing
// search's tree where `tangles` has one for the topology, and the cone walk
// (with its rest and give-ups in `state`) where asked.
struct SelfSearchRun {
  sim::SelfCollision self;
  sim::Tangles tangles;
  sim::SelfSearchState state;
  bool found = false;  // the search was made (prepared and not too dense)

  sim::SelfSearch input(const sim::World& w) const {
    return {w.cloth,
            w.state,
            w.params.thickness,
            w.stats.substeps,
            w.params.substeps,
            tangles,
            tangles.conesTopology == w.cloth.topologyVersion};
  }
  // The walk runs where `walk` (its rest set to 0 first) and the tree is
  // ready; else every triangle is looked up.
  const std::vector<sim::SelfContact>& search(const sim::World& w, bool walk = false) {
    const sim::SelfSearch in = input(w);
    sim::ThreadTeam& team = sim::solverTeam(w);
    found = false;
    if (!sim::prepareSelfContacts(self, in, state, team)) return self.contacts;
    if (walk) state.coneRest = 0;
    if (walk && sim::planConeWalk(state, in.tree && tangles.cones.usable))
      sim::afterConeWalk(state, !sim::exposeUnsmoothParts(self, in, team));
    sim::buildSelfHash(self);
    found = sim::findSelfContacts(self, in, state, team);
    return self.contacts;
  }
};

}  // namespace drape::test_support
