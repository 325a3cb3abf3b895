#pragma once
// Batched projection kernels over packed, coloured constraints, written once
// for every lane type (lanes.hpp). One call projects `L::width` consecutive
// constraints of one colour; they share no vertex, so the lanes' writes never
// collide. PBD and XPBD share one form:
//
//   Δλ = (−C − α̃ λ) / (Σ w |∇C|² + α̃),   Δp_i = k · w_i ∇_i C · Δλ
//
// PBD: α̃ = 0 and k the linearised stiffness; XPBD: k = 1.
// Internal linkage for the reason given in lanes.hpp.

#include <cstddef>
#include <cstdint>

#include "sim/solve/kernel_args.hpp"
#include "sim/solve/lanes.hpp"

namespace drape::sim::batch {
namespace {

using lanes::V3;

// A point of the solve buffer: position and inverse mass.
template <typename L>
struct Point {
  V3<L> x;
  L w;
};

template <typename L>
inline Point<L> loadPoint(const float* p, const std::uint32_t* idx) {
  Point<L> q;
  lanes::loadPoints(p, idx, q.x.x, q.x.y, q.x.z, q.w);
  return q;
}

// Writes base + d with the point's mass unchanged (the whole 16 bytes, so
// no partial store and no read-modify-write).
template <typename L>
inline void storeMoved(float* p, const std::uint32_t* idx, const Point<L>& base, const V3<L>& d) {
  const V3<L> r = base.x + d;
  lanes::storePoints(p, idx, r.x, r.y, r.z, base.w);
}

template <typename L>
inline void stretch(const StretchArgs& s, std::size_t j) {
  L* t = nullptr;
  const std::uint32_t* ia = s.a + j;
  const std::uint32_t* ib = s.b + j;
  const Point<L> q0 = loadPoint<L>(s.p, ia), q1 = loadPoint<L>(s.p, ib);
  const L w0 = q0.w, w1 = q1.w;
  const V3<L> d = q0.x - q1.x;
  const L len = lanes::sqrtL(lanes::dot(d, d));
  const auto valid = len > lanes::splat(t, 1e-12f);
  const L safeLen = lanes::select(valid, len, lanes::splat(t, 1.0f));
  const L C = len - lanes::load(s.rest + j, t);
  const L alpha = s.alphaEach ? lanes::load(s.alphaEach + j, t) * lanes::splat(t, s.alphaScale)
                              : lanes::splat(t, s.alphaTilde);
  const L denom = w0 + w1 + alpha;
  const L lambda = lanes::load(s.lambda + j, t);
  const auto ok = valid & (denom > lanes::splat(t, 1e-20f));
  const L dl =
      lanes::select(ok, (-C - alpha * lambda) / lanes::select(ok, denom, lanes::splat(t, 1.0f)),
                    lanes::splat(t, 0.0f));
  const L newLambda = lambda + dl;
  lanes::store(s.lambda + j, newLambda);
  const V3<L> n = (lanes::splat(t, 1.0f) / safeLen) * d;
  const L f = (s.kEach ? lanes::load(s.kEach + j, t) : lanes::splat(t, s.k)) * dl;
  storeMoved(s.p, ia, q0, (f * w0) * n);
  storeMoved(s.p, ib, q1, (-(f * w1)) * n);
}

// Dihedral bending (constraints.hpp, evalDihedral): x2→x3 shared, x0 and x1
// opposite; ∇C = −u_k.
template <typename L>
inline void bend(const BendArgs& s, std::size_t j) {
  L* t = nullptr;
  const L zero = lanes::splat(t, 0.0f), one = lanes::splat(t, 1.0f);
  const std::uint32_t* i0 = s.v[0] + j;
  const std::uint32_t* i1 = s.v[1] + j;
  const std::uint32_t* i2 = s.v[2] + j;
  const std::uint32_t* i3 = s.v[3] + j;
  const Point<L> q0 = loadPoint<L>(s.p, i0), q1 = loadPoint<L>(s.p, i1);
  const Point<L> q2 = loadPoint<L>(s.p, i2), q3 = loadPoint<L>(s.p, i3);
  const V3<L>&x0 = q0.x, &x1 = q1.x, &x2 = q2.x, &x3 = q3.x;
  const L w0 = q0.w, w1 = q1.w, w2 = q2.w, w3 = q3.w;

  const V3<L> e = x3 - x2;
  const V3<L> N1 = lanes::cross(x2 - x0, x3 - x0);
  const V3<L> N2 = lanes::cross(x3 - x1, x2 - x1);
  const L el2 = lanes::dot(e, e);
  const L el = lanes::sqrtL(el2);
  const L n1sq = lanes::dot(N1, N1), n2sq = lanes::dot(N2, N2);
  const L sliver = lanes::splat(t, 1e-6f) * el2 * el2;
  const auto valid = (el > lanes::splat(t, 1e-12f)) & (n1sq > sliver) & (n2sq > sliver);
  const L sel = lanes::select(valid, el, one);
  const L s1 = lanes::select(valid, n1sq, one), s2 = lanes::select(valid, n2sq, one);
  const V3<L> a = (one / s1) * N1, b = (one / s2) * N2;
  const V3<L> u0 = sel * a;
  const V3<L> u1 = sel * b;
  // d_k = (x_k − x3)·ê. The gradients sum to zero (C is invariant to
  // translation), so u3's coefficients are −(|e| + d_k): that is
  // (x2 − x_k)·ê, as in constraints.hpp, without two more dot products.
  const L invEl = one / sel;
  const L d0 = lanes::dot(x0 - x3, e) * invEl, d1 = lanes::dot(x1 - x3, e) * invEl;
  const V3<L> u2 = d0 * a + d1 * b;
  const V3<L> u3 = (-(sel + d0)) * a + (-(sel + d1)) * b;
  // θ = atan2((N1 × N2)·ê, N1·N2); atan2 is invariant to scaling both
  // arguments by |e| > 0, so ê need not be formed.
  const L theta = lanes::atan2L(lanes::dot(lanes::cross(N1, N2), e), sel * lanes::dot(N1, N2));
  const L pi = lanes::splat(t, 3.14159265358979f), twoPi = lanes::splat(t, 6.28318530717959f);
  L C = theta - lanes::load(s.restAngle + j, t);
  C = lanes::select(C > pi, C - twoPi, C);
  C = lanes::select(pi < -C, C + twoPi, C);  // C ≤ −π

  const L wu0 = w0 * lanes::dot(u0, u0), wu1 = w1 * lanes::dot(u1, u1);
  const L wu2 = w2 * lanes::dot(u2, u2), wu3 = w3 * lanes::dot(u3, u3);
  const L alpha = s.alphaEach ? lanes::load(s.alphaEach + j, t) * lanes::splat(t, s.alphaScale)
                              : lanes::splat(t, s.alphaTilde);
  const L k = s.kEach ? lanes::load(s.kEach + j, t) : lanes::splat(t, s.k);
  const L denom = wu0 + wu1 + wu2 + wu3 + alpha;
  const L lambda = lanes::load(s.lambda + j, t);
  const auto ok = valid & (denom > lanes::splat(t, 1e-20f));
  L dl = lanes::select(ok, (-C - alpha * lambda) / lanes::select(ok, denom, one), zero);
  if (s.safeguards) {
    // A partial step (Δλ scaled, so XPBD's multiplier stays consistent):
    // by the rest-to-current area of the stencil, and so that no vertex
    // moves more than maxMove times the hinge's rest length (see step.cpp).
    const L area = lanes::sqrtL(s1) + lanes::sqrtL(s2);
    const L restArea = lanes::load(s.restArea + j, t);
    dl = dl * lanes::select(area > restArea, restArea / area, one);
    // The largest move is |k Δλ|·max_k w_k|u_k|.
    const L m2 = lanes::maxL(lanes::maxL(w0 * wu0, w1 * wu1), lanes::maxL(w2 * wu2, w3 * wu3));
    const L largest = lanes::absL(k * dl) * lanes::sqrtL(m2);
    const L limit = lanes::splat(t, s.maxMove) * lanes::load(s.restLength + j, t);
    dl = lanes::select(largest > limit, dl * (limit / lanes::select(largest > limit, largest, one)),
                       dl);
  }
  lanes::store(s.lambda + j, lambda + dl);

  // Δp_k = k · w_k ∇_k C · Δλ = −k · w_k u_k · Δλ.
  const L f = -(k * dl);
  storeMoved(s.p, i0, q0, (f * w0) * u0);
  storeMoved(s.p, i1, q1, (f * w1) * u1);
  storeMoved(s.p, i2, q2, (f * w2) * u2);
  storeMoved(s.p, i3, q3, (f * w3) * u3);
}

// A tether (tethers.hpp): the free
// vertex is pulled back to rest · slack from its pin when further. A lane
// whose vertex is held (w = 0) or within reach is written back unchanged.
template <typename L>
inline void tether(const TetherArgs& s, std::size_t j) {
  L* t = nullptr;
  const std::uint32_t* iv = s.vertex + j;
  const Point<L> q = loadPoint<L>(s.p, iv);
  const Point<L> a = loadPoint<L>(s.p, s.anchor + j);
  const V3<L> d = q.x - a.x;
  const L len = lanes::sqrtL(lanes::dot(d, d));
  const L rest = lanes::load(s.rest + j, t) * lanes::splat(t, s.slack);
  const auto pull = (q.w > lanes::splat(t, 0.0f)) & (len > rest);
  const L f = lanes::select(pull, (len - rest) / lanes::select(pull, len, lanes::splat(t, 1.0f)),
                            lanes::splat(t, 0.0f));
  const V3<L> r = q.x - f * d;
  lanes::storePoints(s.p, iv, lanes::select(pull, r.x, q.x.x), lanes::select(pull, r.y, q.x.y),
                     lanes::select(pull, r.z, q.x.z), q.w);
}

}  // namespace
}  // namespace drape::sim::batch
