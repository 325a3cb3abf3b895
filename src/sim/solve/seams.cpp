#include "sim/solve/seams.hpp"

#include <algorithm>

#include "sim/constraints.hpp"

namespace drape::sim {

float seamRest(const Seam& seam, double time, float closeTime) {
  if (!(closeTime > 0.0f)) return 0.0f;
  const double left = 1.0 - time / double(closeTime);
  return left > 0.0 ? float(double(seam.gap) * left) : 0.0f;
}

void solveSeams(const Points& pts, const Seam* seams, std::size_t count, double time,
                float closeTime, float maxMove) {
  for (std::size_t j = 0; j < count; ++j) {
    const Seam& s = seams[j];
    const float wa = pts.invMass(s.a), wb = pts.invMass(s.b);
    const float w = wa + wb;
    if (!(w > 0.0f)) continue;
    glm::vec3& pa = pts.p(s.a);
    glm::vec3& pb = pts.p(s.b);
    const ConstraintEval<2, float> e = evalStretch(pa, pb, seamRest(s, time, closeTime));
    if (!e.valid) continue;  // the ends coincide: closed
    const float c = std::clamp(e.C, -maxMove, maxMove);
    pa -= (wa / w) * c * e.grad[0];
    pb -= (wb / w) * c * e.grad[1];
  }
}

float seamGapMax(const std::vector<Seam>& seams, const std::vector<glm::vec3>& x) {
  float gap = 0.0f;
  for (const Seam& s : seams) gap = std::max(gap, glm::length(x[s.a] - x[s.b]));
  return gap;
}

}  // namespace drape::sim
