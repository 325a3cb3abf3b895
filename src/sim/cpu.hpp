#pragma once
// What the CPU offers the kernels: AVX2 lanes where it has them.

namespace drape::sim {

// Whether the AVX2 kernels run: the CPU has AVX2 and they are not switched
// off (tests switch them off to compare both paths).
bool avx2Available();
void setAvx2Enabled(bool enabled);

}  // namespace drape::sim
