#pragma once
// drape_bench --deforming-collider: the drape scene (64² unless --set
// resolution=N) with self collision over a ball of about 10,000 triangles
// that breathes (its radius 0.35 to 0.55 m and back over 120 frames) as a
// deforming mesh collider: the surface's update alone (vertices, normals,
// the refitted tree) per sub-step, the first frame's distance grid (made
// once, then read by every frame with a slack), a full rebuild
// of the same mesh for comparison, and the run's ms per frame with its
// strain, crossings and least distance to the ball.

#include <string>
#include <vector>

namespace drape::bench {

// Prints one JSON object; returns the exit code.
int printDeformingCollider(const std::vector<std::string>& extra, int frames);

}  // namespace drape::bench
