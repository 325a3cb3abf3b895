#pragma once
// Seams (sewing): each pulls two vertices of the cloth together and then
// holds them, as Houdini Vellum's stitch whose rest length is animated to
// zero, and Blender's sewing springs, whose force is capped. A seam is the
// distance constraint of stretch, C = |p_a − p_b| − l(t) (evalStretch), with
// a rest length that shrinks linearly from the ends' distance at rest to 0
// over `seam_close_time`, then stays 0. Its stiffness is 1 (no compliance):
// the cap on each projection's move is what keeps the pull gentle.

#include <cstddef>

#include "sim/cloth.hpp"
#include "sim/state.hpp"

namespace drape::sim {

// A seam's rest length at `time` (s since the world started), closing over
// `closeTime` seconds (0: closed from the start).
float seamRest(const Seam& seam, double time, float closeTime);

// Project the seams once, in order, on one thread: mass weighted, so the
// pull keeps momentum; each moves its ends towards each other by at most
// `maxMove` (m) between them. Seams with both ends held are left alone.
void solveSeams(const Points& pts, const Seam* seams, std::size_t count, double time,
                float closeTime, float maxMove);

// The largest distance between the two ends of any seam at `x` (m); 0
// without seams.
float seamGapMax(const std::vector<Seam>& seams, const std::vector<glm::vec3>& x);

}  // namespace drape::sim
