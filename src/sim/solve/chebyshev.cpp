#include "sim/solve/chebyshev.hpp"

namespace drape::sim {

float chebyshevOmega(int iteration, float rho, float previousOmega) {
  if (iteration < kChebyshevStart || rho <= 0.0f) return 1.0f;
  const float r2 = rho * rho;
  if (iteration == kChebyshevStart) return 2.0f / (2.0f - r2);
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

}  // namespace drape::sim
