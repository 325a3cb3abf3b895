// Compiled with -mavx2 (src/sim/CMakeLists.txt). Only plain types cross
// this file's boundary: an inline function of another header compiled here
// for AVX2 could be the copy the linker keeps for the portable callers.
#include "sim/collision/hash_scan.hpp"

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
    // min ≤ hi and lo ≤ max on each axis (false for NaN, as with SSE2).
    __m256 in = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
    for (int a = 0; a < 3; ++a) {
      in = _mm256_and_ps(in, _mm256_cmp_ps(_mm256_loadu_ps(bounds[a] + k), below[a], _CMP_LE_OQ));
      in = _mm256_and_ps(in,
                         _mm256_cmp_ps(above[a], _mm256_loadu_ps(bounds[3 + a] + k), _CMP_LE_OQ));
    }
    unsigned mask = unsigned(_mm256_movemask_ps(in));
    if (end - k < 8) mask &= (1u << (end - k)) - 1u;
    // The kept ids moved to the front, written whole; the end moves past them.
    const __m256i lanes =
        _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(&kKeptLanes[mask])));
    const __m256i ids = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(items + k));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_permutevar8x32_epi32(ids, lanes));
    out += __builtin_popcount(mask);
  }
  return out;
}

}  // namespace drape::sim
