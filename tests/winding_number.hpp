#pragma once
// The tests' own inside/outside of a closed mesh, independent of the
// simulation's: the solid angle of each triangle seen from p, over 4π,
// summed (Van Oosterom & Strackee 1983): 1 inside a closed outward mesh, 0
// outside. `Mesh` has `positions` (vec3) and `triangles` (uvec3).

#include <cmath>

#include <glm/glm.hpp>

namespace test_geometry {

template <class Mesh>
double windingNumber(const Mesh& m, const glm::vec3& p) {
  double sum = 0.0;
  for (const glm::uvec3& t : m.triangles) {
    const glm::dvec3 a = glm::dvec3(m.positions[t.x]) - glm::dvec3(p);
    const glm::dvec3 b = glm::dvec3(m.positions[t.y]) - glm::dvec3(p);
    const glm::dvec3 c = glm::dvec3(m.positions[t.z]) - glm::dvec3(p);
    const double la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
    const double num = glm::dot(a, glm::cross(b, c));
    const double den =
        la * lb * lc + glm::dot(a, b) * lc + glm::dot(b, c) * la + glm::dot(c, a) * lb;
    sum += 2.0 * std::atan2(num, den);
  }
  return sum / (4.0 * 3.14159265358979323846);
}

}  // namespace test_geometry
