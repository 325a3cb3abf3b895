#pragma once
// The spatial hash's scan of a run of entries (spatial_hash.hpp), eight at
// a time with AVX2. Compiled for AVX2 in a file of its own and called only
// where the CPU has it (avx2Available()); the hash scans four at a
// time with SSE2 otherwise. Both keep the same entries in the same order.
// Against one box, or two at once (the two triangles of a quad).

#include <cstdint>

namespace drape::sim {

// The ids items[k] of the entries k in [begin, end) whose box (bounds[0..2]
// its min x, y, z, bounds[3..5] its max, each indexed by k) overlaps the box
// [lo, hi], written in order from `out` on; returns the end of what it
// kept. Reads up to 7 entries past `end` and writes up to 8 ids past the
// last one it keeps (the hash pads both).
std::uint32_t* scanOverlapsAvx2(const float* const (&bounds)[6], const std::uint32_t* items,
                                std::uint32_t begin, std::uint32_t end, const float (&lo)[3],
                                const float (&hi)[3], std::uint32_t* out);

// As scanOverlapsAvx2, against two boxes [lo[0], hi[0]] and [lo[1], hi[1]]:
// each entry that overlaps either, as 4 items[k] + 1 (it overlaps the
// first) + 2 (the second). The ids are below 2^30.
std::uint32_t* scanTaggedAvx2(const float* const (&bounds)[6], const std::uint32_t* items,
                              std::uint32_t begin, std::uint32_t end, const float (&lo)[2][3],
                              const float (&hi)[2][3], std::uint32_t* out);

}  // namespace drape::sim
