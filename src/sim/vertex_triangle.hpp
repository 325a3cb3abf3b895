#pragma once
// The exact test of a vertex against a triangle over a step (paper §4.3,
// pbd.md §7): which side of the triangle the vertex must be kept on, from
// its distances to the triangle's planes at the start and the end of the
// step and where it meets them. Self-collision detection runs it on the
// vertices its spatial hash finds near each triangle, four at a time.

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

// What a vertex's motion q0 → q1 gives against a triangle whose planes are
// computed (both valid): its signed distances to the start and end planes,
// and whether it ends within `reach` of the end plane inside the end
// triangle grown by the thickness.
struct PlaneTest {
  float d0 = 0.0f, d1 = 0.0f;
  bool endInside = false;
};

// The PlaneTest of the first `count` of four vertices (the other lanes are
// filled, and their outcome not read), four side by side where SSE2 is
// there, with the same bits as one at a time. Returns a mask of the
// vertices that may get a side (bit k for vertex k): those that end near the
// triangle or cross its plane; sideFrom gives the others 0.
int planeTests(const TriangleMotion& m, const glm::vec3 (&q0)[4], const glm::vec3 (&q1)[4],
               float thickness, const float (&reach)[4], int count, PlaneTest (&out)[4]);

// vertexTriangleSide for a triangle whose planes are computed (both valid),
// from the vertex's PlaneTest; *approach, when asked for, is how far the
// vertex came towards the plane on the side it is kept on (0 if it went
// away).
int sideFrom(const TriangleMotion& m, const glm::vec3& q0, const glm::vec3& q1,
             const PlaneTest& test, float thickness, float* approach = nullptr);

// Does segment [p, q] pass through triangle (a, b, c)? Double precision.
bool segmentCrossesTriangle(const glm::dvec3& p, const glm::dvec3& q, const glm::dvec3& a,
                            const glm::dvec3& b, const glm::dvec3& c);

}  // namespace drape::sim
