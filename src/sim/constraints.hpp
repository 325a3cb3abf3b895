#pragma once
// Constraint functions as pure math: positions in, the value C and
// its gradients out, degenerate input reported through `valid`. Templated on
// the scalar so the tests check every gradient against central finite
// differences in double precision; the solver instantiates them in float.

#include <cmath>

#include <glm/glm.hpp>

namespace drape::sim {

template <int N, typename T>
struct ConstraintEval {
  T C = T(0);
  glm::vec<3, T> grad[N];
  bool valid = false;  // false: degenerate configuration, skip the constraint
};

// Wrap an angle difference into (−π, π].
template <typename T>
T wrapAngle(T a) {
  const T pi = T(3.14159265358979323846);
  while (a > pi) a -= T(2) * pi;
  while (a <= -pi) a += T(2) * pi;
  return a;
}

// Stretch (Müller et al. 2007): C = |p0 − p1| − l0.
template <typename T>
ConstraintEval<2, T> evalStretch(const glm::vec<3, T>& p0, const glm::vec<3, T>& p1, T rest) {
  ConstraintEval<2, T> e;
  const glm::vec<3, T> d = p0 - p1;
  const T len = glm::length(d);
  if (!(len > T(1e-12))) return e;
  const glm::vec<3, T> n = d / len;
  e.C = len - rest;
  e.grad[0] = n;
  e.grad[1] = -n;
  e.valid = true;
  return e;
}

// A rope's turn at x1 between its segments e1 = x1 − x0 and e2 = x2 − x1:
// C = θ − θ0, θ the angle between them (0 straight). A rod without twist
// (Kugelstadt & Schömer 2016, the bend part alone). With u1 the unit part
// of ê2 across ê1 and u2 that of ê1 across ê2,
//
//   ∂θ/∂x0 = u1 / |e1|,  ∂θ/∂x2 = −u2 / |e2|,  ∂θ/∂x1 = −(∂θ/∂x0 + ∂θ/∂x2).
//
// Straight (θ ≈ 0) the gradient has no direction: invalid, which is right
// where θ0 = 0 (nothing to correct), and a rest turn is rarely met exactly
// straight.
template <typename T>
ConstraintEval<3, T> evalRodAngle(const glm::vec<3, T>& x0, const glm::vec<3, T>& x1,
                                  const glm::vec<3, T>& x2, T restAngle) {
  ConstraintEval<3, T> e;
  const glm::vec<3, T> e1 = x1 - x0, e2 = x2 - x1;
  const T l1 = glm::length(e1), l2 = glm::length(e2);
  if (!(l1 > T(1e-12)) || !(l2 > T(1e-12))) return e;
  const glm::vec<3, T> t1 = e1 / l1, t2 = e2 / l2;
  const T c = glm::dot(t1, t2);
  const glm::vec<3, T> a = t2 - c * t1, b = t1 - c * t2;
  const T la = glm::length(a), lb = glm::length(b);
  if (!(la > T(1e-7)) || !(lb > T(1e-7))) return e;
  e.C = std::atan2(glm::length(glm::cross(t1, t2)), c) - restAngle;
  e.grad[0] = a / (la * l1);
  e.grad[2] = -b / (lb * l2);
  e.grad[1] = -(e.grad[0] + e.grad[2]);
  e.valid = true;
  return e;
}

// A point of the cloth between its vertices held on a plane: C = (Σ w_i·p_i
// − q)·n ≥ 0 for the point with barycentric weights w of an edge or a
// triangle (an edge's third weight is 0), the plane through q with unit
// normal n (the cloth against a collider's edge or corner).
template <typename T>
ConstraintEval<3, T> evalPointPlane(const glm::vec<3, T> (&p)[3], const T (&w)[3],
                                    const glm::vec<3, T>& q, const glm::vec<3, T>& n) {
  ConstraintEval<3, T> e;
  e.C = glm::dot(w[0] * p[0] + w[1] * p[1] + w[2] * p[2] - q, n);
  for (int i = 0; i < 3; ++i) e.grad[i] = w[i] * n;
  e.valid = true;
  return e;
}

// Signed dihedral angle of two triangles sharing the edge x2→x3 (Müller et al. 2007,
// Bridson et al. 2003). Index convention:
//
//          x2
//         /|\        triangle 1 = (x0, x2, x3), normal N1 = (x2−x0)×(x3−x0)
//       x0 | x1      triangle 2 = (x1, x3, x2), normal N2 = (x3−x1)×(x2−x1)
//         \|/
//          x3
//
// θ = atan2((n1 × n2)·ê, n1·n2), 0 for a flat pair.
template <typename T>
bool dihedralAngle(const glm::vec<3, T>& x0, const glm::vec<3, T>& x1, const glm::vec<3, T>& x2,
                   const glm::vec<3, T>& x3, T& theta) {
  const glm::vec<3, T> e = x3 - x2;
  const glm::vec<3, T> n1 = glm::cross(x2 - x0, x3 - x0);
  const glm::vec<3, T> n2 = glm::cross(x3 - x1, x2 - x1);
  const T el = glm::length(e), l1 = glm::length(n1), l2 = glm::length(n2);
  if (!(el > T(1e-12)) || !(l1 > T(1e-20)) || !(l2 > T(1e-20))) return false;
  const glm::vec<3, T> a = n1 / l1, b = n2 / l2;
  theta = std::atan2(glm::dot(glm::cross(a, b), e / el), glm::dot(a, b));
  return true;
}

// Dihedral bending: C = wrap(θ − θ0), ∇C = −u_k with the u_k of Müller et al. 2007, appendix A.
template <typename T>
ConstraintEval<4, T> evalDihedral(const glm::vec<3, T>& x0, const glm::vec<3, T>& x1,
                                  const glm::vec<3, T>& x2, const glm::vec<3, T>& x3, T restAngle) {
  ConstraintEval<4, T> e;
  const glm::vec<3, T> edge = x3 - x2;
  const glm::vec<3, T> N1 = glm::cross(x2 - x0, x3 - x0);
  const glm::vec<3, T> N2 = glm::cross(x3 - x1, x2 - x1);
  const T el = glm::length(edge);
  const T n1sq = glm::dot(N1, N1), n2sq = glm::dot(N2, N2);
  // Skip slivers: a triangle whose area is tiny relative to its edge.
  if (!(el > T(1e-12)) || !(n1sq > T(1e-6) * el * el * el * el) ||
      !(n2sq > T(1e-6) * el * el * el * el))
    return e;
  const glm::vec<3, T> eh = edge / el;
  const glm::vec<3, T> a = N1 / n1sq, b = N2 / n2sq;  // N/|N|²
  const glm::vec<3, T> u0 = el * a;
  const glm::vec<3, T> u1 = el * b;
  const glm::vec<3, T> u2 = glm::dot(x0 - x3, eh) * a + glm::dot(x1 - x3, eh) * b;
  const glm::vec<3, T> u3 = glm::dot(x2 - x0, eh) * a + glm::dot(x2 - x1, eh) * b;
  const glm::vec<3, T> n1 = N1 / std::sqrt(n1sq), n2 = N2 / std::sqrt(n2sq);
  const T theta = std::atan2(glm::dot(glm::cross(n1, n2), eh), glm::dot(n1, n2));
  e.C = wrapAngle(theta - restAngle);
  e.grad[0] = -u0;
  e.grad[1] = -u1;
  e.grad[2] = -u2;
  e.grad[3] = -u3;
  e.valid = true;
  return e;
}

// Isometric bending (Bergou et al. 2006; Bender et al. 2014): a constant
// symmetric 4×4 matrix Q per stencil from the rest shape, C = ½ Σ Q_ij xi·xj − C0
// with C0 its rest value, ∇_i C = Σ_j Q_ij xj. Same index convention as the
// dihedral constraint (x2–x3 shared).
template <typename T>
struct IsometricQ {
  T q[4][4];
  bool valid = false;
};

template <typename T>
T cotangent(const glm::vec<3, T>& a, const glm::vec<3, T>& b) {
  const T s = glm::length(glm::cross(a, b));
  return s > T(1e-20) ? glm::dot(a, b) / s : T(0);
}

template <typename T>
IsometricQ<T> isometricQ(const glm::vec<3, T>& x0, const glm::vec<3, T>& x1,
                         const glm::vec<3, T>& x2, const glm::vec<3, T>& x3) {
  IsometricQ<T> out;
  // Shared edge (x2, x3), opposite x0 and x1; cotangents of the four angles at
  // the edge's ends.
  const glm::vec<3, T> e0 = x3 - x2;
  const glm::vec<3, T> e1 = x0 - x2, e2 = x1 - x2;  // from x2
  const glm::vec<3, T> e3 = x0 - x3, e4 = x1 - x3;  // from x3
  const T a0 = T(0.5) * glm::length(glm::cross(e0, e1));
  const T a1 = T(0.5) * glm::length(glm::cross(e0, e2));
  if (!(a0 > T(1e-20)) || !(a1 > T(1e-20))) return out;
  const T c01 = cotangent(e0, e1), c02 = cotangent(e0, e2);
  const T c03 = cotangent(-e0, e3), c04 = cotangent(-e0, e4);
  // K: discrete mean-curvature weights of (x0, x1, x2, x3); K·x = 0 when the
  // stencil is flat. An edge end's weight uses the angles at the other end.
  const T K[4] = {c01 + c03, c02 + c04, -c03 - c04, -c01 - c02};
  const T scale = T(3) / (T(2) * (a0 + a1));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) out.q[i][j] = scale * K[i] * K[j];
  out.valid = true;
  return out;
}

template <typename T>
ConstraintEval<4, T> evalIsometric(const glm::vec<3, T>* x, const T (&q)[4][4], T restValue) {
  ConstraintEval<4, T> e;
  // Relative to x3: the rows of Q sum to 0 only up to rounding, so in
  // absolute coordinates a cloth far from the origin (or falling) would see
  // a curvature of (row sum) × position and bend to undo it.
  T c = T(0);
  const glm::vec<3, T> o = x[3];
  for (int i = 0; i < 4; ++i) {
    glm::vec<3, T> g(T(0));
    for (int j = 0; j < 3; ++j) g += q[i][j] * (x[j] - o);
    e.grad[i] = g;
    c += glm::dot(x[i] - o, g);
  }
  e.C = T(0.5) * c - restValue;
  e.valid = true;
  return e;
}

// Isometric energy value ½ Σ Q_ij xi·xj (used for the rest value C0).
template <typename T>
T isometricValue(const glm::vec<3, T>* x, const T (&q)[4][4]) {
  T c = T(0);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) c += q[i][j] * glm::dot(x[i], x[j]);
  return T(0.5) * c;
}

// Contribution of one triangle (a, b, c) to the gradient of the volume
// constraint C = Σ (pa × pb)·pc − k V0 (Müller et al. 2007, §4.4).
template <typename T>
void volumeGradient(const glm::vec<3, T>& pa, const glm::vec<3, T>& pb, const glm::vec<3, T>& pc,
                    glm::vec<3, T>& ga, glm::vec<3, T>& gb, glm::vec<3, T>& gc) {
  ga = glm::cross(pb, pc);
  gb = glm::cross(pc, pa);
  gc = glm::cross(pa, pb);
}

// Tetrahedral volume (volume constraints per tetrahedron): an outward surface triangle
// (p1, p2, p3) and an interior point p4,
//
//            p3
//           /| \        six times the signed volume
//          / |  \       6V = ((p1 − p4) × (p2 − p4)) · (p3 − p4),
//        p1--|---p2     positive when p4 lies behind the triangle's outward
//          \ | /        normal (p2 − p1) × (p3 − p1). The seed writes
//            p4         ((p2−p1)×(p3−p1))·(p4−p1), which is −6V: its V0 < 0.
//
// C = 6V − rest (rest: k_pressure · 6V0), ∇p1 = b×d, ∇p2 = d×a, ∇p3 = a×b with
// a, b, d = p1, p2, p3 − p4, and ∇p4 = −(∇p1 + ∇p2 + ∇p3) (translation invariance).
template <typename T>
ConstraintEval<4, T> evalTetVolume(const glm::vec<3, T>& p1, const glm::vec<3, T>& p2,
                                   const glm::vec<3, T>& p3, const glm::vec<3, T>& p4,
                                   T restSixVolume) {
  ConstraintEval<4, T> e;
  const glm::vec<3, T> a = p1 - p4, b = p2 - p4, d = p3 - p4;
  e.grad[0] = glm::cross(b, d);
  e.grad[1] = glm::cross(d, a);
  e.grad[2] = glm::cross(a, b);
  e.grad[3] = -(e.grad[0] + e.grad[1] + e.grad[2]);
  e.C = glm::dot(e.grad[2], d) - restSixVolume;
  e.valid = true;
  return e;
}

// Collision half-space (Müller et al. 2007, §3.4): C = (p − q)·n − h ≥ 0.
template <typename T>
ConstraintEval<1, T> evalHalfSpace(const glm::vec<3, T>& p, const glm::vec<3, T>& q,
                                   const glm::vec<3, T>& n, T h) {
  ConstraintEval<1, T> e;
  e.C = glm::dot(p - q, n) - h;
  e.grad[0] = n;
  e.valid = true;
  return e;
}

// PBD projection of an evaluated constraint (Müller et al. 2007): the scale s such that
// Δp_i = −k · s · w_i ∇_i C. Returns false when the denominator vanishes.
template <int N, typename T>
bool pbdScale(const ConstraintEval<N, T>& e, const T* w, T& s) {
  T denom = T(0);
  for (int i = 0; i < N; ++i) denom += w[i] * glm::dot(e.grad[i], e.grad[i]);
  if (!(denom > T(1e-20))) return false;
  s = e.C / denom;
  return true;
}

// Whether a length whose square is `length2` is surely below `limit` (≥ 0):
// short of it by far more than the roundings of a square root and of the
// products, so that the root need not be taken to know (most coarse limits
// and most resting contacts' friction hold).
inline bool surelyShorter(float length2, float limit) {
  return length2 < (1.0f - 1e-5f) * (limit * limit);
}

// PBD: the stiffness per iteration that leaves an error of (1 − k) after n
// iterations, k' = 1 − (1 − k)^(1/n) (paper §3.3).
inline float linearizedStiffness(float k, int iterations) {
  if (k >= 1.0f) return 1.0f;
  if (k <= 0.0f) return 0.0f;
  return 1.0f - std::pow(1.0f - k, 1.0f / float(iterations > 0 ? iterations : 1));
}

}  // namespace drape::sim
