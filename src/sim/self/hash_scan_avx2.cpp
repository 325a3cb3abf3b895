// Compiled with -mavx2 (src/sim/CMakeLists.txt). Only plain types cross
// this file's boundary: an inline function of another header compiled here
// for AVX2 could be the copy the linker keeps for the portable callers.
#include "sim/self/hash_scan.hpp"

#include <immintrin.h>

#include <array>

namespace drape::sim {
namespace {

// For each mask of eight lanes, the lanes it keeps, in order, a byte each.
constexpr std::array<std::uint64_t, 256> keptLanes() {
  std::array<std::uint64_t, 256> table{};
  for (unsigned mask = 0; mask < 256; ++mask) {
    int count = 0;
    for (unsigned lane = 0; lane < 8; ++lane)
      if ((mask >> lane) & 1u) table[mask] |= std::uint64_t(lane) << (8 * count++);
  }
  return table;
}
constexpr std::array<std::uint64_t, 256> kKeptLanes = keptLanes();

// Lanes whose box (entries k … k + 7) overlaps [lo, hi] on each axis, as
// min ≤ hi and lo ≤ max (false for NaN, as with SSE2).
__m256 overlapLanes(const float* const (&bounds)[6], std::uint32_t k, const __m256 (&below)[3],
                    const __m256 (&above)[3]) {
  __m256 in = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
  for (int a = 0; a < 3; ++a) {
    in = _mm256_and_ps(in, _mm256_cmp_ps(_mm256_loadu_ps(bounds[a] + k), below[a], _CMP_LE_OQ));
    in = _mm256_and_ps(in, _mm256_cmp_ps(above[a], _mm256_loadu_ps(bounds[3 + a] + k), _CMP_LE_OQ));
  }
  return in;
}

// Writes the lanes of `values` that `mask` keeps, in order, from `out` on
// (all eight written); returns the end of those kept.
std::uint32_t* keepLanes(__m256i values, unsigned mask, std::uint32_t* out) {
  const __m256i lanes =
      _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(&kKeptLanes[mask])));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_permutevar8x32_epi32(values, lanes));
  return out + __builtin_popcount(mask);
}

}  // namespace

std::uint32_t* scanOverlapsAvx2(const float* const (&bounds)[6], const std::uint32_t* items,
                                std::uint32_t begin, std::uint32_t end, const float (&lo)[3],
                                const float (&hi)[3], std::uint32_t* out) {
  __m256 below[3], above[3];
  for (int a = 0; a < 3; ++a) {
    below[a] = _mm256_set1_ps(hi[a]);
    above[a] = _mm256_set1_ps(lo[a]);
  }
  for (std::uint32_t k = begin; k < end; k += 8) {
    unsigned mask = unsigned(_mm256_movemask_ps(overlapLanes(bounds, k, below, above)));
    if (end - k < 8) mask &= (1u << (end - k)) - 1u;
    // The kept ids moved to the front, written whole; the end moves past them.
    out = keepLanes(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(items + k)), mask, out);
  }
  return out;
}

std::uint32_t* scanTaggedAvx2(const float* const (&bounds)[6], const std::uint32_t* items,
                              std::uint32_t begin, std::uint32_t end, const float (&lo)[2][3],
                              const float (&hi)[2][3], std::uint32_t* out) {
  __m256 below[2][3], above[2][3];
  for (int b = 0; b < 2; ++b)
    for (int a = 0; a < 3; ++a) {
      below[b][a] = _mm256_set1_ps(hi[b][a]);
      above[b][a] = _mm256_set1_ps(lo[b][a]);
    }
  for (std::uint32_t k = begin; k < end; k += 8) {
    const __m256i first = _mm256_castps_si256(overlapLanes(bounds, k, below[0], above[0]));
    const __m256i second = _mm256_castps_si256(overlapLanes(bounds, k, below[1], above[1]));
    unsigned mask =
        unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_or_si256(first, second))));
    if (end - k < 8) mask &= (1u << (end - k)) - 1u;
    // 4 id + the bits of the boxes it overlaps (all-ones lanes: −1 and −2).
    const __m256i ids =
        _mm256_slli_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(items + k)), 2);
    const __m256i tags = _mm256_or_si256(_mm256_and_si256(first, _mm256_set1_epi32(1)),
                                         _mm256_and_si256(second, _mm256_set1_epi32(2)));
    out = keepLanes(_mm256_or_si256(ids, tags), mask, out);
  }
  return out;
}

}  // namespace drape::sim
