#include "sim/solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/aerodynamics.hpp"
#include "sim/constraints.hpp"
#include "sim/mass_spring.hpp"
#include "sim/materials.hpp"
#include "sim/rigid_body.hpp"
#include "sim/self_collision.hpp"
#include "sim/solve_batched.hpp"
#include "sim/step_contacts.hpp"
#include "sim/stopwatch.hpp"
#include "sim/tearing.hpp"
#include "sim/tet_volume.hpp"
#include "sim/tethers.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

// Δp_i = −k · s · w_i ∇_i C (paper §3.3), optionally scaled down so that no
// vertex moves more than maxMove.
template <int N>
inline void applyPbd(State& s, const std::uint32_t (&idx)[N], const ConstraintEval<N, float>& e,
                     float k, float maxMove = std::numeric_limits<float>::infinity()) {
  if (!e.valid) return;
  float w[N];
  for (int i = 0; i < N; ++i) w[i] = s.w[idx[i]];
  float scale;
  if (!pbdScale(e, w, scale)) return;
  float factor = k * scale;
  if (maxMove < std::numeric_limits<float>::infinity()) {
    float largest2 = 0.0f;
    for (int i = 0; i < N; ++i)
      largest2 = std::max(largest2, w[i] * w[i] * glm::dot(e.grad[i], e.grad[i]));
    const float largest = std::abs(factor) * std::sqrt(largest2);
    if (largest > maxMove) factor *= maxMove / largest;
  }
  for (int i = 0; i < N; ++i) s.p[idx[i]] -= (factor * w[i]) * e.grad[i];
}

// XPBD: Δλ = (−C − α̃λ)/(Σ w|∇C|² + α̃), Δp_i = w_i ∇_i C Δλ. The bending
// safeguards take a partial step: Δλ times `scale`, and bounded so that no
// vertex moves more than maxMove.
template <int N>
inline void applyXpbd(State& s, const std::uint32_t (&idx)[N], const ConstraintEval<N, float>& e,
                      float alphaTilde, float& lambda, float scale = 1.0f,
                      float maxMove = std::numeric_limits<float>::infinity()) {
  if (!e.valid || std::isinf(alphaTilde)) return;
  float denom = alphaTilde;
  float w[N];
  for (int i = 0; i < N; ++i) {
    w[i] = s.w[idx[i]];
    denom += w[i] * glm::dot(e.grad[i], e.grad[i]);
  }
  if (!(denom > 1e-20f)) return;
  float dl = scale * (-e.C - alphaTilde * lambda) / denom;
  if (maxMove < std::numeric_limits<float>::infinity()) {
    float largest2 = 0.0f;
    for (int i = 0; i < N; ++i)
      largest2 = std::max(largest2, w[i] * w[i] * glm::dot(e.grad[i], e.grad[i]));
    const float largest = std::abs(dl) * std::sqrt(largest2);
    if (largest > maxMove) dl *= maxMove / largest;
  }
  lambda += dl;
  for (int i = 0; i < N; ++i) s.p[idx[i]] += (w[i] * dl) * e.grad[i];
}

inline ConstraintEval<4, float> evalIso(const State& s, const IsoBendConstraint& c) {
  const glm::vec3 x[4] = {s.p[c.v[0]], s.p[c.v[1]], s.p[c.v[2]], s.p[c.v[3]]};
  return evalIsometric(x, c.q, c.rest);
}

// Vertices per chunk of the damping sums, and the most pieces for which
// they are split in chunks.
constexpr std::size_t kDampChunk = 4096;
constexpr std::size_t kDampMaxPiecesChunked = 64;

}  // namespace

void solveStretchPbd(State& s, const StretchConstraint* c, std::size_t begin, std::size_t end,
                     float k, const float* kEach) {
  for (std::size_t j = begin; j < end; ++j) {
    const std::uint32_t idx[2] = {c[j].a, c[j].b};
    applyPbd<2>(s, idx, evalStretch(s.p[idx[0]], s.p[idx[1]], c[j].rest), kEach ? kEach[j] : k);
  }
}

void solveStretchXpbd(State& s, const StretchConstraint* c, std::size_t begin, std::size_t end,
                      float alphaTilde, float* lambda, const float* alphaEach) {
  for (std::size_t j = begin; j < end; ++j) {
    const std::uint32_t idx[2] = {c[j].a, c[j].b};
    applyXpbd<2>(s, idx, evalStretch(s.p[idx[0]], s.p[idx[1]], c[j].rest),
                 alphaEach ? alphaEach[j] : alphaTilde, lambda[j]);
  }
}

void solveBendPbd(State& s, const BendConstraint* c, std::size_t begin, std::size_t end, float k,
                  const float* kEach) {
  for (std::size_t j = begin; j < end; ++j) {
    const auto& v = c[j].v;
    const glm::vec3 &x0 = s.p[v[0]], &x1 = s.p[v[1]], &x2 = s.p[v[2]], &x3 = s.p[v[3]];
    const float area =
        glm::length(glm::cross(x2 - x0, x3 - x0)) + glm::length(glm::cross(x3 - x1, x2 - x1));
    const float q = area > c[j].restArea ? c[j].restArea / area : 1.0f;
    applyPbd<4>(s, v, evalDihedral(x0, x1, x2, x3, c[j].restAngle), (kEach ? kEach[j] : k) * q,
                kMaxBendMove * c[j].restLength);
  }
}

void solveBendXpbd(State& s, const BendConstraint* c, std::size_t begin, std::size_t end,
                   float alphaTilde, float* lambda, const float* alphaEach) {
  for (std::size_t j = begin; j < end; ++j) {
    const auto& v = c[j].v;
    const glm::vec3 &x0 = s.p[v[0]], &x1 = s.p[v[1]], &x2 = s.p[v[2]], &x3 = s.p[v[3]];
    const float area =
        glm::length(glm::cross(x2 - x0, x3 - x0)) + glm::length(glm::cross(x3 - x1, x2 - x1));
    const float q = area > c[j].restArea ? c[j].restArea / area : 1.0f;
    applyXpbd<4>(s, v, evalDihedral(x0, x1, x2, x3, c[j].restAngle),
                 alphaEach ? alphaEach[j] : alphaTilde, lambda[j], q,
                 kMaxBendMove * c[j].restLength);
  }
}

void solveIsoBendPbd(State& s, const IsoBendConstraint* c, std::size_t begin, std::size_t end,
                     float k, const float* kEach) {
  for (std::size_t j = begin; j < end; ++j)
    applyPbd<4>(s, c[j].v, evalIso(s, c[j]), kEach ? kEach[j] : k, kMaxBendMove * c[j].restLength);
}

void solveIsoBendXpbd(State& s, const IsoBendConstraint* c, std::size_t begin, std::size_t end,
                      float alphaTilde, float* lambda, const float* alphaEach) {
  for (std::size_t j = begin; j < end; ++j)
    applyXpbd<4>(s, c[j].v, evalIso(s, c[j]), alphaEach ? alphaEach[j] : alphaTilde, lambda[j]);
}

void solvePressure(State& s, const Cloth& cloth, float kPressure, std::vector<glm::vec3>& grad) {
  // C = Σ (pa × pb)·pc − k · 6V0; one global constraint, stiffness 1.
  grad.assign(s.p.size(), glm::vec3(0.0f));
  double sixV = 0.0;
  for (const glm::uvec3& t : cloth.triangles) {
    const glm::vec3 &a = s.p[t[0]], &b = s.p[t[1]], &c = s.p[t[2]];
    glm::vec3 ga, gb, gc;
    volumeGradient(a, b, c, ga, gb, gc);
    grad[t[0]] += ga;
    grad[t[1]] += gb;
    grad[t[2]] += gc;
    sixV += double(glm::dot(gc, c));
  }
  const double C = sixV - double(kPressure) * double(cloth.restSixVolume);
  double denom = 0.0;
  for (std::size_t i = 0; i < grad.size(); ++i)
    denom += double(s.w[i]) * double(glm::dot(grad[i], grad[i]));
  if (!(denom > 1e-20)) return;
  const float scale = float(C / denom);
  for (std::size_t i = 0; i < grad.size(); ++i) s.p[i] -= (scale * s.w[i]) * grad[i];
}

void dampVelocities(World& world, float kDamping) {
  if (kDamping <= 0.0f) return;
  State& s = world.state;
  const Cloth& cloth = world.cloth;
  SolverScratch& sc = world.scratch;
  const std::size_t pieces = cloth.pieceCount;
  const std::size_t n = s.x.size();
  // The sums in chunks of vertices on the solver's threads, added in chunk
  // order: the same on any thread count. Fixed chunks, but one chunk for a
  // cloth torn into many pieces (each chunk keeps a sum per piece).
  const std::size_t chunks = pieces <= kDampMaxPiecesChunked
                                 ? std::max<std::size_t>(1, (n + kDampChunk - 1) / kDampChunk)
                                 : 1;
  const std::size_t perChunk = (n + chunks - 1) / chunks;
  ThreadTeam& team =
      threadTeam(solverThreads(world.params.threads, cloth.stretch.size() + cloth.bend.size()));
  auto forChunks = [&](auto&& range) {
    if (chunks == 1)
      range(0);
    else
      forEachChunk(team, chunks, [&](std::size_t c, int) { range(c); });
  };
  // body(i, m, sums) for the free vertices, sums those of chunk c and i's
  // piece. They are added up in a local copy, moved to and from the array
  // where the piece changes: each sum gets the same additions in the same
  // order, but not through memory at every vertex.
  auto inChunks = [&](auto&& body) {
    forChunks([&](std::size_t c) {
      PieceSums* sums = &sc.dampSums[c * pieces];
      PieceSums local;
      std::uint32_t current = UINT32_MAX;
      const std::size_t end = std::min(n, (c + 1) * perChunk);
      for (std::size_t i = c * perChunk; i < end; ++i) {
        if (s.w[i] == 0.0f) continue;
        const std::uint32_t k = cloth.piece[i];
        if (k != current) {
          if (current != UINT32_MAX) sums[current] = local;
          current = k;
          local = sums[k];
        }
        body(i, 1.0 / double(s.w[i]), local);
      }
      if (current != UINT32_MAX) sums[current] = local;
    });
  };
  // resize + fill rather than assign: GCC 12's UBSan reports a false "store
  // to null pointer" in vector<glm::dvec3>::assign on an empty vector.
  auto zero = [](auto& v, std::size_t size, const auto& value) {
    v.resize(size);
    std::fill(v.begin(), v.end(), value);
  };
  zero(sc.dampSums, chunks * pieces, PieceSums{});
  zero(sc.pieceX, pieces, glm::dvec3(0.0));
  zero(sc.pieceV, pieces, glm::dvec3(0.0));
  zero(sc.pieceOmega, pieces, glm::dvec3(0.0));
  // Piece k's sums so far, its chunks added in order.
  auto total = [&](std::size_t k) {
    PieceSums sum;
    for (std::size_t c = 0; c < chunks; ++c) sum += sc.dampSums[c * pieces + k];
    return sum;
  };
  // x_cm, v_cm over the free vertices of each piece.
  inChunks([&](std::size_t i, double m, PieceSums& sum) {
    sum.x += m * glm::dvec3(s.x[i]);
    sum.v += m * glm::dvec3(s.v[i]);
    sum.mass += m;
  });
  for (std::size_t k = 0; k < pieces; ++k) {
    const PieceSums sum = total(k);
    if (sum.mass > 0.0) {
      sc.pieceX[k] = sum.x / sum.mass;
      sc.pieceV[k] = sum.v / sum.mass;
    }
  }
  // L = Σ r × m v, I = Σ m (|r|² 1 − r rᵀ) (= Σ r̃ r̃ᵀ m), I by its six
  // distinct entries m (|r|² δ_ab − r_a r_b).
  inChunks([&](std::size_t i, double m, PieceSums& sum) {
    const glm::dvec3 r = glm::dvec3(s.x[i]) - sc.pieceX[cloth.piece[i]];
    sum.L += glm::cross(r, m * glm::dvec3(s.v[i]));
    const double rr = glm::dot(r, r), off = rr * 0.0;
    sum.inertia[0] += m * (rr - r.x * r.x);
    sum.inertia[1] += m * (rr - r.y * r.y);
    sum.inertia[2] += m * (rr - r.z * r.z);
    sum.inertia[3] += m * (off - r.x * r.y);
    sum.inertia[4] += m * (off - r.x * r.z);
    sum.inertia[5] += m * (off - r.y * r.z);
  });
  for (std::size_t k = 0; k < pieces; ++k) {
    const PieceSums sum = total(k);
    const double* e = sum.inertia;
    const glm::dmat3 I(e[0], e[3], e[4], e[3], e[1], e[5], e[4], e[5], e[2]);
    const double det = glm::determinant(I);
    const double scale = I[0][0] + I[1][1] + I[2][2];
    if (std::abs(det) > 1e-12 * scale * scale * scale && scale > 0.0)
      sc.pieceOmega[k] = glm::inverse(I) * sum.L;
  }
  forChunks([&](std::size_t c) {
    const std::size_t end = std::min(n, (c + 1) * perChunk);
    for (std::size_t i = c * perChunk; i < end; ++i) {
      if (s.w[i] == 0.0f) continue;
      const std::uint32_t k = cloth.piece[i];
      const glm::dvec3 r = glm::dvec3(s.x[i]) - sc.pieceX[k];
      const glm::dvec3 rigid = sc.pieceV[k] + glm::cross(sc.pieceOmega[k], r);
      s.v[i] += float(kDamping) * (glm::vec3(rigid) - s.v[i]);
    }
  });
}

void step(World& world) {
  const auto frameStart = Clock::now();
  Params& prm = world.params;
  State& s = world.state;
  Cloth& cloth = world.cloth;
  SolverScratch& sc = world.scratch;
  StepTimings timing;
  int substeps = prm.substeps > 0 ? prm.substeps : 1;
  if (prm.solver == SolverKind::MassSpring && prm.stable_substeps != 0)
    substeps = std::max(substeps, massSpringStableSubsteps(world));
  world.substepsTaken = substeps;
  const int iterations = prm.iterations > 0 ? prm.iterations : 1;
  const float h = prm.dt / float(substeps);
  const std::size_t n = s.x.size();
  const bool xpbd = prm.solver == SolverKind::Xpbd;
  const bool iso = prm.bending == BendingModel::Isometric;

  // PBD: per-iteration stiffness; XPBD: α̃ = α/h².
  const float kStretch = linearizedStiffness(prm.k_stretch, iterations);
  const float kBend = linearizedStiffness(prm.k_bend, iterations);
  const float aStretch = complianceFromStiffness(prm.k_stretch, kStretchComplianceUnit) / (h * h);
  const float aBend = complianceFromStiffness(prm.k_bend, kBendComplianceUnit) / (h * h);
  const std::size_t bendCount = iso ? cloth.isoBend.size() : cloth.bend.size();
  if (prm.tethers == 0) {
    sc.tethers.clear();
    sc.tethersPins = UINT64_MAX;
  } else if (sc.tethersPins != world.pinsVersion || sc.tethersTopology != cloth.topologyVersion) {
    sc.tethers = buildTethers(cloth, world.pins);
    sc.tethersPins = world.pinsVersion;
    sc.tethersTopology = cloth.topologyVersion;
  }
  // Coarse levels for the position-based solvers, and not where stretch is
  // wanted: a balloon inflates by the stretch its pressure and edges settle
  // at, and tearing by strain needs edges that stretch where it is pulled.
  const std::uint32_t grabbed =
      world.grab.active && !world.grab.soft ? world.grab.vertex : UINT32_MAX;
  const bool tearing = prm.tear > 0.0f || (world.grab.active && world.grab.tear > 0.0f);
  const int levels =
      prm.solver == SolverKind::MassSpring || cloth.pressureActive || tearing ? 0 : prm.levels;
  if (sc.hierarchyPins != world.pinsVersion || sc.hierarchyTopology != cloth.topologyVersion ||
      sc.hierarchyGrab != grabbed || sc.hierarchyLevels != levels) {
    sc.hierarchy = buildHierarchy(cloth, s.w, levels);
    sc.hierarchyPins = world.pinsVersion;
    sc.hierarchyTopology = cloth.topologyVersion;
    sc.hierarchyGrab = grabbed;
    sc.hierarchyLevels = levels;
  }

  world.selfContacts = 0;
  world.selfContactsActive = 0;
  findTangles(world, timing);
  for (int sub = 0; sub < substeps; ++sub) {
    if (prm.solver == SolverKind::MassSpring) {
      massSpringSubstep(world, h, timing);  // explicit springs instead (mass_spring.hpp)
      continue;
    }
    const double t0 = world.time;
    // Predict (paper §3.1 lines 5-7), damping included.
    auto t = Clock::now();
    for (std::size_t i = 0; i < n; ++i)
      if (s.w[i] != 0.0f) s.v[i] += h * prm.gravity;
    applyAerodynamics(world, h, sc.aeroForce);  // nothing in still air
    dampVelocities(world, prm.damping);
    for (std::size_t i = 0; i < n; ++i) s.p[i] = s.x[i] + h * s.v[i];
    predictBodies(world.bodies, prm.gravity, h);
    moveToTargets(world, t0 + double(h));
    timing.predict += msSince(t);
    generateStepContacts(world, t0, h, timing);

    // Gauss-Seidel projection in a fixed order (paper §3.2).
    t = Clock::now();
    if (prm.kernels == KernelKind::Batched) {
      solveBatched(world, iterations, kStretch, kBend, aStretch, aBend, xpbd);
      timing.solve += msSince(t);
    } else {
      if (xpbd) {
        sc.lambdaStretch.assign(cloth.stretch.size(), 0.0f);
        sc.lambdaBend.assign(bendCount, 0.0f);
      }
      // Materials (cloth.hpp), where any constraint has its own.
      const float *stretchEach = nullptr, *bendEach = nullptr;
      if (!uniformMaterial(cloth.stretch)) {
        materialValues(
            cloth.stretch.size(), [&](std::size_t j) { return cloth.stretch[j].stiffness; },
            prm.k_stretch, iterations, xpbd, kStretchComplianceUnit, h, sc.kStretchEach);
        stretchEach = sc.kStretchEach.data();
      }
      if (iso ? !uniformMaterial(cloth.isoBend) : !uniformMaterial(cloth.bend)) {
        materialValues(
            bendCount,
            [&](std::size_t j) {
              return iso ? cloth.isoBend[j].stiffness : cloth.bend[j].stiffness;
            },
            prm.k_bend, iterations, xpbd, kBendComplianceUnit, h, sc.kBendEach);
        bendEach = sc.kBendEach.data();
      }
      for (int it = 0; it < iterations; ++it) {
        // Pressure first, so the cloth's own constraints (and contacts) have
        // the last word in each iteration (paper §4.4).
        if (cloth.pressureActive) solveBalloon(world);
        if (world.grab.soft) pullGrabPatch(Points::of(s), world.grab);
        solveHierarchy(Points::of(s), sc.hierarchy, prm.k_stretch, kHierarchySweeps);
        if (xpbd) {
          solveStretchXpbd(s, cloth.stretch.data(), 0, cloth.stretch.size(), aStretch,
                           sc.lambdaStretch.data(), stretchEach);
          if (iso)
            solveIsoBendXpbd(s, cloth.isoBend.data(), 0, bendCount, aBend, sc.lambdaBend.data(),
                             bendEach);
          else
            solveBendXpbd(s, cloth.bend.data(), 0, bendCount, aBend, sc.lambdaBend.data(),
                          bendEach);
        } else {
          solveStretchPbd(s, cloth.stretch.data(), 0, cloth.stretch.size(), kStretch, stretchEach);
          if (prm.k_bend > 0.0f) {
            if (iso)
              solveIsoBendPbd(s, cloth.isoBend.data(), 0, bendCount, kBend, bendEach);
            else
              solveBendPbd(s, cloth.bend.data(), 0, bendCount, kBend, bendEach);
          }
        }
        solveTethers(Points::of(s), sc.tethers, 0, sc.tethers.size(),
                     stretchLimitSlack(prm.k_stretch));
        solveBodyAttachments(s, world.bodies, world.attachments);
        // The colliders' features, then self contacts, then the vertices'
        // collider contacts: a layer pressed against the floor is kept out of
        // it, and a fold the features push is kept apart.
        solveFeatureContacts(Points::of(s), s.x.data(), sc.featureContacts.data(),
                             sc.featureContacts.size(), prm.friction);
        solveSelfContacts(Points::of(s), sc.selfContacts.data(), sc.selfContacts.size(),
                          sc.selfThickness);
        solveCrossings(Points::of(s), sc.tangles.crossings, kUntangleStep * sc.selfThickness);
        solveContacts(Points::of(s), s.x.data(), sc.contacts.data(), sc.contacts.size(),
                      prm.friction);
      }
      timing.solve += msSince(t);
    }

    // Velocity update (paper §3.1 lines 12-16), then restitution at contacts.
    t = Clock::now();
    const float invH = 1.0f / h;
    for (std::size_t i = 0; i < n; ++i) {
      s.v[i] = (s.p[i] - s.x[i]) * invH;
      s.x[i] = s.p[i];
    }
    updateBodies(world.bodies, world.colliders, h);
    finishSubstep(world, t0, h);
    timing.update += msSince(t);
  }

  // Tearing after the frame's solve (paper §5.4); what derives from the
  // topology is rebuilt by the next step.
  const auto tearStart = Clock::now();
  tearOverstretched(world);
  timing.tear = msSince(tearStart);
  ++world.frame;
  timing.total = msSince(frameStart);
  world.timings = timing;
}

}  // namespace drape::sim
