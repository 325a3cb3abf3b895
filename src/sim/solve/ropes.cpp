#include "sim/solve/ropes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "sim/cloth.hpp"
#include "sim/constraints.hpp"
#include "sim/material.hpp"
#include "sim/state.hpp"
#include "sim/tuning.hpp"

namespace drape::sim {
namespace {

constexpr std::size_t kBand = 4;  // a constraint's farthest neighbour in band order
constexpr std::uint32_t kNone = UINT32_MAX;

// Constraint k of a rope with n segments: segment k / 2 where k is even,
// turn (k − 1) / 2 where odd; 2n − 1 of them.
std::size_t constraintCount(const Rope& r) {
  const std::size_t n = r.segmentEnd - r.segmentBegin;
  return n == 0 ? 0 : 2 * n - 1;
}

// A_kl = Σ_v w_v ∇_v C_k · ∇_v C_l over the vertices the two share.
double coupling(const RopeScratch& s, const Points& points, std::size_t k, std::size_t l) {
  double sum = 0.0;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::uint32_t v = s.vertex[3 * k + i];
    if (v == kNone) continue;
    for (std::size_t j = 0; j < 3; ++j)
      if (s.vertex[3 * l + j] == v)
        sum += double(points.invMass(v)) * glm::dot(s.grad[3 * k + i], s.grad[3 * l + j]);
  }
  return sum;
}

// The rope's constraints at the current positions: C into rhs (as −C − α̃λ),
// gradients and vertices, α̃ (infinite: off, the row left out).
void evaluate(const Points& points, const Cloth& cloth, const Rope& r, const RopeCompliance& c,
              const double* lambda, RopeScratch& s) {
  const std::size_t m = constraintCount(r);
  const double h2 = c.h * c.h;
  for (std::size_t k = 0; k < m; ++k) {
    double C = 0.0, alpha = 0.0;
    bool valid = false;
    std::uint32_t* v = &s.vertex[3 * k];
    glm::dvec3* g = &s.grad[3 * k];
    v[0] = v[1] = v[2] = kNone;
    if (k % 2 == 0) {
      const RopeSegment& seg = cloth.ropeSegments[r.segmentBegin + k / 2];
      const auto e =
          evalStretch(glm::dvec3(points.p(seg.a)), glm::dvec3(points.p(seg.b)), double(seg.rest));
      alpha = std::max(
          c.stretch * double(seg.rest) / h2,
          tuning::kRopeLeastCompliance * double(points.invMass(seg.a) + points.invMass(seg.b)));
      if ((valid = e.valid)) {
        C = e.C;
        v[0] = seg.a, v[1] = seg.b;
        g[0] = e.grad[0], g[1] = e.grad[1];
      }
    } else {
      const RopeTurn& t = cloth.ropeTurns[r.turnBegin + k / 2];
      const auto e = evalRodAngle(glm::dvec3(points.p(t.v[0])), glm::dvec3(points.p(t.v[1])),
                                  glm::dvec3(points.p(t.v[2])), double(t.restAngle));
      alpha = c.bend * double(t.length) / h2;
      if ((valid = e.valid)) {
        C = e.C;
        for (int i = 0; i < 3; ++i) v[i] = t.v[i], g[i] = e.grad[i];
      }
    }
    if (std::isinf(alpha)) {  // infinitely soft: no constraint
      v[0] = v[1] = v[2] = kNone;
      alpha = 0.0, C = 0.0;
    }
    s.alpha[k] = alpha;
    s.rhs[k] = valid ? -C - alpha * lambda[k] : -alpha * lambda[k];
  }
}

// (J W Jᵀ + α̃) in the band, factored L D Lᵀ in place, and rhs ← its
// solution. A row with nothing to move (its vertices pinned, or the
// constraint off) keeps Δλ = 0; a pivot that rounding made tiny (a taut
// rigid rope straight between two pins has one constraint too many) is
// held at a small share of its diagonal.
bool factorAndSolve(const Points& points, std::size_t m, RopeScratch& s) {
  constexpr std::size_t W = kBand + 1;
  double* L = s.band.data();
  for (std::size_t i = 0; i < m; ++i) {
    const std::size_t first = i >= kBand ? i - kBand : 0;
    for (std::size_t j = first; j <= i; ++j) {
      const double entry = coupling(s, points, i, j) + (i == j ? s.alpha[i] : 0.0);
      double sum = entry;
      for (std::size_t k = first; k < j; ++k)
        if (j - k <= kBand) sum -= L[i * W + (i - k)] * L[j * W + (j - k)] * L[k * W];
      if (i != j) {
        L[i * W + (i - j)] = sum / L[j * W];
        continue;
      }
      const double diagonal = entry;
      if (!(diagonal > 0.0)) {
        L[i * W] = 1.0;
        s.rhs[i] = 0.0;
      } else {
        L[i * W] = std::max(sum, 1e-9 * diagonal);
      }
    }
  }
  double* b = s.rhs.data();
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t k = i >= kBand ? i - kBand : 0; k < i; ++k) b[i] -= L[i * W + (i - k)] * b[k];
  for (std::size_t i = 0; i < m; ++i) b[i] /= L[i * W];
  for (std::size_t i = m; i-- > 0;)
    for (std::size_t k = i + 1; k < std::min(m, i + kBand + 1); ++k)
      b[i] -= L[k * W + (k - i)] * b[k];
  for (std::size_t i = 0; i < m; ++i)
    if (!std::isfinite(b[i])) return false;
  return true;
}

}  // namespace

RopeCompliance ropeCompliance(float kStretch, float kBend, float h) {
  const double inf = std::numeric_limits<double>::infinity();
  const double w = double(tuning::kRopeWidth);
  const double Y = stretchModulus(double(kStretch)), D = bendingStiffness(double(kBend));
  RopeCompliance c;
  c.stretch = std::isinf(Y) ? 0.0 : Y > 0.0 ? 1.0 / (Y * w) : inf;
  c.bend = D > 0.0 ? 1.0 / (D * w) : inf;
  c.h = double(h);
  return c;
}

void resetRopes(const Cloth& cloth, RopeScratch& scratch) {
  std::size_t total = 0, most = 0;
  for (const Rope& r : cloth.ropes) {
    total += constraintCount(r);
    most = std::max(most, constraintCount(r));
  }
  scratch.lambda.assign(total, 0.0);
  scratch.band.resize(most * (kBand + 1));
  scratch.rhs.resize(most);
  scratch.alpha.resize(most);
  scratch.grad.resize(3 * most);
  scratch.vertex.resize(3 * most);
}

void solveRopes(const Points& points, const Cloth& cloth, const RopeCompliance& compliance,
                RopeScratch& s) {
  if (s.lambda.empty()) resetRopes(cloth, s);
  std::size_t offset = 0;
  for (const Rope& r : cloth.ropes) {
    const std::size_t m = constraintCount(r);
    double* lambda = s.lambda.data() + offset;
    offset += m;
    evaluate(points, cloth, r, compliance, lambda, s);
    if (!factorAndSolve(points, m, s)) continue;
    for (std::size_t k = 0; k < m; ++k) {
      const double dl = s.rhs[k];
      lambda[k] += dl;
      for (std::size_t i = 0; i < 3; ++i) {
        const std::uint32_t v = s.vertex[3 * k + i];
        if (v == kNone) continue;
        const double w = double(points.invMass(v));
        if (w > 0.0) points.p(v) += glm::vec3(w * dl * s.grad[3 * k + i]);
      }
    }
  }
}

}  // namespace drape::sim
