#pragma once
// Constraints of four vertices each (self contacts), grouped
// for the batched solver's threads by blocks of vertex indices: group g
// holds those whose vertices all lie in block g, the g-th of kVertexGroups
// equal ranges of indices, and a last group the rest, each group in the
// constraints' order. Groups 0 … kVertexGroups − 1 share no vertex: they are
// projected side by side and then the rest, the same result on any thread
// count.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace drape::sim {

constexpr std::size_t kVertexGroups = 4;

// Reorders `items` into the groups (`scratch` and `group` hold the work);
// group g is [start[g], start[g + 1]), the rest from start[kVertexGroups].
// corners(item, v) writes an item's four vertices into v.
template <typename T, typename Corners>
void groupByVertexBlocks(std::vector<T>& items, std::size_t vertexCount, Corners&& corners,
                         std::vector<std::uint32_t>& start, std::vector<T>& scratch,
                         std::vector<std::uint8_t>& group) {
  // Block g begins at the least v with v·K/n ≥ g: a vertex's block is the
  // number of those beginnings at or below it (no division per vertex).
  std::uint32_t begins[kVertexGroups];
  for (std::size_t g = 0; g < kVertexGroups; ++g)
    begins[g] = std::uint32_t((g * vertexCount + kVertexGroups - 1) / kVertexGroups);
  auto block = [&](std::uint32_t v) {
    std::uint32_t b = 0;
    for (std::size_t g = 1; g < kVertexGroups; ++g) b += v >= begins[g] ? 1 : 0;
    return b;
  };
  group.resize(items.size());
  start.assign(kVertexGroups + 2, 0);
  for (std::size_t j = 0; j < items.size(); ++j) {
    std::uint32_t v[4];
    corners(items[j], v);
    const std::uint32_t b = block(v[0]);
    const bool inside = block(v[1]) == b && block(v[2]) == b && block(v[3]) == b;
    group[j] = std::uint8_t(inside ? b : kVertexGroups);
    ++start[group[j] + 1];
  }
  for (std::size_t g = 0; g <= kVertexGroups; ++g) start[g + 1] += start[g];
  std::uint32_t fill[kVertexGroups + 1];
  std::copy(start.begin(), start.end() - 1, fill);
  scratch.resize(items.size());
  for (std::size_t j = 0; j < items.size(); ++j) scratch[fill[group[j]]++] = items[j];
  items.swap(scratch);
}

}  // namespace drape::sim
