#pragma once
// The tests' own geometry, independent of the simulation's, in double
// precision.

#include <cmath>

#include <glm/glm.hpp>

namespace test_geometry {

// Inside/outside of a closed mesh: the solid angle of each triangle seen
// from p, over 4π, summed (Van Oosterom & Strackee 1983): 1 inside a closed
// outward mesh, 0 outside. `Mesh` has `positions` (vec3) and `triangles`
// (uvec3).
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

// Whether the open segment pq passes through the open triangle abc (Möller &
// Trumbore 1997): surfaces that only touch do not count.
inline bool segmentThroughTriangle(const glm::dvec3& p, const glm::dvec3& q, const glm::dvec3& a,
                                   const glm::dvec3& b, const glm::dvec3& c) {
  const glm::dvec3 e1 = b - a, e2 = c - a, d = q - p;
  const glm::dvec3 h = glm::cross(d, e2);
  const double det = glm::dot(e1, h);
  if (std::abs(det) < 1e-15) return false;
  const glm::dvec3 s = p - a;
  const double u = glm::dot(s, h) / det;
  const glm::dvec3 r = glm::cross(s, e1);
  const double v = glm::dot(d, r) / det;
  const double t = glm::dot(e2, r) / det;
  return u > 0.0 && v > 0.0 && u + v < 1.0 && t > 0.0 && t < 1.0;
}

// How many of the twelve edges of the box |x| ≤ h, placed by toWorld, pass
// through a triangle of the mesh (`positions`, `triangles`).
template <class Mesh, class ToWorld>
int boxEdgesThrough(const Mesh& m, const glm::dvec3& h, ToWorld&& toWorld) {
  glm::dvec3 corner[8];
  for (int i = 0; i < 8; ++i)
    corner[i] = toWorld(glm::dvec3(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z));
  int crossings = 0;
  for (int i = 0; i < 8; ++i)
    for (int bit = 1; bit < 8; bit <<= 1) {
      if (i & bit) continue;  // each edge once, from its lower corner
      for (const glm::uvec3& t : m.triangles)
        crossings +=
            segmentThroughTriangle(corner[i], corner[i | bit], glm::dvec3(m.positions[t.x]),
                                   glm::dvec3(m.positions[t.y]), glm::dvec3(m.positions[t.z]))
                ? 1
                : 0;
    }
  return crossings;
}

}  // namespace test_geometry
