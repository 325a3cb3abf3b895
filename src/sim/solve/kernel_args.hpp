#pragma once
// Arguments of the batched kernels (kernels.hpp). Plain data with
// external linkage, shared by the portable and the AVX2 translation units.

#include <cstddef>
#include <cstdint>

namespace drape::sim::batch {

// `p` is the solve buffer (step.cpp): per vertex x, y, z and the inverse
// mass w, 16 bytes, so a point and its mass come in one aligned load.
struct StretchArgs {
  float* p;  // x y z w interleaved
  const std::uint32_t* a;
  const std::uint32_t* b;
  const float* rest;
  float* lambda;  // one per constraint (PBD: scratch)
  float k;
  float alphaTilde;
  // Per-constraint k and α̃ (materials, cloth.hpp) in place of the uniform
  // ones, where not null.
  const float* kEach = nullptr;
  const float* alphaEach = nullptr;
  float alphaScale = 1.0f;  // on alphaEach's values
};

struct BendArgs {
  float* p;  // x y z w interleaved
  const std::uint32_t* v[4];
  const float* restAngle;
  const float* restLength;
  const float* restArea;
  float* lambda;
  float k;
  float alphaTilde;
  bool safeguards;               // area scaling and the move bound (see step.cpp)
  float maxMove;                 // fraction of the hinge's rest length
  const float* kEach = nullptr;  // as in StretchArgs
  const float* alphaEach = nullptr;
  float alphaScale = 1.0f;
};

// Tethers (tethers.hpp): vertex[j] kept within rest[j] · slack of its pin
// anchor[j].
struct TetherArgs {
  float* p;  // x y z w interleaved
  const std::uint32_t* vertex;
  const std::uint32_t* anchor;
  const float* rest;
  float slack;
};

// The AVX2 translation unit: project [begin, end) in batches of eight and
// return where it stopped (the caller finishes the tail one by one).
std::size_t stretchAvx2(const StretchArgs& args, std::size_t begin, std::size_t end);
std::size_t bendAvx2(const BendArgs& args, std::size_t begin, std::size_t end);
std::size_t tetherAvx2(const TetherArgs& args, std::size_t begin, std::size_t end);

}  // namespace drape::sim::batch
