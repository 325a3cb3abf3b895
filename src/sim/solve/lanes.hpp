#pragma once
// Lane types for the batched constraint kernels (kernels.hpp). A kernel
// is written once as a template over a lane type; `Lane1` runs it on one
// constraint, `Lane8` on eight at once with AVX2, `Twice<Lane8>` on two
// batches of eight interleaved. All execute the same IEEE
// operations in the same order (no FMA contraction, exact sqrt and division,
// the same polynomial atan2), so the SIMD path and the scalar path give
// bit-identical results.

#include <cmath>
#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace drape::sim::lanes {
// Internal linkage on purpose: this header is compiled both with and
// without -mavx2 (ranges.cpp, kernels_avx2.cpp); no inline function may be shared
// between those translation units, or the linker could pick an AVX2 copy
// for the portable path.
namespace {

// ---- one lane -------------------------------------------------------------
struct Lane1 {
  float v;
  static constexpr int width = 1;
};
struct Mask1 {
  bool m;
};
inline Lane1 operator+(Lane1 a, Lane1 b) {
  return {a.v + b.v};
}
inline Lane1 operator-(Lane1 a, Lane1 b) {
  return {a.v - b.v};
}
inline Lane1 operator*(Lane1 a, Lane1 b) {
  return {a.v * b.v};
}
inline Lane1 operator/(Lane1 a, Lane1 b) {
  return {a.v / b.v};
}
inline Lane1 operator-(Lane1 a) {
  return {-a.v};
}
inline Lane1 splat(Lane1*, float x) {
  return {x};
}
inline Lane1 sqrtL(Lane1 a) {
  return {std::sqrt(a.v)};
}
inline Lane1 minL(Lane1 a, Lane1 b) {
  return {b.v < a.v ? b.v : a.v};
}
inline Lane1 maxL(Lane1 a, Lane1 b) {
  return {a.v < b.v ? b.v : a.v};
}
inline Lane1 absL(Lane1 a) {
  return {std::fabs(a.v)};
}
inline Mask1 operator<(Lane1 a, Lane1 b) {
  return {a.v < b.v};
}
inline Mask1 operator>(Lane1 a, Lane1 b) {
  return {a.v > b.v};
}
inline Mask1 operator&(Mask1 a, Mask1 b) {
  return {a.m && b.m};
}
inline Lane1 select(Mask1 m, Lane1 a, Lane1 b) {
  return m.m ? a : b;
}
inline Lane1 load(const float* p, Lane1*) {
  return {*p};
}
inline float lane(Lane1 a, int) {
  return a.v;
}
inline void store(float* p, Lane1 a) {
  *p = a.v;
}
// x, y, z, w of the points idx[0..width) in an xyzw-interleaved array (the
// solve buffer: position and inverse mass, 16 bytes per point).
inline void loadPoints(const float* p, const std::uint32_t* idx, Lane1& x, Lane1& y, Lane1& z,
                       Lane1& w) {
  const float* q = p + std::size_t(idx[0]) * 4;
  x.v = q[0];
  y.v = q[1];
  z.v = q[2];
  w.v = q[3];
}
inline void storePoints(float* p, const std::uint32_t* idx, Lane1 x, Lane1 y, Lane1 z, Lane1 w) {
  float* q = p + std::size_t(idx[0]) * 4;
  q[0] = x.v;
  q[1] = y.v;
  q[2] = z.v;
  q[3] = w.v;
}

// ---- eight lanes (AVX2) ---------------------------------------------------
#if defined(__AVX2__)
#define DRAPE_AVX2 inline
struct Lane8 {
  __m256 v;
  static constexpr int width = 8;
};
struct Mask8 {
  __m256 m;
};
DRAPE_AVX2 Lane8 operator+(Lane8 a, Lane8 b) {
  return {_mm256_add_ps(a.v, b.v)};
}
DRAPE_AVX2 Lane8 operator-(Lane8 a, Lane8 b) {
  return {_mm256_sub_ps(a.v, b.v)};
}
DRAPE_AVX2 Lane8 operator*(Lane8 a, Lane8 b) {
  return {_mm256_mul_ps(a.v, b.v)};
}
DRAPE_AVX2 Lane8 operator/(Lane8 a, Lane8 b) {
  return {_mm256_div_ps(a.v, b.v)};
}
DRAPE_AVX2 Lane8 operator-(Lane8 a) {
  return {_mm256_xor_ps(a.v, _mm256_set1_ps(-0.0f))};
}
DRAPE_AVX2 Lane8 splat(Lane8*, float x) {
  return {_mm256_set1_ps(x)};
}
DRAPE_AVX2 Lane8 sqrtL(Lane8 a) {
  return {_mm256_sqrt_ps(a.v)};
}
// min/max with the operand order of Lane1's (b < a ? b : a), NaN included.
DRAPE_AVX2 Lane8 minL(Lane8 a, Lane8 b) {
  return {_mm256_blendv_ps(a.v, b.v, _mm256_cmp_ps(b.v, a.v, _CMP_LT_OQ))};
}
DRAPE_AVX2 Lane8 maxL(Lane8 a, Lane8 b) {
  return {_mm256_blendv_ps(a.v, b.v, _mm256_cmp_ps(a.v, b.v, _CMP_LT_OQ))};
}
DRAPE_AVX2 Lane8 absL(Lane8 a) {
  return {_mm256_andnot_ps(_mm256_set1_ps(-0.0f), a.v)};
}
DRAPE_AVX2 Mask8 operator<(Lane8 a, Lane8 b) {
  return {_mm256_cmp_ps(a.v, b.v, _CMP_LT_OQ)};
}
DRAPE_AVX2 Mask8 operator>(Lane8 a, Lane8 b) {
  return {_mm256_cmp_ps(a.v, b.v, _CMP_GT_OQ)};
}
DRAPE_AVX2 Mask8 operator&(Mask8 a, Mask8 b) {
  return {_mm256_and_ps(a.m, b.m)};
}
DRAPE_AVX2 Lane8 select(Mask8 m, Lane8 a, Lane8 b) {
  return {_mm256_blendv_ps(b.v, a.v, m.m)};
}
DRAPE_AVX2 Lane8 load(const float* p, Lane8*) {
  return {_mm256_loadu_ps(p)};
}
DRAPE_AVX2 void store(float* p, Lane8 a) {
  _mm256_storeu_ps(p, a.v);
}
// Eight points of an xyzw-interleaved array: one 128-bit load of each and
// an 8×4 → 4×8 transpose (cheaper than four gathers).
DRAPE_AVX2 void loadPoints(const float* p, const std::uint32_t* idx, Lane8& x, Lane8& y, Lane8& z,
                           Lane8& w) {
  auto row = [&](int i) { return _mm_loadu_ps(p + std::size_t(idx[i]) * 4); };
  const __m256 t0 = _mm256_insertf128_ps(_mm256_castps128_ps256(row(0)), row(4), 1);
  const __m256 t1 = _mm256_insertf128_ps(_mm256_castps128_ps256(row(1)), row(5), 1);
  const __m256 t2 = _mm256_insertf128_ps(_mm256_castps128_ps256(row(2)), row(6), 1);
  const __m256 t3 = _mm256_insertf128_ps(_mm256_castps128_ps256(row(3)), row(7), 1);
  const __m256 u0 = _mm256_unpacklo_ps(t0, t1);  // x0 x1 y0 y1 | x4 x5 y4 y5
  const __m256 u1 = _mm256_unpackhi_ps(t0, t1);  // z0 z1 w0 w1 | z4 z5 w4 w5
  const __m256 u2 = _mm256_unpacklo_ps(t2, t3);  // x2 x3 y2 y3 | x6 x7 y6 y7
  const __m256 u3 = _mm256_unpackhi_ps(t2, t3);  // z2 z3 w2 w3 | z6 z7 w6 w7
  x.v = _mm256_shuffle_ps(u0, u2, _MM_SHUFFLE(1, 0, 1, 0));
  y.v = _mm256_shuffle_ps(u0, u2, _MM_SHUFFLE(3, 2, 3, 2));
  z.v = _mm256_shuffle_ps(u1, u3, _MM_SHUFFLE(1, 0, 1, 0));
  w.v = _mm256_shuffle_ps(u1, u3, _MM_SHUFFLE(3, 2, 3, 2));
}
// The inverse: transpose back and write each point whole (16 bytes).
DRAPE_AVX2 void storePoints(float* p, const std::uint32_t* idx, Lane8 x, Lane8 y, Lane8 z,
                            Lane8 w) {
  const __m256 u0 = _mm256_unpacklo_ps(x.v, y.v);  // x0 y0 x1 y1 | x4 y4 x5 y5
  const __m256 u1 = _mm256_unpackhi_ps(x.v, y.v);  // x2 y2 x3 y3 | x6 y6 x7 y7
  const __m256 u2 = _mm256_unpacklo_ps(z.v, w.v);  // z0 w0 z1 w1 | z4 w4 z5 w5
  const __m256 u3 = _mm256_unpackhi_ps(z.v, w.v);  // z2 w2 z3 w3 | z6 w6 z7 w7
  const __m256 t[4] = {_mm256_shuffle_ps(u0, u2, _MM_SHUFFLE(1, 0, 1, 0)),   // p0 | p4
                       _mm256_shuffle_ps(u0, u2, _MM_SHUFFLE(3, 2, 3, 2)),   // p1 | p5
                       _mm256_shuffle_ps(u1, u3, _MM_SHUFFLE(1, 0, 1, 0)),   // p2 | p6
                       _mm256_shuffle_ps(u1, u3, _MM_SHUFFLE(3, 2, 3, 2))};  // p3 | p7
  for (int i = 0; i < 4; ++i) {
    _mm_storeu_ps(p + std::size_t(idx[i]) * 4, _mm256_castps256_ps128(t[i]));
    _mm_storeu_ps(p + std::size_t(idx[i + 4]) * 4, _mm256_extractf128_ps(t[i], 1));
  }
}
DRAPE_AVX2 float lane(Lane8 a, int i) {
  alignas(32) float out[8];
  _mm256_store_ps(out, a.v);
  return out[i];
}
#endif

// ---- two batches interleaved -----------------------------------------------
// Twice<L>: two independent batches of L side by side, each operation done
// on both. The lanes compute exactly what L computes; the gain is in the
// instruction stream: the two batches' dependency chains alternate, so one
// batch's square roots and divisions wait while the other's work runs (the
// bending kernel is a long chain, latency-bound on one batch).
template <typename M>
struct TwiceMask {
  M a, b;
};
template <typename L>
struct Twice {
  L a, b;
  static constexpr int width = 2 * L::width;
};
template <typename L>
inline Twice<L> operator+(Twice<L> x, Twice<L> y) {
  return {x.a + y.a, x.b + y.b};
}
template <typename L>
inline Twice<L> operator-(Twice<L> x, Twice<L> y) {
  return {x.a - y.a, x.b - y.b};
}
template <typename L>
inline Twice<L> operator*(Twice<L> x, Twice<L> y) {
  return {x.a * y.a, x.b * y.b};
}
template <typename L>
inline Twice<L> operator/(Twice<L> x, Twice<L> y) {
  return {x.a / y.a, x.b / y.b};
}
template <typename L>
inline Twice<L> operator-(Twice<L> x) {
  return {-x.a, -x.b};
}
template <typename L>
inline Twice<L> splat(Twice<L>*, float v) {
  L* t = nullptr;
  const L s = splat(t, v);
  return {s, s};
}
template <typename L>
inline Twice<L> sqrtL(Twice<L> x) {
  return {sqrtL(x.a), sqrtL(x.b)};
}
template <typename L>
inline Twice<L> minL(Twice<L> x, Twice<L> y) {
  return {minL(x.a, y.a), minL(x.b, y.b)};
}
template <typename L>
inline Twice<L> maxL(Twice<L> x, Twice<L> y) {
  return {maxL(x.a, y.a), maxL(x.b, y.b)};
}
template <typename L>
inline Twice<L> absL(Twice<L> x) {
  return {absL(x.a), absL(x.b)};
}
template <typename L>
inline auto operator<(Twice<L> x, Twice<L> y) {
  return TwiceMask<decltype(x.a < y.a)>{x.a < y.a, x.b < y.b};
}
template <typename L>
inline auto operator>(Twice<L> x, Twice<L> y) {
  return TwiceMask<decltype(x.a > y.a)>{x.a > y.a, x.b > y.b};
}
template <typename M>
inline TwiceMask<M> operator&(TwiceMask<M> x, TwiceMask<M> y) {
  return {x.a & y.a, x.b & y.b};
}
template <typename M, typename L>
inline Twice<L> select(TwiceMask<M> m, Twice<L> x, Twice<L> y) {
  return {select(m.a, x.a, y.a), select(m.b, x.b, y.b)};
}
template <typename L>
inline Twice<L> load(const float* p, Twice<L>*) {
  L* t = nullptr;
  return {load(p, t), load(p + L::width, t)};
}
template <typename L>
inline void store(float* p, Twice<L> x) {
  store(p, x.a);
  store(p + L::width, x.b);
}
template <typename L>
inline void loadPoints(const float* p, const std::uint32_t* idx, Twice<L>& x, Twice<L>& y,
                       Twice<L>& z, Twice<L>& w) {
  loadPoints(p, idx, x.a, y.a, z.a, w.a);
  loadPoints(p, idx + L::width, x.b, y.b, z.b, w.b);
}
template <typename L>
inline void storePoints(float* p, const std::uint32_t* idx, Twice<L> x, Twice<L> y, Twice<L> z,
                        Twice<L> w) {
  storePoints(p, idx, x.a, y.a, z.a, w.a);
  storePoints(p, idx + L::width, x.b, y.b, z.b, w.b);
}

// ---- shared math, identical for every lane type ----------------------------
template <typename L>
struct V3 {
  L x, y, z;
};
template <typename L>
inline V3<L> operator+(const V3<L>& a, const V3<L>& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <typename L>
inline V3<L> operator-(const V3<L>& a, const V3<L>& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <typename L>
inline V3<L> operator*(L s, const V3<L>& a) {
  return {s * a.x, s * a.y, s * a.z};
}
template <typename L>
inline L dot(const V3<L>& a, const V3<L>& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
template <typename L>
inline V3<L> cross(const V3<L>& a, const V3<L>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// atan2 to about 1e-6 rad: a minimax polynomial for atan on [0, 1] and the
// octant folding, branch-free so it runs the same in every lane.
template <typename L>
inline L atan2L(L y, L x) {
  L* t = nullptr;
  const L ax = absL(x), ay = absL(y);
  const L hi = maxL(ax, ay), lo = minL(ax, ay);
  const L a = select(hi > splat(t, 0.0f), lo / hi, splat(t, 0.0f));
  const L s = a * a;
  // atan(a) ≈ a·P(a²), coefficients for [0, 1] (max error ~1e-6 rad), in
  // Estrin's form: three levels of independent products instead of a chain
  // of eight (Horner), which shortens the bending kernel's critical path.
  const L s2 = s * s, s4 = s2 * s2;
  const L q0 = splat(t, 0.9999993329f) + splat(t, -0.3332985605f) * s;
  const L q1 = splat(t, 0.1994653599f) + splat(t, -0.1390853351f) * s;
  const L q2 = splat(t, 0.0964200441f) + splat(t, -0.0559098861f) * s;
  const L q3 = splat(t, 0.0218612288f) + splat(t, -0.0040540580f) * s;
  const L p = (q0 + q1 * s2) + (q2 + q3 * s2) * s4;
  L r = p * a;
  r = select(ay > ax, splat(t, 1.57079632679f) - r, r);
  r = select(x < splat(t, 0.0f), splat(t, 3.14159265359f) - r, r);
  return select(y < splat(t, 0.0f), -r, r);
}

}  // namespace
}  // namespace drape::sim::lanes
