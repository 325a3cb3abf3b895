#include "sim/models/mass_spring.hpp"
#include "sim/tuning.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "sim/constraints.hpp"

namespace drape::sim {
namespace {

// Gas pressure on a closed mesh: f_i = P ∇_i V, P = κ (k_pressure V0/V − 1),
// κ = spring_stiffness / R (a sheet of stiffness k around a ball of radius R
// stretches by about P R / 2k). V is kept above a twentieth of V0 so a
// crushed or inverted balloon gets a large but finite push.
void addPressure(const Cloth& cloth, const Params& params, const State& s, SpringSet& set) {
  if (!cloth.pressureActive || !(cloth.restSixVolume > 0.0f)) return;
  set.pressureGrad.assign(s.x.size(), glm::vec3(0.0f));
  double sixV = 0.0;
  for (const glm::uvec3& t : cloth.triangles) {
    glm::vec3 ga, gb, gc;
    volumeGradient(s.x[t[0]], s.x[t[1]], s.x[t[2]], ga, gb, gc);
    set.pressureGrad[t[0]] += ga;
    set.pressureGrad[t[1]] += gb;
    set.pressureGrad[t[2]] += gc;
    sixV += double(glm::dot(gc, s.x[t[2]]));
  }
  const double sixV0 = double(cloth.restSixVolume);
  const double radius = std::cbrt(sixV0 / (8.0 * 3.14159265358979323846));  // 6V0 = 8πR³
  const double kappa = double(params.spring_stiffness) / radius;
  const double ratio = double(params.k_pressure) * sixV0 / std::max(sixV, 0.05 * sixV0);
  // ∇V = ∇(6V) / 6.
  const float scale = float(kappa * (ratio - 1.0) / 6.0);
  for (std::size_t i = 0; i < s.x.size(); ++i) set.force[i] += scale * set.pressureGrad[i];
}

}  // namespace

SpringSet buildSprings(const Cloth& cloth) {
  SpringSet set;
  set.version = cloth.topologyVersion;
  set.springs.reserve(cloth.stretch.size() + cloth.bend.size());
  for (const StretchConstraint& c : cloth.stretch) set.springs.push_back({c.a, c.b, c.rest});
  set.structural = set.springs.size();
  const std::vector<glm::vec3>& x = cloth.restPositions;
  for (const BendConstraint& c : cloth.bend)
    set.springs.push_back({c.v[0], c.v[1], glm::length(x[c.v[0]] - x[c.v[1]])});
  return set;
}

void integrateSprings(const Cloth& cloth, const Params& prm, State& s, float h, SpringSet& set) {
  const std::size_t n = s.x.size();
  assert(set.version == cloth.topologyVersion);
  // Forces at (x, v): gravity, springs with dashpots, pressure.
  set.force.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    set.force[i] = s.w[i] > 0.0f ? prm.gravity / s.w[i] : glm::vec3(0.0f);
  const float kStructural = prm.k_stretch * prm.spring_stiffness;
  const float kShear = prm.k_bend * prm.spring_stiffness;
  const float zeta = prm.damping;
  for (std::size_t j = 0; j < set.springs.size(); ++j) {
    const Spring& sp = set.springs[j];
    const float k = j < set.structural ? kStructural : kShear;
    const float wSum = s.w[sp.a] + s.w[sp.b];
    if (!(k > 0.0f) || !(wSum > 0.0f)) continue;
    const glm::vec3 d = s.x[sp.b] - s.x[sp.a];
    const float len = glm::length(d);
    if (!(len > 1e-9f)) continue;
    const glm::vec3 u = d / len;
    const float c = zeta * 2.0f * std::sqrt(k / wSum);  // 2ζ√(kμ), μ = 1/(w_a + w_b)
    const float f = k * (len - sp.rest) + c * glm::dot(s.v[sp.b] - s.v[sp.a], u);
    set.force[sp.a] += f * u;
    set.force[sp.b] -= f * u;
  }
  addPressure(cloth, prm, s, set);
  // Symplectic Euler.
  for (std::size_t i = 0; i < n; ++i) {
    s.v[i] += (h * s.w[i]) * set.force[i];
    s.p[i] = s.x[i] + h * s.v[i];
  }
}

float massSpringStableStep(const Cloth& cloth, const State& s, const Params& prm) {
  const SpringSet set = buildSprings(cloth);
  const std::size_t n = s.x.size();
  // ω²_max of the springs linearised at the current positions: the largest
  // eigenvalue of W^½ K W^½ (K_ab = −k u uᵀ per spring), by power iteration
  // from a fixed start (deterministic). The Rayleigh quotient approaches it
  // from below.
  std::vector<glm::dvec3> z(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double a = double(i);
    z[i] = s.w[i] > 0.0f ? glm::dvec3(std::sin(1.3 * a + 0.1), std::cos(2.9 * a), std::sin(0.7 * a))
                         : glm::dvec3(0.0);
  }
  double lambda = 0.0;
  for (int it = 0; it < 100; ++it) {
    std::fill(y.begin(), y.end(), glm::dvec3(0.0));
    for (std::size_t j = 0; j < set.springs.size(); ++j) {
      const Spring& sp = set.springs[j];
      const double k =
          double((j < set.structural ? prm.k_stretch : prm.k_bend) * prm.spring_stiffness);
      const glm::dvec3 d = glm::dvec3(s.x[sp.b] - s.x[sp.a]);
      const double len = glm::length(d);
      if (!(len > 1e-12) || !(k > 0.0)) continue;
      const glm::dvec3 u = d / len;
      const double wa = std::sqrt(double(s.w[sp.a])), wb = std::sqrt(double(s.w[sp.b]));
      const glm::dvec3 f = k * glm::dot(u, wa * z[sp.a] - wb * z[sp.b]) * u;
      y[sp.a] += wa * f;
      y[sp.b] -= wb * f;
    }
    double zz = 0.0, zy = 0.0, yy = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      zz += glm::dot(z[i], z[i]);
      zy += glm::dot(z[i], y[i]);
      yy += glm::dot(y[i], y[i]);
    }
    if (!(zz > 0.0) || !(yy > 0.0)) break;
    lambda = zy / zz;
    const double norm = 1.0 / std::sqrt(yy);
    for (std::size_t i = 0; i < n; ++i) z[i] = y[i] * norm;
  }
  if (!(lambda > 0.0)) return std::numeric_limits<float>::infinity();
  // The dashpots lower the limit: symplectic Euler on x'' + 2ζ'ω x' + ω² x = 0
  // is stable for hω ≤ 2(√(1 + ζ'²) − ζ'); the highest modes, neighbours
  // moving against each other, are damped at about ζ' = 2ζ.
  const double zeta = 2.0 * double(std::max(0.0f, prm.damping));
  return float(2.0 / std::sqrt(lambda) * (std::sqrt(1.0 + zeta * zeta) - zeta));
}

void updateStableStep(const Cloth& cloth, const State& s, const Params& p,
                      std::uint64_t pinsVersion, StableStepEstimate& estimate) {
  const std::array<double, 7> key = {
      double(cloth.topologyVersion), double(pinsVersion), double(p.k_stretch), double(p.k_bend),
      double(p.spring_stiffness),    double(p.damping),   double(p.density)};
  if (!estimate.known || estimate.key != key) {
    estimate.step = massSpringStableStep(cloth, s, p);
    estimate.key = key;
    estimate.known = true;
  }
}

int stableSubsteps(const Params& p, const StableStepEstimate& estimate) {
  const double needed = std::ceil(double(p.dt) / (tuning::kStableShare * double(estimate.step)));
  if (!(needed >= 1.0)) return 1;  // no springs, or an infinite limit
  return int(std::min(needed, double(kMostStableSubsteps)));
}

}  // namespace drape::sim
