#include "sim/cpu.hpp"

#include <atomic>

namespace drape::sim {
namespace {
std::atomic<bool> avx2Enabled{true};
}

bool avx2Available() {
#if defined(DRAPE_HAVE_AVX2_KERNELS) && (defined(__x86_64__) || defined(__i386__))
  static const bool available = __builtin_cpu_supports("avx2");
  return available && avx2Enabled.load(std::memory_order_relaxed);
#else
  return false;
#endif
}

void setAvx2Enabled(bool enabled) {
  avx2Enabled.store(enabled);
}

}  // namespace drape::sim
