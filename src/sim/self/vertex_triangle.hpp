#pragma once
// The exact test of a vertex against a triangle over a step (Müller et al.
// 2007, §4.3): which side of the triangle the vertex must be kept on, from
// its distances to the triangle's planes at the start and the end of the
// step and where it meets them. Self-collision detection runs it on the
// vertices its spatial hash finds near each triangle, four at a time.

#include <cmath>

#include <glm/glm.hpp>

namespace drape::sim {

// Which side of triangle (a, b, c) vertex q must be kept on over the motion
// from the `from` positions to the `to` positions: +1 the front (normal
// (b − a) × (c − a)), −1 the back, 0 when it neither passes through nor ends
// within `reach` of the triangle (grown by `thickness` at its edges).
int vertexTriangleSide(const glm::vec3 (&from)[4], const glm::vec3 (&to)[4], float thickness,
                       float reach);
// vertexTriangleSide for `count` vertices against one triangle, tested four
// at a time side by side, as detection tests them: side[k] for vertex k,
// moving from from[k] to to[k] with reach[k], against the triangle moving
// from triangleFrom to triangleTo. The same answers as one at a time.
void vertexTriangleSides(const glm::vec3 (&triangleFrom)[3], const glm::vec3 (&triangleTo)[3],
                         const glm::vec3* from, const glm::vec3* to, const float* reach, int count,
                         float thickness, int* side);

// The pieces of vertexTriangleSide, for a detection that computes a
// triangle's planes once and tests many vertices against them.

// A triangle's plane and edges at one instant, computed once and tested
// against many vertices.
struct TrianglePlane {
  glm::vec3 a, N;      // a corner, and the normal (b − a) × (c − a)
  float nn = 0.0f;     // |N|²
  float len = 0.0f;    // |N|
  float edge[3] = {};  // |c − b|, |a − c|, |b − a|
  glm::vec3 b, c;
  bool valid = false;  // not a sliver
};

// A triangle over the step: its planes at the start and the end.
struct TriangleMotion {
  TrianglePlane start, end;
};

// The triangle's planes at the start (corners `from`) and the end (`to`).
TriangleMotion triangleMotion(const glm::vec3* from, const glm::vec3* to);

// The sides of the first `count` of four vertices, moving from q0[k] to
// q1[k] with reach[k], against a triangle whose planes are computed (both
// valid); the other lanes are filled, and what they give is not read.
// Tested four side by side where SSE2 is there, with the same bits as
// vertexTriangleSide. Returns the mask of the vertices that get a side (bit
// k for vertex k); for those, side[k] is it and approach[k] how far the
// vertex came towards the plane on that side over the step (0 if it went
// away).
int vertexSides4(const TriangleMotion& m, const glm::vec3 (&q0)[4], const glm::vec3 (&q1)[4],
                 const float (&reach)[4], int count, float thickness, int (&side)[4],
                 float (&approach)[4]);

// A triangle (a, b, c) in double precision, for the tests of many
// segments against it: detection asks whether each edge of every vertex
// that gets a constraint passes through the triangle, and the edges of one
// vertex share an end.
struct DoubleTriangle {
  glm::dvec3 a{0.0}, b{0.0}, c{0.0}, N{0.0};  // N = (b − a) × (c − a)
  DoubleTriangle() = default;
  DoubleTriangle(const glm::dvec3& a_, const glm::dvec3& b_, const glm::dvec3& c_)
      : a(a_), b(b_), c(c_), N(glm::cross(b_ - a_, c_ - a_)) {}
  // p's distance from the plane, times |N|.
  double side(const glm::dvec3& p) const { return glm::dot(p - a, N); }
  // Does segment [p, q] pass through the triangle, dp and dq being side(p)
  // and side(q)?
  bool crossedBy(const glm::dvec3& p, double dp, const glm::dvec3& q, double dq) const {
    if ((dp > 0.0 && dq > 0.0) || (dp < 0.0 && dq < 0.0) || dp == dq) return false;
    const glm::dvec3 x = p + (dp / (dp - dq)) * (q - p);
    return glm::dot(glm::cross(b - a, x - a), N) >= 0.0 &&
           glm::dot(glm::cross(c - b, x - b), N) >= 0.0 &&
           glm::dot(glm::cross(a - c, x - c), N) >= 0.0;
  }
};

// Whether segment p–q passes through the interior of triangle (a, b, c):
// its ends strictly on either side of the plane and the crossing point
// strictly inside, each by more than `tolerance` (relative: of the segment's
// length for the ends' distances, of the barycentric weights for the point).
// Surfaces that only touch (an end on the triangle, the segment in its plane
// or through its boundary) do not cross.
inline bool segmentCrossesTriangleStrictly(const glm::dvec3& p, const glm::dvec3& q,
                                           const glm::dvec3& a, const glm::dvec3& b,
                                           const glm::dvec3& c, double tolerance = 1e-6) {
  const glm::dvec3 N = glm::cross(b - a, c - a);
  const double n2 = glm::dot(N, N);
  if (!(n2 > 0.0)) return false;
  const double dp = glm::dot(p - a, N), dq = glm::dot(q - a, N);
  // Distances from the plane times |N|; the least that counts, times |N| too.
  const double least = tolerance * glm::length(q - p) * std::sqrt(n2);
  if (!((dp > least && dq < -least) || (dp < -least && dq > least))) return false;
  const glm::dvec3 x = p + (dp / (dp - dq)) * (q - p);
  const double wa = glm::dot(glm::cross(c - b, x - b), N) / n2;
  const double wb = glm::dot(glm::cross(a - c, x - c), N) / n2;
  const double wc = 1.0 - wa - wb;
  return wa > tolerance && wb > tolerance && wc > tolerance;
}

}  // namespace drape::sim
