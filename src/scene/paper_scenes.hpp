#pragma once
// The built-in scenes after the paper's figures (Müller et al. 2007): bags
// (Fig. 3), an inflated character (Figs. 7, 11), stripes on rigid bodies
// (Fig. 8), a rotating barrel (Fig. 9), and a flag in the wind. Listed in
// scenes.cpp's table with the others; internal to drape_scene.

#include "scene/scenes.hpp"

namespace drape::scene::paper {

void bagDefaults(sim::Params& p);
Result<Scene> buildBag(const sim::Params& params);

void characterDefaults(sim::Params& p);
Result<Scene> buildCharacter(const sim::Params& params);

void stripesDefaults(sim::Params& p);
Result<Scene> buildStripes(const sim::Params& params);

void barrelDefaults(sim::Params& p);
Result<Scene> buildBarrel(const sim::Params& params);

void flagDefaults(sim::Params& p);
Result<Scene> buildFlag(const sim::Params& params);

// The bags' materials, in the order of the paper's Fig. 3: multipliers of
// k_stretch and k_bend for bag i (the scene's defaults are k = 1).
struct BagMaterial {
  float stretch, bend;
};
inline constexpr BagMaterial kBagMaterials[6] = {{1.0f, 1.0f}, {0.5f, 1.0f}, {0.01f, 1.0f},
                                                 {1.0f, 0.0f}, {0.5f, 0.0f}, {0.01f, 0.0f}};

}  // namespace drape::scene::paper
