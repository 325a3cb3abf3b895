#pragma once
// drape_bench --mesh-collider: the drape scene (64² unless --set
// resolution=N) on its analytic sphere and on the same sphere as a mesh
// collider of 1,280 triangles (an icosphere), median ms per frame from rest;
// then a sphere of 100,000 triangles written as an OBJ: the time to load it
// as a collider (read, weld, normals, tree), the tree's build alone, and the
// drape on it.

#include <string>
#include <vector>

namespace drape::bench {

// Prints one JSON object; returns the exit code.
int printMeshCollider(const std::vector<std::string>& extra, int frames);

}  // namespace drape::bench
