// The batched kernels instantiated for eight AVX2 lanes. This file alone is
// compiled with -mavx2; it is only called when the CPU has AVX2.

#include "sim/batch_kernels.hpp"

namespace drape::sim::batch {

std::size_t stretchAvx2(const StretchArgs& args, std::size_t begin, std::size_t end) {
  std::size_t j = begin;
  for (; j + 8 <= end; j += 8) stretch<lanes::Lane8>(args, j);
  return j;
}

std::size_t bendAvx2(const BendArgs& args, std::size_t begin, std::size_t end) {
  std::size_t j = begin;
  for (; j + 8 <= end; j += 8) bend<lanes::Lane8>(args, j);
  return j;
}

}  // namespace drape::sim::batch
