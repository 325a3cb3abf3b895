#include "sim/solve/ranges.hpp"

#include "sim/cpu.hpp"
#include "sim/solve/kernels.hpp"

namespace drape::sim::batch {

void stretchRange(const StretchArgs& args, std::size_t begin, std::size_t end, bool serial) {
  std::size_t j = begin;
#if defined(DRAPE_HAVE_AVX2_KERNELS)
  if (!serial && avx2Available()) j = stretchAvx2(args, begin, end);
#else
  (void)serial;
#endif
  for (; j < end; ++j) stretch<lanes::Lane1>(args, j);
}

void bendRange(const BendArgs& args, std::size_t begin, std::size_t end, bool serial) {
  std::size_t j = begin;
#if defined(DRAPE_HAVE_AVX2_KERNELS)
  if (!serial && avx2Available()) j = bendAvx2(args, begin, end);
#else
  (void)serial;
#endif
  for (; j < end; ++j) bend<lanes::Lane1>(args, j);
}

void tetherRange(const TetherArgs& args, std::size_t begin, std::size_t end) {
  std::size_t j = begin;
#if defined(DRAPE_HAVE_AVX2_KERNELS)
  if (avx2Available()) j = tetherAvx2(args, begin, end);
#endif
  for (; j < end; ++j) tether<lanes::Lane1>(args, j);
}

void toSolveBuffer(const float* p, const float* w, float* buffer, std::size_t n,
                   const glm::vec3& origin) {
  for (std::size_t i = 0; i < n; ++i) {
    buffer[4 * i + 0] = p[3 * i + 0] - origin.x;
    buffer[4 * i + 1] = p[3 * i + 1] - origin.y;
    buffer[4 * i + 2] = p[3 * i + 2] - origin.z;
    buffer[4 * i + 3] = w[i];
  }
}

void fromSolveBuffer(const float* buffer, float* p, std::size_t n, const glm::vec3& origin) {
  for (std::size_t i = 0; i < n; ++i) {
    p[3 * i + 0] = buffer[4 * i + 0] + origin.x;
    p[3 * i + 1] = buffer[4 * i + 1] + origin.y;
    p[3 * i + 2] = buffer[4 * i + 2] + origin.z;
  }
}

void share(std::size_t first, std::size_t last, int t, int n, std::size_t& begin,
           std::size_t& end) {
  const std::size_t batches = (last - first + 7) / 8;
  const std::size_t per = batches / std::size_t(n), extra = batches % std::size_t(n);
  const std::size_t ti = std::size_t(t);
  const std::size_t b0 = ti * per + std::min(ti, extra);
  const std::size_t b1 = b0 + per + (ti < extra ? 1 : 0);
  begin = std::min(last, first + b0 * 8);
  end = std::min(last, first + b1 * 8);
}

}  // namespace drape::sim::batch
