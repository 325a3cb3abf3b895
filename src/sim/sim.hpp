#pragma once
// drape's simulation core, as the rest of the program sees it: meshes and
// the cloth built from them, the parameter table, the world (state, pins,
// the hand, colliders, rigid bodies), the step and its plan, tearing, the
// watchdog, and measurements of a world. The layers outside src/sim include
// this header only.

#include "sim/cloth.hpp"                 // IWYU pragma: export
#include "sim/collision/colliders.hpp"   // IWYU pragma: export
#include "sim/collision/mesh_shape.hpp"  // IWYU pragma: export
#include "sim/limits.hpp"                // IWYU pragma: export
#include "sim/mesh.hpp"                  // IWYU pragma: export
#include "sim/models/rigid_body.hpp"     // IWYU pragma: export
#include "sim/params.hpp"                // IWYU pragma: export
#include "sim/result.hpp"                // IWYU pragma: export
#include "sim/self/self_collision.hpp"   // IWYU pragma: export
#include "sim/stats.hpp"                 // IWYU pragma: export
#include "sim/step/step.hpp"             // IWYU pragma: export
#include "sim/stopwatch.hpp"             // IWYU pragma: export
#include "sim/tearing.hpp"               // IWYU pragma: export
#include "sim/text.hpp"                  // IWYU pragma: export
#include "sim/thread_team.hpp"           // IWYU pragma: export
#include "sim/watchdog.hpp"              // IWYU pragma: export
#include "sim/world.hpp"                 // IWYU pragma: export
