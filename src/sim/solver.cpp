#include "sim/solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "sim/aerodynamics.hpp"
#include "sim/constraints.hpp"
#include "sim/mass_spring.hpp"
#include "sim/materials.hpp"
#include "sim/rigid_body.hpp"
#include "sim/self_collision.hpp"
#include "sim/solve_batched.hpp"
#include "sim/tearing.hpp"
#include "sim/tet_volume.hpp"
#include "sim/tethers.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

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

// Vertices per chunk of the parallel collider contact search.
constexpr std::size_t kVerticesPerChunk = 1024;

// The most a span of the cloth (an edge, a triangle's side) may be stretched
// over its longest rest edge and still meet the colliders' features.
constexpr float kFeatureStretch = 3.0f;

// The feature contacts (feature_contacts.hpp) of one chunk of the cloth's
// edges, or of its triangles after the edges' chunks, for the poses and far
// tests of the sub-step (generateContacts), in order.
void featureContactsOf(World& world, std::size_t chunk, std::size_t edgeChunks) {
  SolverScratch& sc = world.scratch;
  const State& s = world.state;
  std::vector<FeatureContact>& out = sc.featureContactChunks[chunk];
  out.clear();
  const float thickness = world.params.thickness;
  const float longest2 = (kFeatureStretch * sc.longestRest) * (kFeatureStretch * sc.longestRest);
  const bool edges = chunk < edgeChunks;
  const std::size_t count = edges ? world.cloth.stretch.size() : world.cloth.triangles.size();
  const std::size_t first = (edges ? chunk : chunk - edgeChunks) * kVerticesPerChunk;
  const std::size_t end = std::min(count, first + kVerticesPerChunk);
  for (std::size_t j = first; j < end; ++j) {
    std::uint32_t v[3];
    if (edges) {
      v[0] = world.cloth.stretch[j].a;
      v[1] = v[2] = world.cloth.stretch[j].b;
    } else {
      for (int k = 0; k < 3; ++k) v[k] = world.cloth.triangles[j][k];
    }
    if (s.w[v[0]] == 0.0f && s.w[v[1]] == 0.0f && s.w[v[2]] == 0.0f) continue;
    // As for a vertex: the step's travel and a bit (generateContacts); a
    // ball about the middle holding the span, and its longest side.
    float move2 = 0.0f, span2 = 0.0f, radius2 = 0.0f;
    const glm::vec3 middle = edges ? 0.5f * (s.p[v[0]] + s.p[v[1]])
                                   : (s.p[v[0]] + s.p[v[1]] + s.p[v[2]]) * (1.0f / 3.0f);
    for (int k = 0; k < 3; ++k) {
      const glm::vec3 travel = s.p[v[k]] - s.x[v[k]], side = s.p[v[(k + 1) % 3]] - s.p[v[k]];
      move2 = std::max(move2, glm::dot(travel, travel));
      span2 = std::max(span2, glm::dot(side, side));
      radius2 = std::max(radius2, glm::dot(s.p[v[k]] - middle, s.p[v[k]] - middle));
    }
    // A span stretched beyond the bound the colliders were chosen for is
    // rubber, not cloth: what lies between its vertices is left to them.
    if (span2 > longest2) continue;
    const float margin = std::sqrt(move2) + 0.5f * thickness + 1e-4f;
    for (const std::uint32_t c : sc.featureColliders) {
      const Collider& shape = world.colliders[c];
      const float radius = std::sqrt(radius2);
      if (!featuresMayReach(shape, span2) ||
          sc.farTests[c].far(middle, radius, thickness, margin) ||
          !nearFeatures(shape, sc.posesTo[c], middle, radius + thickness + margin, edges ? 2 : 3))
        continue;
      FeatureContact contact;
      const bool found =
          edges ? generateEdgeContact(shape, sc.posesFrom[c], sc.posesTo[c], s.p[v[0]], s.p[v[1]],
                                      thickness, margin, contact)
                : generateFaceContact(shape, sc.posesFrom[c], sc.posesTo[c], s.p[v[0]], s.p[v[1]],
                                      s.p[v[2]], thickness, margin, contact);
      if (!found) continue;
      for (int k = 0; k < 3; ++k) contact.v[k] = v[k];
      out.push_back(contact);
    }
  }
}

// Collider contacts for the sub-step; `beside()`, serial work of its own, runs
// on one of the threads meanwhile.
template <typename F>
void generateContacts(World& world, double t0, float h, F&& beside) {
  SolverScratch& sc = world.scratch;
  State& s = world.state;
  sc.contacts.clear();
  sc.posesFrom.resize(world.colliders.size());
  sc.posesTo.resize(world.colliders.size());
  sc.farTests.resize(world.colliders.size());
  for (std::size_t c = 0; c < world.colliders.size(); ++c) {
    sc.posesFrom[c] = poseAt(world.colliders[c], t0);
    sc.posesTo[c] = poseAt(world.colliders[c], t0 + double(h));
    sc.farTests[c] = farTest(world.colliders[c], sc.posesFrom[c], sc.posesTo[c]);
  }
  const float thickness = world.params.thickness;
  // A vertex that barely moves by itself may be dragged far by its
  // neighbours during the solve. Inside a solid that is undone at the next
  // step (it is pushed back out), but a vertex dragged through an open
  // mesh's sheet would stay on the far side: open meshes take every vertex
  // within the fastest vertex's travel.
  float fastest = 0.0f;
  for (const Collider& c : world.colliders)
    if (c.kind == ColliderKind::Mesh && c.mesh && !c.mesh->closed) {
      for (std::size_t i = 0; i < s.x.size(); ++i)
        if (s.w[i] != 0.0f) fastest = std::max(fastest, glm::length(s.p[i] - s.x[i]));
      break;
    }
  // Vertices in chunks, on the solver's threads, after a first one that is
  // beside(); the chunks' contacts are joined in order, so they come out in
  // vertex order on any thread count.
  const std::size_t n = s.x.size();
  const std::size_t chunks = (n + kVerticesPerChunk - 1) / kVerticesPerChunk;
  sc.contactChunks.resize(std::max(sc.contactChunks.size(), chunks));
  // The cloth's edges and triangles in chunks after the vertices', where a
  // collider has edges, corners or a thin part for them to meet.
  sc.featureContacts.clear();
  // Which colliders: those whose features a span of the cloth stretched to
  // kFeatureStretch times its longest edge may meet.
  if (sc.longestRestTopology != world.cloth.topologyVersion) {
    sc.longestRest = 0.0f;
    for (const StretchConstraint& e : world.cloth.stretch)
      sc.longestRest = std::max(sc.longestRest, e.rest);
    sc.longestRestTopology = world.cloth.topologyVersion;
  }
  const float span = kFeatureStretch * sc.longestRest;
  sc.featureColliders.clear();
  for (std::uint32_t c = 0; c < world.colliders.size(); ++c)
    if (featuresMayReach(world.colliders[c], span * span)) sc.featureColliders.push_back(c);
  auto chunksOf = [&](std::size_t count) {
    return sc.featureColliders.empty() ? 0 : (count + kVerticesPerChunk - 1) / kVerticesPerChunk;
  };
  const std::size_t edgeChunks = chunksOf(world.cloth.stretch.size());
  const std::size_t featureChunks = edgeChunks + chunksOf(world.cloth.triangles.size());
  sc.featureContactChunks.resize(std::max(sc.featureContactChunks.size(), featureChunks));
  ThreadTeam& team = threadTeam(
      solverThreads(world.params.threads, world.cloth.stretch.size() + world.cloth.bend.size()));
  forEachChunk(team, chunks + featureChunks + 1, [&](std::size_t job, int) {
    if (job == 0) {
      beside();
      return;
    }
    if (job > chunks) {
      featureContactsOf(world, job - chunks - 1, edgeChunks);
      return;
    }
    const std::size_t chunk = job - 1;
    std::vector<Contact>& out = sc.contactChunks[chunk];
    out.clear();
    const std::size_t end = std::min(n, (chunk + 1) * kVerticesPerChunk);
    for (std::uint32_t i = std::uint32_t(chunk * kVerticesPerChunk); i < end; ++i) {
      if (s.w[i] == 0.0f) continue;
      // A margin of the step's travel plus a bit catches vertices that other
      // constraints may push into the collider during the solve.
      const float move = glm::length(s.p[i] - s.x[i]);
      const float margin = move + 0.5f * thickness + 1e-4f;
      for (std::uint32_t c = 0; c < world.colliders.size(); ++c) {
        const Collider& shape = world.colliders[c];
        const bool sheet = shape.kind == ColliderKind::Mesh && shape.mesh && !shape.mesh->closed;
        const float reach = sheet ? margin + fastest : margin;
        if (sc.farTests[c].far(s.x[i], move, thickness, reach)) continue;
        Contact contact;
        if (!generateContact(world.colliders[c], sc.posesFrom[c], sc.posesTo[c], s.x[i], s.p[i],
                             thickness, reach, contact))
          continue;
        contact.vertex = i;
        contact.collider = c;
        contact.approachSpeed = glm::dot(s.v[i] - contact.surfaceShift / h, contact.n);
        out.push_back(contact);
      }
    }
  });
  for (std::size_t chunk = 0; chunk < chunks; ++chunk)
    sc.contacts.insert(sc.contacts.end(), sc.contactChunks[chunk].begin(),
                       sc.contactChunks[chunk].end());
  for (std::size_t chunk = 0; chunk < featureChunks; ++chunk)
    sc.featureContacts.insert(sc.featureContacts.end(), sc.featureContactChunks[chunk].begin(),
                              sc.featureContactChunks[chunk].end());
}

}  // namespace

void finishSubstep(World& world, double t0, float h) {
  State& s = world.state;
  const float invH = 1.0f / h;
  for (const Contact& c : world.scratch.contacts) {
    if (!c.touched || c.approachSpeed >= 0.0f) continue;
    const glm::vec3 surface = c.surfaceShift * invH;
    const float vn = glm::dot(s.v[c.vertex] - surface, c.n);
    const float target = -world.params.restitution * c.approachSpeed;
    if (vn < target) s.v[c.vertex] += (target - vn) * c.n;
  }
  for (const SelfContact& c : world.scratch.selfContacts)
    world.selfContactsActive += c.touched ? 1 : 0;
  world.time = t0 + double(h);
}

void moveToTargets(World& world, double t) {
  State& s = world.state;
  for (const Pin& pin : world.pins) s.p[pin.vertex] = pin.targetAt(t);
  // A soft grab pulls in the solver's iterations; the explicit springs have
  // none, and hold the grabbed vertex where the hand is.
  const bool soft = world.grab.soft && world.params.solver != SolverKind::MassSpring;
  if (world.grab.active && !soft) s.p[world.grab.vertex] = world.grab.target;
}

void generateStepContacts(World& world, double t0, float h, StepTimings& timing) {
  // Self-collision constraints (paper §4.3) and collision constraints (paper
  // §3.4), once per sub-step. The self-collision hash is built beside the
  // collider contacts: its time counts in selfCollision, the rest of that
  // phase in collisions.
  auto t = Clock::now();
  const bool self = prepareSelfContacts(world);
  timing.selfCollision += msSince(t);
  t = Clock::now();
  double hashMs = 0.0;
  generateContacts(world, t0, h, [&] {
    if (!self) return;
    const auto start = Clock::now();
    buildSelfHash(world);
    hashMs = msSince(start);
  });
  timing.collisions += std::max(0.0, msSince(t) - hashMs);
  t = Clock::now();
  if (self) findSelfContacts(world);
  world.selfContacts += world.scratch.selfContacts.size();
  timing.selfCollision += msSince(t) + hashMs;
}

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

void solveContacts(const Points& pts, const glm::vec3* x, Contact* contacts, std::size_t count,
                   float friction) {
  for (std::size_t j = 0; j < count; ++j) {
    Contact& c = contacts[j];
    glm::vec3& p = pts.p(c.vertex);
    const float C = glm::dot(p - c.q, c.n);
    if (C >= 0.0f) continue;
    p -= C * c.n;
    c.touched = true;
    // Position-level Coulomb friction (static when the tangential slip over
    // the step is below μ times the penetration, kinetic otherwise).
    const glm::vec3 slip = (p - x[c.vertex]) - c.surfaceShift;
    const glm::vec3 tangential = slip - glm::dot(slip, c.n) * c.n;
    const float len = glm::length(tangential);
    const float limit = friction * -C;
    if (len <= limit)
      p -= tangential;
    else if (len > 0.0f)
      p -= tangential * (limit / len);
  }
}

void solveFeatureContacts(const Points& pts, const glm::vec3* x, const FeatureContact* contacts,
                          std::size_t count, float friction) {
  for (std::size_t j = 0; j < count; ++j) {
    const FeatureContact& c = contacts[j];
    const glm::vec3 p[3] = {pts.p(c.v[0]), pts.p(c.v[1]), pts.p(c.v[2])};
    const ConstraintEval<3, float> e = evalPointPlane(p, c.weight, c.q, c.n);
    if (e.C >= 0.0f) continue;
    // Stiffness 1, as a vertex's contact (paper §3.3): a displacement D of
    // the cloth's point is carried by its vertices as w_i ∇_i C / denom · D,
    // denom = Σ w_i |∇_i C|² (|n| = 1). An edge's third vertex has weight 0.
    float denom = 0.0f, share[3];
    for (int i = 0; i < 3; ++i) {
      share[i] = pts.invMass(c.v[i]) * c.weight[i];
      denom += share[i] * c.weight[i];
    }
    if (!(denom > 0.0f)) continue;
    const float depth = std::min(-e.C, c.reach);
    glm::vec3 move = depth * c.n;
    // Friction as at a vertex's contact, on the slip of the cloth's point.
    glm::vec3 slip = move - c.surfaceShift;
    for (int i = 0; i < 3; ++i) slip += c.weight[i] * (p[i] - x[c.v[i]]);
    const glm::vec3 tangential = slip - glm::dot(slip, c.n) * c.n;
    const float len = glm::length(tangential);
    const float limit = friction * depth;
    if (len <= limit)
      move -= tangential;
    else if (len > 0.0f)
      move -= tangential * (limit / len);
    // A point beside a pinned vertex would lever the free one far (by
    // 1/weight): no vertex moves more than kMaxLever times the point.
    constexpr float kMaxLever = 2.0f;
    for (int i = 0; i < 3; ++i) pts.p(c.v[i]) += std::min(share[i] / denom, kMaxLever) * move;
  }
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
