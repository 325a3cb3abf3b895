// The batched kernels instantiated for eight AVX2 lanes. This file alone is
// compiled with -mavx2; it is only called when the CPU has AVX2. Two
// batches at a time where a range allows (lanes::Twice hides the latency of
// the long kernels; four spill registers); the results are the same bits.

#include "sim/solve/kernels.hpp"

namespace drape::sim::batch {

std::size_t stretchAvx2(const StretchArgs& args, std::size_t begin, std::size_t end) {
  std::size_t j = begin;
  for (; j + 16 <= end; j += 16) stretch<lanes::Twice<lanes::Lane8>>(args, j);
  for (; j + 8 <= end; j += 8) stretch<lanes::Lane8>(args, j);
  return j;
}

std::size_t bendAvx2(const BendArgs& args, std::size_t begin, std::size_t end) {
  std::size_t j = begin;
  for (; j + 16 <= end; j += 16) bend<lanes::Twice<lanes::Lane8>>(args, j);
  for (; j + 8 <= end; j += 8) bend<lanes::Lane8>(args, j);
  return j;
}

std::size_t tetherAvx2(const TetherArgs& args, std::size_t begin, std::size_t end) {
  std::size_t j = begin;
  for (; j + 16 <= end; j += 16) tether<lanes::Twice<lanes::Lane8>>(args, j);
  for (; j + 8 <= end; j += 8) tether<lanes::Lane8>(args, j);
  return j;
}

}  // namespace drape::sim::batch
