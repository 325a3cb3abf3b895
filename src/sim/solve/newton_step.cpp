#include "sim/solve/newton_step.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/cloth.hpp"
#include "sim/constraints.hpp"
#include "sim/solve/coefficients.hpp"
#include "sim/solve/coloring.hpp"
#include "sim/solve/hierarchy.hpp"
#include "sim/state.hpp"

namespace drape::sim {

bool EnvelopeCholesky::factor() {
  first.assign(std::size_t(n), 0);
  for (int i = 0; i < n; ++i) {
    int k = 0;
    while (k < i && a[std::size_t(i) * std::size_t(n) + std::size_t(k)] == 0.0) ++k;
    first[std::size_t(i)] = k;
  }
  auto at = [&](int i, int j) -> double& {
    return a[std::size_t(i) * std::size_t(n) + std::size_t(j)];
  };
  for (int j = 0; j < n; ++j) {
    double d = at(j, j);
    for (int k = first[std::size_t(j)]; k < j; ++k) d -= at(j, k) * at(j, k);
    if (!(d > 0.0)) return false;
    d = std::sqrt(d);
    at(j, j) = d;
    for (int i = j + 1; i < n; ++i) {
      if (first[std::size_t(i)] > j) continue;
      double s = at(i, j);
      for (int k = std::max(first[std::size_t(i)], first[std::size_t(j)]); k < j; ++k)
        s -= at(i, k) * at(j, k);
      at(i, j) = s / d;
    }
  }
  return true;
}

void EnvelopeCholesky::solve(double* b) const {
  auto at = [&](int i, int j) { return a[std::size_t(i) * std::size_t(n) + std::size_t(j)]; };
  for (int i = 0; i < n; ++i) {
    double s = b[i];
    for (int k = first[std::size_t(i)]; k < i; ++k) s -= at(i, k) * b[k];
    b[i] = s / at(i, i);
  }
  for (int i = n - 1; i >= 0; --i) {
    double s = b[i];
    for (int k = i + 1; k < n; ++k)
      if (first[std::size_t(k)] <= i) s -= at(k, i) * b[k];
    b[i] = s / at(i, i);
  }
}

NewtonCoarse buildNewtonCoarse(const Cloth& cloth, const std::vector<float>& w) {
  NewtonCoarse out;
  const std::size_t n = w.size();
  out.start.assign(n + 1, 0);
  const Hierarchy h = buildHierarchy(cloth, w, 8);
  if (h.empty()) return out;
  std::size_t top = h.levels.size() - 1;
  for (std::size_t l = 0; l < h.levels.size(); ++l)
    if (h.levels[l].vertex.size() <= kNewtonCoarseMost) {
      top = l;
      break;
    }
  // Each vertex's weights over the top level, from the top level down.
  using Weights = std::vector<std::pair<std::uint32_t, double>>;
  std::vector<Weights> rep(n);
  out.vertex = h.levels[top].vertex;
  for (std::size_t k = 0; k < out.vertex.size(); ++k)
    rep[out.vertex[k]] = {{std::uint32_t(k), 1.0}};
  for (std::size_t l = top + 1; l-- > 0;) {
    const HierarchyLevel& level = h.levels[l];
    for (std::size_t k = 0; k < level.fine.size(); ++k) {
      Weights acc;
      for (std::uint32_t q = level.parentStart[k]; q < level.parentStart[k + 1]; ++q)
        for (const auto& [c, wt] : rep[level.parent[q]])
          acc.emplace_back(c, wt * double(level.weight[q]));
      std::sort(acc.begin(), acc.end(),
                [](const auto& x, const auto& y) { return x.first < y.first; });
      Weights merged;
      for (const auto& e : acc)
        if (!merged.empty() && merged.back().first == e.first)
          merged.back().second += e.second;
        else
          merged.push_back(e);
      rep[level.fine[k]] = std::move(merged);
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    out.start[i + 1] = out.start[i] + std::uint32_t(rep[i].size());
    for (const auto& [c, wt] : rep[i]) {
      out.index.push_back(c);
      out.weight.push_back(wt);
    }
  }
  return out;
}

namespace {

glm::dvec3 at(const Points& pts, std::uint32_t i) {
  return glm::dvec3(pts.p(i));
}

// The coarse matrix Pᵀ A P over the free coarse vertices, factored, from
// the step's masses and gradients.
void factorCoarse(const PackedStretch& stretch, const PackedBend& bend, NewtonScratch& sc,
                  NewtonPreconditioner& pre, std::size_t n) {
  const NewtonCoarse& co = sc.coarse;
  pre.dof.assign(co.vertex.size(), -1);
  int dofs = 0;
  for (std::size_t k = 0; k < co.vertex.size(); ++k)
    if (sc.mass[co.vertex[k]] > 0.0) pre.dof[k] = dofs++;
  EnvelopeCholesky& f = pre.factor;
  f.n = 3 * dofs;
  f.a.assign(std::size_t(f.n) * std::size_t(f.n), 0.0);
  pre.ready = false;
  if (dofs == 0) return;
  auto add = [&](int da, int db, const glm::dvec3& ga, const glm::dvec3& gb, double s) {
    for (int c = 0; c < 3; ++c)
      for (int d = 0; d < 3; ++d)
        f.a[std::size_t(3 * da + c) * std::size_t(f.n) + std::size_t(3 * db + d)] +=
            s * ga[c] * gb[d];
  };
  for (std::size_t i = 0; i < n; ++i) {
    const double m = sc.mass[i];
    if (m <= 0.0) continue;
    for (std::uint32_t a = co.start[i]; a < co.start[i + 1]; ++a) {
      const int da = pre.dof[co.index[a]];
      if (da < 0) continue;
      for (std::uint32_t b = co.start[i]; b < co.start[i + 1]; ++b) {
        const int db = pre.dof[co.index[b]];
        if (db < 0) continue;
        const double s = m * co.weight[a] * co.weight[b];
        for (int c = 0; c < 3; ++c)
          f.a[std::size_t(3 * da + c) * std::size_t(f.n) + std::size_t(3 * db + c)] += s;
      }
    }
  }
  sc.coarseGrad.assign(co.vertex.size(), glm::dvec3(0.0));
  sc.coarseMark.assign(co.vertex.size(), 0);
  // One constraint's gradient on the coarse level, then its outer product.
  auto constraint = [&](const std::uint32_t* v, const glm::dvec3* g, int count, double kappa) {
    if (kappa <= 0.0) return;
    sc.touched.clear();
    for (int k = 0; k < count; ++k) {
      if (sc.mass[v[k]] <= 0.0) continue;
      for (std::uint32_t a = co.start[v[k]]; a < co.start[v[k] + 1]; ++a) {
        const std::uint32_t c = co.index[a];
        if (pre.dof[c] < 0) continue;
        if (!sc.coarseMark[c]) {
          sc.coarseMark[c] = 1;
          sc.touched.push_back(c);
        }
        sc.coarseGrad[c] += co.weight[a] * g[k];
      }
    }
    for (std::uint32_t a : sc.touched)
      for (std::uint32_t b : sc.touched)
        add(pre.dof[a], pre.dof[b], sc.coarseGrad[a], sc.coarseGrad[b], kappa);
    for (std::uint32_t a : sc.touched) {
      sc.coarseGrad[a] = glm::dvec3(0.0);
      sc.coarseMark[a] = 0;
    }
  };
  for (std::size_t j = 0; j < stretch.size(); ++j) {
    const std::uint32_t v[2] = {stretch.a[j], stretch.b[j]};
    constraint(v, &sc.stretchGrad[2 * j], 2, sc.stretchKappa[j]);
    if (sc.stretchTension[j] <= 0.0) continue;
    // t (I − n nᵀ) as two directions across the edge.
    const glm::dvec3 dir = sc.stretchDir[j];
    const glm::dvec3 other = std::abs(dir.x) < 0.6 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
    const glm::dvec3 u = glm::normalize(glm::cross(dir, other)), w = glm::cross(dir, u);
    for (const glm::dvec3& k : {u, w}) {
      const glm::dvec3 g[2] = {k, -k};
      constraint(v, g, 2, sc.stretchTension[j]);
    }
  }
  for (std::size_t j = 0; j < bend.size(); ++j) {
    const std::uint32_t v[4] = {bend.v0[j], bend.v1[j], bend.v2[j], bend.v3[j]};
    constraint(v, &sc.bendGrad[4 * j], 4, sc.bendKappa[j]);
  }
  pre.ready = f.factor();
}

// The stretch constraints' C, ∇C and κ at the current positions, and their share of the rhs.
void assembleStretch(const Points& pts, const PackedStretch& stretch, const Coefficients& c,
                     const float* lambdaStretch, NewtonScratch& sc) {
  auto mass = [&](std::uint32_t i) { return sc.mass[i]; };
  const std::size_t ns = stretch.size();
  sc.stretchC.assign(ns, 0.0);
  sc.stretchGrad.assign(2 * ns, glm::dvec3(0.0));
  sc.stretchDir.assign(ns, glm::dvec3(0.0));
  sc.stretchKappa.assign(ns, 0.0);
  sc.stretchTension.assign(ns, 0.0);
  for (std::size_t j = 0; c.stretchOn && j < ns; ++j) {
    const std::uint32_t a = stretch.a[j], b = stretch.b[j];
    const double ma = mass(a), mb = mass(b);
    if (ma + mb <= 0.0) continue;
    const auto e = evalStretch<double>(at(pts, a), at(pts, b), double(stretch.rest[j]));
    if (!e.valid) continue;
    const double alpha = c.stretchAlphaOf(j);
    const double s = kNewtonPenalty * (ma > 0.0 && mb > 0.0 ? 0.5 * (ma + mb) : ma + mb);
    const double kappa = s / (1.0 + s * alpha);
    const double lambda = double(lambdaStretch[j]);
    const double f = lambda - kappa * (e.C + alpha * lambda);
    sc.stretchC[j] = e.C;
    sc.stretchDir[j] = e.grad[0];
    // Gradients of a vertex that does not move are kept as 0: it takes no
    // part in the system.
    sc.stretchGrad[2 * j] = ma > 0.0 ? e.grad[0] : glm::dvec3(0.0);
    sc.stretchGrad[2 * j + 1] = mb > 0.0 ? e.grad[1] : glm::dvec3(0.0);
    sc.stretchKappa[j] = kappa;
    // A taut edge resists turning, λ ∇²C: |λ| / l across its direction,
    // the Hessian a Newton step on a hanging cloth has; left out where the
    // edge is pushed, as it would make the matrix indefinite.
    const double length = e.C + double(stretch.rest[j]);  // C = |d| − rest
    sc.stretchTension[j] = lambda < 0.0 && length > 0.0 ? -lambda / length : 0.0;
    sc.rhs[a] += f * sc.stretchGrad[2 * j];
    sc.rhs[b] += f * sc.stretchGrad[2 * j + 1];
  }
}

// The hinges' C, ∇C and κ at the current positions, and their share of the right-hand side.
void assembleBend(const Points& pts, const PackedBend& bend, const Coefficients& c,
                  const float* lambdaBend, NewtonScratch& sc) {
  auto mass = [&](std::uint32_t i) { return sc.mass[i]; };
  const std::size_t nb = bend.size();
  sc.bendC.assign(nb, 0.0);
  sc.bendGrad.assign(4 * nb, glm::dvec3(0.0));
  sc.bendKappa.assign(nb, 0.0);
  for (std::size_t j = 0; c.bendOn && j < nb; ++j) {
    const std::uint32_t v[4] = {bend.v0[j], bend.v1[j], bend.v2[j], bend.v3[j]};
    double mSum = 0.0;
    int free = 0;
    for (std::uint32_t i : v)
      if (mass(i) > 0.0) {
        mSum += mass(i);
        ++free;
      }
    if (free == 0) continue;
    const auto e = evalDihedral<double>(at(pts, v[0]), at(pts, v[1]), at(pts, v[2]), at(pts, v[3]),
                                        double(bend.restAngle[j]));
    if (!e.valid) continue;
    const double alpha = c.bendAlphaOf(j);
    const double l = double(bend.restLength[j]);
    // The hinge's own stiffness 1/α: the Newton step of XPBD's energy, which
    // the conjugate gradients carry across the mesh (a rigid hinge, α = 0,
    // takes a penalty and its multiplier instead).
    const double kappa = alpha > 0.0 ? 1.0 / alpha : kNewtonBendPenalty * mSum / free * l * l;
    const double lambda = double(lambdaBend[j]);
    const double f = lambda - kappa * (e.C + alpha * lambda);
    sc.bendC[j] = e.C;
    sc.bendKappa[j] = kappa;
    for (int k = 0; k < 4; ++k) {
      const glm::dvec3 g = mass(v[k]) > 0.0 ? e.grad[k] : glm::dvec3(0.0);
      sc.bendGrad[4 * j + std::size_t(k)] = g;
      sc.rhs[v[k]] += f * g;
    }
  }
}

// Each vertex's 3 × 3 block of the matrix, inverted: the preconditioner's local part.
void invertBlocks(const PackedStretch& stretch, const PackedBend& bend, NewtonScratch& sc) {
  auto mass = [&](std::uint32_t i) { return sc.mass[i]; };
  const std::size_t n = sc.predicted.size(), ns = stretch.size(), nb = bend.size();
  sc.blockInverse.assign(n, glm::dmat3(0.0));
  for (std::size_t i = 0; i < n; ++i) sc.blockInverse[i] = glm::dmat3(mass(std::uint32_t(i)));
  auto block = [&](std::uint32_t i, const glm::dvec3& g, double kappa) {
    sc.blockInverse[i] += kappa * glm::outerProduct(g, g);
  };
  for (std::size_t j = 0; j < ns; ++j) {
    block(stretch.a[j], sc.stretchGrad[2 * j], sc.stretchKappa[j]);
    block(stretch.b[j], sc.stretchGrad[2 * j + 1], sc.stretchKappa[j]);
    const double t = sc.stretchTension[j];
    if (t <= 0.0) continue;
    const glm::dmat3 across =
        t * (glm::dmat3(1.0) - glm::outerProduct(sc.stretchDir[j], sc.stretchDir[j]));
    if (mass(stretch.a[j]) > 0.0) sc.blockInverse[stretch.a[j]] += across;
    if (mass(stretch.b[j]) > 0.0) sc.blockInverse[stretch.b[j]] += across;
  }
  for (std::size_t j = 0; j < nb; ++j) {
    const std::uint32_t v[4] = {bend.v0[j], bend.v1[j], bend.v2[j], bend.v3[j]};
    for (int k = 0; k < 4; ++k) block(v[k], sc.bendGrad[4 * j + std::size_t(k)], sc.bendKappa[j]);
  }
  for (std::size_t i = 0; i < n; ++i)
    if (mass(std::uint32_t(i)) > 0.0) sc.blockInverse[i] = glm::inverse(sc.blockInverse[i]);
}

// z ← the preconditioner applied to r: the blocks, plus the coarse level where `coarse`.
void precondition(const std::vector<glm::dvec3>& r, std::vector<glm::dvec3>& z, bool coarse,
                  const NewtonPreconditioner& pre, NewtonScratch& sc) {
  auto mass = [&](std::uint32_t i) { return sc.mass[i]; };
  const std::size_t n = sc.predicted.size();
  const NewtonCoarse& co = sc.coarse;
  for (std::size_t i = 0; i < n; ++i) z[i] = sc.blockInverse[i] * r[i];
  if (!coarse) return;
  const EnvelopeCholesky& f = pre.factor;
  sc.coarseWork.assign(std::size_t(f.n), 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    if (mass(std::uint32_t(i)) <= 0.0) continue;
    for (std::uint32_t a = co.start[i]; a < co.start[i + 1]; ++a) {
      const int d = pre.dof[co.index[a]];
      if (d < 0) continue;
      for (int k = 0; k < 3; ++k) sc.coarseWork[std::size_t(3 * d + k)] += co.weight[a] * r[i][k];
    }
  }
  f.solve(sc.coarseWork.data());
  for (std::size_t i = 0; i < n; ++i) {
    if (mass(std::uint32_t(i)) <= 0.0) continue;
    for (std::uint32_t a = co.start[i]; a < co.start[i + 1]; ++a) {
      const int d = pre.dof[co.index[a]];
      if (d < 0) continue;
      for (int k = 0; k < 3; ++k) z[i][k] += co.weight[a] * sc.coarseWork[std::size_t(3 * d + k)];
    }
  }
}

// y ← the step's matrix times u, from the constraints' gradients (matrix free).
void applyMatrix(const PackedStretch& stretch, const PackedBend& bend, const NewtonScratch& sc,
                 const std::vector<glm::dvec3>& u, std::vector<glm::dvec3>& y) {
  const std::size_t n = sc.predicted.size(), ns = stretch.size(), nb = bend.size();
  // The matrix times u, on the free vertices.
  // (A vertex that does not move has 0 for its gradients, mass and
  // residual, so it stays at 0 throughout.)
  for (std::size_t i = 0; i < n; ++i) y[i] = sc.mass[i] * u[i];
  for (std::size_t j = 0; j < ns; ++j) {
    const std::uint32_t a = stretch.a[j], b = stretch.b[j];
    const glm::dvec3 &ga = sc.stretchGrad[2 * j], &gb = sc.stretchGrad[2 * j + 1];
    const double s = sc.stretchKappa[j] * (glm::dot(ga, u[a]) + glm::dot(gb, u[b]));
    y[a] += s * ga;
    y[b] += s * gb;
    const double t = sc.stretchTension[j];
    if (t <= 0.0) continue;
    const glm::dvec3 &dir = sc.stretchDir[j], du = u[a] - u[b];
    const glm::dvec3 across = t * (du - glm::dot(du, dir) * dir);
    y[a] += across;  // (at a vertex that does not move, never read)
    y[b] -= across;
  }
  for (std::size_t j = 0; j < nb; ++j) {
    const std::uint32_t v[4] = {bend.v0[j], bend.v1[j], bend.v2[j], bend.v3[j]};
    const glm::dvec3* g = &sc.bendGrad[4 * j];
    const double s = sc.bendKappa[j] * (glm::dot(g[0], u[v[0]]) + glm::dot(g[1], u[v[1]]) +
                                        glm::dot(g[2], u[v[2]]) + glm::dot(g[3], u[v[3]]));
    for (int k = 0; k < 4; ++k) y[v[k]] += s * g[k];
  }
}

// Δx (sc.x) by preconditioned conjugate gradients; returns r·z, not finite where it broke down.
double conjugateGradients(const PackedStretch& stretch, const PackedBend& bend, int iterations,
                          double tolerance, bool coarse, const NewtonPreconditioner& pre,
                          NewtonScratch& sc) {
  const std::size_t n = sc.predicted.size();
  auto dot = [&](const std::vector<glm::dvec3>& a, const std::vector<glm::dvec3>& b) {
    double s = 0.0;
    for (std::size_t i = 0; i < n; ++i) s += glm::dot(a[i], b[i]);
    return s;
  };
  // Conjugate gradients from Δx = 0.
  sc.x.assign(n, glm::dvec3(0.0));
  sc.r = sc.rhs;
  sc.z.resize(n);
  sc.ad.resize(n);
  precondition(sc.r, sc.z, coarse, pre, sc);
  sc.d = sc.z;
  double rz = dot(sc.r, sc.z);
  const double stop = rz * tolerance * tolerance;
  for (int it = 0; it < iterations && rz > stop; ++it) {
    applyMatrix(stretch, bend, sc, sc.d, sc.ad);
    const double dad = dot(sc.d, sc.ad);
    if (!(dad > 0.0)) break;
    const double step = rz / dad;
    for (std::size_t i = 0; i < n; ++i) {
      sc.x[i] += step * sc.d[i];
      sc.r[i] -= step * sc.ad[i];
    }
    precondition(sc.r, sc.z, coarse, pre, sc);
    const double next = dot(sc.r, sc.z);
    const double beta = next / rz;
    rz = next;
    for (std::size_t i = 0; i < n; ++i) sc.d[i] = sc.z[i] + beta * sc.d[i];
  }
  return rz;
}

// Δx scaled down where it would move a vertex too far for its linearisation to hold.
void boundMove(const PackedStretch& stretch, NewtonScratch& sc) {
  const std::size_t n = sc.predicted.size(), ns = stretch.size();
  // No vertex moves further than kNewtonMaxMove of the mean rest edge: a
  // uniform scale (which keeps momentum), as the bending projections are
  // bounded, for stencils far from their linearisation.
  double restSum = 0.0, most = 0.0;
  for (std::size_t j = 0; j < ns; ++j) restSum += double(stretch.rest[j]);
  for (std::size_t i = 0; i < n; ++i) most = std::max(most, glm::length(sc.x[i]));
  const double bound = ns > 0 ? kNewtonMaxMove * restSum / double(ns) : 0.0;
  if (bound > 0.0 && most > bound)
    for (glm::dvec3& dx : sc.x) dx *= bound / most;
}

// Δx into the multipliers and the positions: the step's result.
void applyStep(const Points& pts, const PackedStretch& stretch, const PackedBend& bend,
               const Coefficients& c, float* lambdaStretch, float* lambdaBend,
               const NewtonScratch& sc) {
  auto mass = [&](std::uint32_t i) { return sc.mass[i]; };
  const std::size_t n = sc.predicted.size(), ns = stretch.size(), nb = bend.size();
  // The multipliers, then the positions.
  for (std::size_t j = 0; j < ns; ++j) {
    if (sc.stretchKappa[j] <= 0.0) continue;
    const std::uint32_t a = stretch.a[j], b = stretch.b[j];
    const double alpha = c.stretchAlphaOf(j);
    const double jdx =
        glm::dot(sc.stretchGrad[2 * j], sc.x[a]) + glm::dot(sc.stretchGrad[2 * j + 1], sc.x[b]);
    const double lambda = double(lambdaStretch[j]);
    lambdaStretch[j] = float(lambda - sc.stretchKappa[j] * (sc.stretchC[j] + alpha * lambda + jdx));
  }
  for (std::size_t j = 0; j < nb; ++j) {
    if (sc.bendKappa[j] <= 0.0) continue;
    const std::uint32_t v[4] = {bend.v0[j], bend.v1[j], bend.v2[j], bend.v3[j]};
    double jdx = 0.0;
    for (int k = 0; k < 4; ++k) jdx += glm::dot(sc.bendGrad[4 * j + std::size_t(k)], sc.x[v[k]]);
    const double alpha = c.bendAlphaOf(j);
    const double lambda = double(lambdaBend[j]);
    lambdaBend[j] = float(lambda - sc.bendKappa[j] * (sc.bendC[j] + alpha * lambda + jdx));
  }
  for (std::size_t i = 0; i < n; ++i)
    if (mass(std::uint32_t(i)) > 0.0) pts.p(std::uint32_t(i)) += glm::vec3(sc.x[i]);
}

}  // namespace

void newtonStep(const Points& pts, const PackedStretch& stretch, const PackedBend& bend,
                const Coefficients& c, float* lambdaStretch, float* lambdaBend, int iterations,
                double tolerance, bool refreshCoarse, NewtonScratch& sc,
                NewtonPreconditioner& pre) {
  const std::size_t n = sc.predicted.size();
  sc.mass.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float w = pts.invMass(std::uint32_t(i));
    sc.mass[i] = w > 0.0f ? 1.0 / double(w) : 0.0;
  }
  auto mass = [&](std::uint32_t i) { return sc.mass[i]; };
  // The constraints at the current positions, and the right-hand side.
  sc.rhs.assign(n, glm::dvec3(0.0));
  for (std::size_t i = 0; i < n; ++i) {
    const double m = mass(std::uint32_t(i));
    if (m > 0.0)
      sc.rhs[i] = m * (glm::dvec3(glm::vec3(sc.predicted[i])) - at(pts, std::uint32_t(i)));
  }
  assembleStretch(pts, stretch, c, lambdaStretch, sc);
  assembleBend(pts, bend, c, lambdaBend, sc);

  // The preconditioner: each vertex's block, and the coarse level.
  invertBlocks(stretch, bend, sc);
  const NewtonCoarse& co = sc.coarse;
  const bool hasCoarse = !co.vertex.empty() && co.start.size() == n + 1;
  if (hasCoarse && (refreshCoarse || !pre.ready)) factorCoarse(stretch, bend, sc, pre, n);
  const bool coarse = hasCoarse && pre.ready;
  const double rz = conjugateGradients(stretch, bend, iterations, tolerance, coarse, pre, sc);
  if (!std::isfinite(rz)) return;  // leave the sweeps' result as it is
  boundMove(stretch, sc);

  applyStep(pts, stretch, bend, c, lambdaStretch, lambdaBend, sc);
}

}  // namespace drape::sim
