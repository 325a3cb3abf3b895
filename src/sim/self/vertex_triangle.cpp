#include "sim/self/vertex_triangle.hpp"

#include <algorithm>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace drape::sim {
namespace {

// A triangle's plane and edges, and whether it is not a sliver.
TrianglePlane trianglePlane(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  TrianglePlane t;
  t.a = a;
  t.b = b;
  t.c = c;
  t.N = glm::cross(b - a, c - a);
  t.nn = glm::dot(t.N, t.N);
  t.len = glm::length(t.N);
  t.edge[0] = glm::length(c - b);
  t.edge[1] = glm::length(a - c);
  t.edge[2] = glm::length(b - a);
  const float longest =
      std::max({glm::dot(b - a, b - a), glm::dot(c - a, c - a), glm::dot(c - b, c - b)});
  t.valid = t.len > 1e-6f * longest;
  return t;
}

// Signed distance of q to the triangle's plane (a valid one).
float planeDistance(const TrianglePlane& t, const glm::vec3& q) {
  return glm::dot(q - t.a, t.N) / t.len;
}

// Whether the projection of q onto the plane of the triangle lies in the
// triangle grown by `margin` (m) beyond each edge. Barycentric b_i < 0 puts
// the point −b_i |N| / |opposite edge| outside that edge.
bool insideGrown(const TrianglePlane& t, const glm::vec3& q, float margin) {
  if (!(t.nn > 0.0f)) return false;
  const float ba = glm::dot(glm::cross(t.c - t.b, q - t.b), t.N) / t.nn;
  const float bb = glm::dot(glm::cross(t.a - t.c, q - t.c), t.N) / t.nn;
  const float bc = 1.0f - ba - bb;
  return ba * t.len >= -margin * t.edge[0] && bb * t.len >= -margin * t.edge[1] &&
         bc * t.len >= -margin * t.edge[2];
}

// What a vertex's motion q0 → q1 gives against a triangle whose planes are
// computed (both valid): its signed distances to the start and end planes,
// and whether it ends within `reach` of the end plane inside the end
// triangle grown by the thickness.
struct PlaneTest {
  float d0 = 0.0f, d1 = 0.0f;
  bool endInside = false;
};

// The PlaneTest of one vertex.
PlaneTest planeTest(const TriangleMotion& m, const glm::vec3& q0, const glm::vec3& q1,
                    float thickness, float reach) {
  PlaneTest r;
  r.d0 = planeDistance(m.start, q0);
  r.d1 = planeDistance(m.end, q1);
  r.endInside = std::abs(r.d1) < reach && insideGrown(m.end, q1, thickness);
  return r;
}

#if defined(__SSE2__)
// planeTest for four vertices at once, each lane the same operations in the
// same order as planeTest (the same bits), so the divisions overlap and the
// outcome needs no branch.
int planeTest4(const TriangleMotion& m, const glm::vec3 (&q0)[4], const glm::vec3 (&q1)[4],
               float thickness, const float (&reach)[4], PlaneTest (&out)[4]) {
  auto lanes = [](const glm::vec3(&q)[4], int k) {
    return _mm_setr_ps(q[0][k], q[1][k], q[2][k], q[3][k]);
  };
  auto one = [](float v) { return _mm_set1_ps(v); };
  const __m128 x0 = lanes(q0, 0), y0 = lanes(q0, 1), z0 = lanes(q0, 2);
  const __m128 x1 = lanes(q1, 0), y1 = lanes(q1, 1), z1 = lanes(q1, 2);
  // dot(q − a, N) / |N|: (x + y) + z, as glm::dot.
  auto distance = [&](const TrianglePlane& t, __m128 x, __m128 y, __m128 z) {
    const __m128 dx = _mm_mul_ps(_mm_sub_ps(x, one(t.a.x)), one(t.N.x));
    const __m128 dy = _mm_mul_ps(_mm_sub_ps(y, one(t.a.y)), one(t.N.y));
    const __m128 dz = _mm_mul_ps(_mm_sub_ps(z, one(t.a.z)), one(t.N.z));
    return _mm_div_ps(_mm_add_ps(_mm_add_ps(dx, dy), dz), one(t.len));
  };
  const __m128 d0 = distance(m.start, x0, y0, z0), d1 = distance(m.end, x1, y1, z1);
  // insideGrown(m.end, q1, thickness): dot(cross(u, q − o), N) / |N|² for
  // the edges u = c − b from o = b and u = a − c from o = c.
  const TrianglePlane& t = m.end;
  auto barycentric = [&](const glm::vec3& u, const glm::vec3& o) {
    const __m128 vx = _mm_sub_ps(x1, one(o.x)), vy = _mm_sub_ps(y1, one(o.y)),
                 vz = _mm_sub_ps(z1, one(o.z));
    const __m128 cx = _mm_sub_ps(_mm_mul_ps(one(u.y), vz), _mm_mul_ps(vy, one(u.z)));
    const __m128 cy = _mm_sub_ps(_mm_mul_ps(one(u.z), vx), _mm_mul_ps(vz, one(u.x)));
    const __m128 cz = _mm_sub_ps(_mm_mul_ps(one(u.x), vy), _mm_mul_ps(vx, one(u.y)));
    const __m128 dot =
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(cx, one(t.N.x)), _mm_mul_ps(cy, one(t.N.y))),
                   _mm_mul_ps(cz, one(t.N.z)));
    return _mm_div_ps(dot, one(t.nn));
  };
  const __m128 ba = barycentric(t.c - t.b, t.b), bb = barycentric(t.a - t.c, t.c);
  const __m128 bc = _mm_sub_ps(_mm_sub_ps(one(1.0f), ba), bb);
  // Within the thickness outside each edge.
  auto within = [&](__m128 w, float edge) {
    return _mm_cmpge_ps(_mm_mul_ps(w, one(t.len)), one(-thickness * edge));
  };
  __m128 inside =
      _mm_and_ps(_mm_and_ps(within(ba, t.edge[0]), within(bb, t.edge[1])), within(bc, t.edge[2]));
  if (!(t.nn > 0.0f)) inside = _mm_setzero_ps();
  const __m128 absD1 = _mm_andnot_ps(_mm_set1_ps(-0.0f), d1);
  const int near = _mm_movemask_ps(_mm_and_ps(_mm_cmplt_ps(absD1, _mm_loadu_ps(reach)), inside));
  alignas(16) float d0s[4], d1s[4];
  _mm_store_ps(d0s, d0);
  _mm_store_ps(d1s, d1);
  for (int k = 0; k < 4; ++k) out[k] = {d0s[k], d1s[k], ((near >> k) & 1) != 0};
  const __m128 zero = _mm_setzero_ps();
  return near | _mm_movemask_ps(_mm_xor_ps(_mm_cmpgt_ps(d0, zero), _mm_cmpgt_ps(d1, zero)));
}
#endif

// The PlaneTest of the first `count` of four vertices (the other lanes are
// filled, and their outcome not read), four side by side where SSE2 is
// there. Returns a mask of the vertices that may get a side (bit k for
// vertex k): those that end near the triangle or cross its plane; sideFrom
// gives the others 0.
int planeTests(const TriangleMotion& m, const glm::vec3 (&q0)[4], const glm::vec3 (&q1)[4],
               float thickness, const float (&reach)[4], int count, PlaneTest (&out)[4]) {
#if defined(__SSE2__)
  return planeTest4(m, q0, q1, thickness, reach, out) & ((1 << count) - 1);
#else
  int maybe = 0;
  for (int k = 0; k < count; ++k) {
    out[k] = planeTest(m, q0[k], q1[k], thickness, reach[k]);
    if (out[k].endInside || (out[k].d0 > 0.0f) != (out[k].d1 > 0.0f)) maybe |= 1 << k;
  }
  return maybe;
#endif
}

// vertexTriangleSide for a triangle whose planes are computed (both valid),
// from the vertex's PlaneTest; *approach, when asked for, is how far the
// vertex came towards the plane on the side it is kept on (0 if it went
// away).
int sideFrom(const TriangleMotion& m, const glm::vec3& q0, const glm::vec3& q1,
             const PlaneTest& test, float thickness, float* approach = nullptr) {
  const float d0 = test.d0, d1 = test.d1;
  // The side it came from; a vertex that starts in the plane goes with its motion.
  const int side = d0 > 0.0f ? 1 : d0 < 0.0f ? -1 : (d1 >= 0.0f ? 1 : -1);
  if (approach) *approach = std::max(0.0f, float(side) * (d0 - d1));
  if ((d0 > 0.0f) != (d1 > 0.0f) && d0 != d1) {
    // It crosses the plane; where it does (the distance taken as linear in
    // time), is it inside the triangle?
    const float tau = d0 / (d0 - d1);
    auto at = [&](const glm::vec3& from, const glm::vec3& to) { return from + tau * (to - from); };
    if (insideGrown(
            trianglePlane(at(m.start.a, m.end.a), at(m.start.b, m.end.b), at(m.start.c, m.end.c)),
            at(q0, q1), thickness))
      return side;
  }
  return test.endInside ? side : 0;
}

}  // namespace

TriangleMotion triangleMotion(const glm::vec3* from, const glm::vec3* to) {
  return {trianglePlane(from[0], from[1], from[2]), trianglePlane(to[0], to[1], to[2])};
}

int vertexSides4(const TriangleMotion& m, const glm::vec3 (&q0)[4], const glm::vec3 (&q1)[4],
                 const float (&reach)[4], int count, float thickness, int (&side)[4],
                 float (&approach)[4]) {
  PlaneTest tests[4];
  int sided = 0;
  for (int maybe = planeTests(m, q0, q1, thickness, reach, count, tests); maybe != 0;
       maybe &= maybe - 1) {
    const int k = __builtin_ctz(unsigned(maybe));
    side[k] = sideFrom(m, q0[k], q1[k], tests[k], thickness, &approach[k]);
    if (side[k] != 0) sided |= 1 << k;
  }
  return sided;
}

int vertexTriangleSide(const glm::vec3 (&from)[4], const glm::vec3 (&to)[4], float thickness,
                       float reach) {
  const TriangleMotion m = triangleMotion(&from[1], &to[1]);
  if (!m.start.valid || !m.end.valid) return 0;
  return sideFrom(m, from[0], to[0], planeTest(m, from[0], to[0], thickness, reach), thickness);
}

void vertexTriangleSides(const glm::vec3 (&triangleFrom)[3], const glm::vec3 (&triangleTo)[3],
                         const glm::vec3* from, const glm::vec3* to, const float* reach, int count,
                         float thickness, int* side) {
  const TriangleMotion m = triangleMotion(triangleFrom, triangleTo);
  for (int begin = 0; begin < count; begin += 4) {
    const int n = std::min(4, count - begin);
    glm::vec3 q0[4], q1[4];
    float r[4];
    for (int k = 0; k < 4; ++k) {
      const int j = begin + (k < n ? k : 0);
      q0[k] = from[j];
      q1[k] = to[j];
      r[k] = reach[j];
    }
    int sides[4], sided = 0;
    float approach[4];
    if (m.start.valid && m.end.valid)
      sided = vertexSides4(m, q0, q1, r, n, thickness, sides, approach);
    for (int k = 0; k < n; ++k) side[begin + k] = (sided >> k) & 1 ? sides[k] : 0;
  }
}

}  // namespace drape::sim
