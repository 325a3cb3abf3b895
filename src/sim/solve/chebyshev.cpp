#include "sim/solve/chebyshev.hpp"
#include "sim/tuning.hpp"

#include <algorithm>
#include <cmath>

#include "sim/constraints.hpp"

namespace drape::sim {

float chebyshevOmega(int iteration, float rho, float previousOmega) {
  if (iteration < tuning::kChebyshevStart || rho <= 0.0f) return 1.0f;
  const float r2 = rho * rho;
  if (iteration == tuning::kChebyshevStart) return 2.0f / (2.0f - r2);
  return 4.0f / (4.0f - r2 * previousOmega);
}

void chebyshevRange(glm::vec4* points, glm::vec4* older, glm::vec4* last, std::size_t begin,
                    std::size_t end, float omega) {
  if (omega == 1.0f) {
    for (std::size_t i = begin; i < end; ++i) {
      older[i] = last[i];
      last[i] = points[i];
    }
    return;
  }
  for (std::size_t i = begin; i < end; ++i) {
    glm::vec4 q = points[i];
    if (q.w != 0.0f) {
      const glm::vec3 o(older[i]);
      const glm::vec3 r = omega * (glm::vec3(q) - o) + o;
      q = glm::vec4(r, q.w);
      points[i] = q;
    }
    older[i] = last[i];
    last[i] = q;
  }
}

void chebyshevValues(float* values, float* older, float* last, std::size_t begin, std::size_t end,
                     float omega) {
  for (std::size_t i = begin; i < end; ++i) {
    const float v = omega == 1.0f ? values[i] : omega * (values[i] - older[i]) + older[i];
    values[i] = v;
    older[i] = last[i];
    last[i] = v;
  }
}

double errorLeft(float kPrime, int iterations, float rho) {
  // e^{k+1} = ω (ê − e^{k−1}) + e^{k−1}, ê = (1 − k') e^k, from e^0 = 1.
  double older = 1.0, last = 1.0;
  float omega = 1.0f;
  for (int it = 0; it < iterations; ++it) {
    omega = chebyshevOmega(it, rho, omega);
    const double next = double(omega) * ((1.0 - double(kPrime)) * last - older) + older;
    older = last;
    last = next;
  }
  return last;
}

float acceleratedStiffness(float k, int iterations, float rho) {
  if (rho <= 0.0f || iterations <= tuning::kChebyshevStart || k <= 0.0f || k >= 1.0f)
    return linearizedStiffness(k, iterations);
  // Left is 1 at k' = 0 and 0 at k' = 1: bisect for 1 − k between.
  const double target = 1.0 - double(k);
  float lo = 0.0f, hi = 1.0f;
  for (int step = 0; step < 40; ++step) {
    const float mid = 0.5f * (lo + hi);
    (errorLeft(mid, iterations, rho) > target ? lo : hi) = mid;
  }
  return 0.5f * (lo + hi);
}

float acceleratedBendStiffness(float k, int iterations, float rho) {
  const bool accelerated = rho > 0.0f && iterations > tuning::kChebyshevStart;
  return acceleratedStiffness(accelerated ? std::min(k, std::nextafter(1.0f, 0.0f)) : k, iterations,
                              rho);
}

float sweptStiffness(float k, int iterations, int sweeps, float rho) {
  const float perIteration = acceleratedStiffness(k, iterations, rho);
  return sweeps > 1 ? linearizedStiffness(perIteration, sweeps) : perIteration;
}

}  // namespace drape::sim
