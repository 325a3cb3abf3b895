#pragma once
// The built-in `rope` scene (scenes.cpp lists it).

#include "scene/scenes.hpp"

namespace drape::scene {

Result<Scene> buildRope(const sim::Params& params);

}  // namespace drape::scene
