#pragma once
// Coloured, batched projection of stretch and dihedral bending constraints.
// Same constraint math as the reference kernels in step.cpp
// in a colour-by-colour Gauss-Seidel order; SIMD lanes and threads split each
// colour, so the result does not depend on the thread count.

#include <glm/glm.hpp>

#include "sim/solve/coloring.hpp"
#include "sim/solve/kernel_args.hpp"

namespace drape::sim::batch {

// Project constraints [begin, end) of one colour (or, for the serial colour,
// one after another).
void stretchRange(const StretchArgs& args, std::size_t begin, std::size_t end, bool serial);
void bendRange(const BendArgs& args, std::size_t begin, std::size_t end, bool serial);
// Tethers [begin, end): they share no free vertex, so any range is a batch.
void tetherRange(const TetherArgs& args, std::size_t begin, std::size_t end);

// The solve buffer (kernel_args.hpp) from positions (x y z) and inverse
// masses of n vertices, and its positions back; the buffer holds them
// relative to `origin`.
void toSolveBuffer(const float* p, const float* w, float* buffer, std::size_t n,
                   const glm::vec3& origin = glm::vec3(0.0f));
void fromSolveBuffer(const float* buffer, float* p, std::size_t n,
                     const glm::vec3& origin = glm::vec3(0.0f));

// The part [begin, end) of colour range [first, last) that thread `t` of `n`
// projects: split at multiples of eight so SIMD batches stay whole.
void share(std::size_t first, std::size_t last, int t, int n, std::size_t& begin, std::size_t& end);

}  // namespace drape::sim::batch
