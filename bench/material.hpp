#pragma once
// drape_bench --material: whether the sliders describe one fabric on any
// mesh and budget. A clamped strip's droop at k_bend 0.2, 0.5 and 1 on four
// meshes of it; the hang's pinned edge's sag at 32², 64² and 128²; and the
// 32² hang's swing, at the defaults and without damping or air.

#include <string>
#include <vector>

namespace drape::bench {

// Prints the three Markdown tables; `frames` for the strip (0: 900, 15 s);
// `only` ("strip", "hang" or "swing") prints one of them.
int printMaterial(const std::vector<std::string>& extra, int frames, const std::string& only);

}  // namespace drape::bench
