#pragma once
// drape_bench --table, second part: whether XPBD's bending stiffness means
// what it says at a given budget. A 1 m × 0.2 m strip (41 × 9 vertices),
// horizontal, clamped along its first two columns, sags under gravity and
// settles; its droop (how far the free end sits below the clamp) at k_bend
// 0.2 and 0.5 is compared with that of 100 sub-steps × 10 iterations, the
// converged reference. Settled: the strip swings about its clamp (damping
// keeps a piece's rigid motion), so the runs take damping 0.1 and 600
// frames, and the droop is the mean over the last 60.

#include <string>
#include <vector>

namespace drape::bench {

// One labelled configuration (KEY=VALUE settings over the XPBD defaults).
struct CantileverRow {
  const char* label;
  std::vector<std::string> sets;
};

// Prints the Markdown table over `frames` frames (0: 600, the settled
// droop; fewer for a smoke run); exits 2 on a bad setting.
void printCantileverTable(const std::vector<CantileverRow>& rows,
                          const std::vector<std::string>& extra, int frames = 0);

}  // namespace drape::bench
