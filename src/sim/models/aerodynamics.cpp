#include "sim/models/aerodynamics.hpp"

#include <cmath>

#include "sim/cloth.hpp"
#include "sim/params.hpp"
#include "sim/state.hpp"

namespace drape::sim {

glm::vec3 triangleAeroForce(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                            const glm::vec3& velocity, const glm::vec3& wind, float drag,
                            float lift) {
  const glm::vec3 cross = glm::cross(b - a, c - a);
  const float twiceArea = glm::length(cross);
  const glm::vec3 v = wind - velocity;
  const float speed = glm::length(v);
  if (!(twiceArea > 1e-12f) || !(speed > 1e-9f)) return glm::vec3(0.0f);
  const glm::vec3 n = cross / twiceArea;
  const float area = 0.5f * twiceArea;
  const float vn = glm::dot(v, n);
  const float q = 0.5f * kAirDensity * area;
  const glm::vec3 fDrag = (drag * speed * vn) * n;
  const glm::vec3 fLift = (lift * vn) * (speed * n - (vn / speed) * v);
  return q * (fDrag + fLift);
}

void applyAerodynamics(const Cloth& cloth, const Params& prm, State& s, float h,
                       std::vector<glm::vec3>& force) {
  if (prm.wind == glm::vec3(0.0f)) return;
  force.assign(s.x.size(), glm::vec3(0.0f));
  for (const glm::uvec3& t : cloth.triangles) {
    const glm::vec3 mean = (s.v[t[0]] + s.v[t[1]] + s.v[t[2]]) / 3.0f;
    const glm::vec3 f =
        triangleAeroForce(s.x[t[0]], s.x[t[1]], s.x[t[2]], mean, prm.wind, prm.drag, prm.lift) /
        3.0f;
    force[t[0]] += f;
    force[t[1]] += f;
    force[t[2]] += f;
  }
  for (std::size_t i = 0; i < s.v.size(); ++i) {
    if (s.w[i] == 0.0f) continue;
    glm::vec3 dv = (h * s.w[i]) * force[i];
    // Bound the explicit step: no faster than the air relative to the vertex.
    const float limit = glm::length(prm.wind - s.v[i]);
    const float len = glm::length(dv);
    if (len > limit) dv *= limit / len;
    s.v[i] += dv;
  }
}

}  // namespace drape::sim
