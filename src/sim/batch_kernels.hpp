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

#include "sim/batch_args.hpp"
#include "sim/lanes.hpp"

namespace drape::sim::batch {
namespace {

using lanes::V3;

template <typename L>
inline V3<L> gather3(const float* p, const std::uint32_t* idx) {
  V3<L> v;
  lanes::loadPoints(p, idx, v.x, v.y, v.z);
  return v;
}

template <typename L>
inline void scatterAdd3(float* p, const std::uint32_t* idx, const V3<L>& base, const V3<L>& d) {
  const V3<L> r = base + d;
  lanes::storePoints(p, idx, r.x, r.y, r.z);
}

template <typename L>
inline void stretch(const StretchArgs& s, std::size_t j) {
  L* t = nullptr;
  const std::uint32_t* ia = s.a + j;
  const std::uint32_t* ib = s.b + j;
  const V3<L> p0 = gather3<L>(s.p, ia), p1 = gather3<L>(s.p, ib);
  const L w0 = lanes::gather(s.w, ia, 1, 0, t), w1 = lanes::gather(s.w, ib, 1, 0, t);
  const V3<L> d = p0 - p1;
  const L len = lanes::sqrtL(lanes::dot(d, d));
  const auto valid = len > lanes::splat(t, 1e-12f);
  const L safeLen = lanes::select(valid, len, lanes::splat(t, 1.0f));
  const L C = len - lanes::load(s.rest + j, t);
  const L alpha = lanes::splat(t, s.alphaTilde);
  const L denom = w0 + w1 + alpha;
  const L lambda = lanes::load(s.lambda + j, t);
  const auto ok = valid & (denom > lanes::splat(t, 1e-20f));
  const L dl =
      lanes::select(ok, (-C - alpha * lambda) / lanes::select(ok, denom, lanes::splat(t, 1.0f)),
                    lanes::splat(t, 0.0f));
  const L newLambda = lambda + dl;
  lanes::store(s.lambda + j, newLambda);
  const V3<L> n = (lanes::splat(t, 1.0f) / safeLen) * d;
  const L f = lanes::splat(t, s.k) * dl;
  scatterAdd3(s.p, ia, p0, (f * w0) * n);
  scatterAdd3(s.p, ib, p1, (-(f * w1)) * n);
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
  const V3<L> x0 = gather3<L>(s.p, i0), x1 = gather3<L>(s.p, i1);
  const V3<L> x2 = gather3<L>(s.p, i2), x3 = gather3<L>(s.p, i3);
  const L w0 = lanes::gather(s.w, i0, 1, 0, t), w1 = lanes::gather(s.w, i1, 1, 0, t);
  const L w2 = lanes::gather(s.w, i2, 1, 0, t), w3 = lanes::gather(s.w, i3, 1, 0, t);

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
  const V3<L> eh = (one / sel) * e;
  const V3<L> a = (one / s1) * N1, b = (one / s2) * N2;
  const V3<L> u0 = sel * a;
  const V3<L> u1 = sel * b;
  const V3<L> u2 = lanes::dot(x0 - x3, eh) * a + lanes::dot(x1 - x3, eh) * b;
  const V3<L> u3 = lanes::dot(x2 - x0, eh) * a + lanes::dot(x2 - x1, eh) * b;
  // atan2 is invariant to scaling both arguments by |N1||N2| > 0.
  const L theta = lanes::atan2L(lanes::dot(lanes::cross(N1, N2), eh), lanes::dot(N1, N2));
  const L pi = lanes::splat(t, 3.14159265358979f), twoPi = lanes::splat(t, 6.28318530717959f);
  L C = theta - lanes::load(s.restAngle + j, t);
  C = lanes::select(C > pi, C - twoPi, C);
  C = lanes::select(pi < -C, C + twoPi, C);  // C ≤ −π

  const L wu0 = w0 * lanes::dot(u0, u0), wu1 = w1 * lanes::dot(u1, u1);
  const L wu2 = w2 * lanes::dot(u2, u2), wu3 = w3 * lanes::dot(u3, u3);
  const L alpha = lanes::splat(t, s.alphaTilde);
  const L denom = wu0 + wu1 + wu2 + wu3 + alpha;
  const L lambda = lanes::load(s.lambda + j, t);
  const auto ok = valid & (denom > lanes::splat(t, 1e-20f));
  L dl = lanes::select(ok, (-C - alpha * lambda) / lanes::select(ok, denom, one), zero);
  if (s.safeguards) {
    // A partial step (Δλ scaled, so XPBD's multiplier stays consistent):
    // by the rest-to-current area of the stencil, and so that no vertex
    // moves more than maxMove times the hinge's rest length (see solver.cpp).
    const L area = lanes::sqrtL(s1) + lanes::sqrtL(s2);
    const L restArea = lanes::load(s.restArea + j, t);
    dl = dl * lanes::select(area > restArea, restArea / area, one);
    // The largest move is |k Δλ|·max_k w_k|u_k|.
    const L m2 = lanes::maxL(lanes::maxL(w0 * wu0, w1 * wu1), lanes::maxL(w2 * wu2, w3 * wu3));
    const L largest = lanes::absL(lanes::splat(t, s.k) * dl) * lanes::sqrtL(m2);
    const L limit = lanes::splat(t, s.maxMove) * lanes::load(s.restLength + j, t);
    dl = lanes::select(largest > limit, dl * (limit / lanes::select(largest > limit, largest, one)),
                       dl);
  }
  lanes::store(s.lambda + j, lambda + dl);

  // Δp_k = k · w_k ∇_k C · Δλ = −k · w_k u_k · Δλ.
  const L f = -(lanes::splat(t, s.k) * dl);
  scatterAdd3(s.p, i0, x0, (f * w0) * u0);
  scatterAdd3(s.p, i1, x1, (f * w1) * u1);
  scatterAdd3(s.p, i2, x2, (f * w2) * u2);
  scatterAdd3(s.p, i3, x3, (f * w3) * u3);
}

}  // namespace
}  // namespace drape::sim::batch
