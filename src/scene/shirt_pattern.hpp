#pragma once
// A T-shirt of two flat panels, front and back, cut for the mannequin
// (mannequin.hpp): a body from hem to shoulders with a neck opening and a
// short sleeve along each arm, the front in front of the mannequin and the
// back behind it, and the seams that close it at the shoulders, along the
// sleeves' undersides and down the sides.

#include <vector>

#include <glm/glm.hpp>

#include "scene/mannequin.hpp"
#include "sim/sim.hpp"

namespace drape::scene {

struct ShirtPanels {
  sim::TriMesh mesh;  // the front's vertices, then the back's, in the same order
  // Each pair joins a front vertex to the back vertex cut at the same
  // place of the pattern.
  std::vector<glm::uvec2> seams;
  std::size_t frontVertices = 0;
};

// Panels with vertices about `spacing` apart, each `gap` in front of or
// behind the chest.
ShirtPanels makeShirtPanels(const MannequinSize& size, float spacing, float gap);

}  // namespace drape::scene
