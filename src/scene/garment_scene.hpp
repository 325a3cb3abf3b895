#pragma once
// The built-in `garment` scene (scenes.cpp lists it).

#include "scene/scenes.hpp"

namespace drape::scene {

void garmentDefaults(sim::Params& params);
Result<Scene> buildGarment(const sim::Params& params);

}  // namespace drape::scene
