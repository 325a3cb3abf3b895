#include "sim/collision/step_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/constraints.hpp"
#include "sim/self/self_collision.hpp"
#include "sim/self/untangle.hpp"
#include "sim/solve/fold_limits.hpp"
#include "sim/solve/solver_scratch.hpp"
#include "sim/solve/solver_team.hpp"
#include "sim/stopwatch.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

// Vertices per chunk of the parallel collider contact search.
constexpr std::size_t kVerticesPerChunk = 1024;

// Frames from one search of the cloth's crossings of itself to the next,
// and while the last one found some. Crumpling cloth makes new crossings
// every frame; searched every second frame while crossed, ARCSim's flag
// dropped on the floor (the file and six copies jittered by up to 1 mm)
// keeps 52 crossings on average over its last 50 frames instead of 79, for
// 1–2 ms more a frame (on 8 ms); every frame, 33 for 5 ms more. Once
// kCleanSearchesToCalm searches in a row found none, every
// kTangleSearchEveryWhileCalm frames while its vertices move on average
// less than kCalmTravel self-contact thicknesses a sub-step against their
// neighbours (the lying drape 0.014–0.04, the 64² fold as it folds
// 0.09–0.4): a cloth that has stopped making crossings and barely changes
// shape seldom starts again, and a search of the piled 128² drape takes
// half a frame's time on two threads. The flag and 31 copies jittered by
// up to 1 mm kept 0.25 crossings on average over their last 50 frames
// (0.20 searched every fourth frame), 2 of the 32 ending with some (1);
// docs/performance.md.
constexpr std::uint64_t kTangleSearchEvery = 4;
constexpr std::uint64_t kTangleSearchEveryWhileCrossed = 2;
constexpr std::uint64_t kTangleSearchEveryWhileCalm = 8;
constexpr int kCleanSearchesToCalm = 2;
constexpr float kCalmTravel = 0.05f;
// One search for self contacts serves every sub-step of a frame
// (selfContactSpan) where the cloth is calm (as above, at kSpanTravel
// thicknesses a sub-step against the neighbours) and still: its mean
// velocity moves it less than that too, and no hand drags it. Its sweep is
// the first sub-step's motion carried on to the frame's end. The 128²
// drape's frames from frame 87 on (a lying cloth: 0.012–0.02); the fold
// and the drape at every size peak at and end with the crossings they did
// with a search each sub-step, and 16 copies of the flag end with none
// (one did before). Once a frame in every frame, the 128² drape had 4,187
// crossings at frame 40, and calm alone let the falling cloth land within
// one search (docs/performance.md).
constexpr float kSpanTravel = 0.025f;

// The most a span of the cloth (an edge, a triangle's side) may be stretched
// over its longest rest edge and still meet the colliders' features.
constexpr float kFeatureStretch = 3.0f;

// The feature contacts (feature_contacts.hpp) of one chunk of the cloth's
// edges, or of its triangles after the edges' chunks, for the poses and far
// tests of the sub-step (generateContacts), in order.
void featureContactsOf(World& world, std::size_t chunk, std::size_t edgeChunks) {
  SolverScratch& sc = *world.scratch;
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
    const float radius = std::sqrt(radius2);
    for (const std::uint32_t c : sc.featureColliders) {
      const Collider& shape = world.colliders[c];
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

// Collider contacts for the sub-step; `beside(k)` for k < `besides`, work
// of its own, runs on the threads meanwhile, before the contacts' chunks.
template <typename F>
void generateContacts(World& world, double t0, float h, std::size_t besides, F&& beside) {
  SolverScratch& sc = *world.scratch;
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
  // The untangling moves the vertices of a known crossing by up to
  // kUntangleStep self-contact thicknesses in each iteration (untangle.hpp),
  // beyond the travel the margin covers: their contacts reach that much
  // further from a collider with a far side (not a half-space). Without,
  // one pushed into a thin collider in a sub-step (a stave of the barrel,
  // 10 cm thick) was put out on its far side.
  const float untangleReach =
      sc.crossingVertices.empty()
          ? 0.0f
          : kUntangleStep * sc.selfThickness * float(std::max(world.params.iterations, 1));
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
  ThreadTeam& team = solverTeam(world);
  forEachChunk(team, besides + chunks + featureChunks, [&](std::size_t job, int) {
    if (job < besides) {
      beside(job);
      return;
    }
    job -= besides;
    if (job >= chunks) {
      featureContactsOf(world, job - chunks, edgeChunks);
      return;
    }
    const std::size_t chunk = job;
    std::vector<Contact>& out = sc.contactChunks[chunk];
    out.clear();
    const std::size_t end = std::min(n, (chunk + 1) * kVerticesPerChunk);
    for (std::uint32_t i = std::uint32_t(chunk * kVerticesPerChunk); i < end; ++i) {
      if (s.w[i] == 0.0f) continue;
      // A margin of the step's travel plus a bit catches vertices that other
      // constraints may push into the collider during the solve.
      const float move = glm::length(s.p[i] - s.x[i]);
      const bool crossing = !sc.crossingVertices.empty() && sc.crossingVertices[i] != 0;
      const float margin = move + 0.5f * thickness + 1e-4f;
      for (std::uint32_t c = 0; c < world.colliders.size(); ++c) {
        const Collider& shape = world.colliders[c];
        const bool sheet = shape.kind == ColliderKind::Mesh && shape.mesh && !shape.mesh->closed;
        const float untangling =
            crossing && shape.kind != ColliderKind::Plane ? untangleReach : 0.0f;
        const float reach = (sheet ? margin + fastest : margin) + untangling;
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

// Position-level Coulomb friction: the part of the slip over the step to
// take back, all of its tangential part when that is below `limit` (μ times
// the penetration: static), else `limit` of it (kinetic).
glm::vec3 frictionCorrection(const glm::vec3& slip, const glm::vec3& n, float limit) {
  const glm::vec3 tangential = slip - glm::dot(slip, n) * n;
  // Resting contacts mostly stick: known without a square root.
  const float len2 = glm::dot(tangential, tangential);
  if (surelyShorter(len2, limit)) return tangential;
  const float len = std::sqrt(len2);  // glm::length(tangential)
  if (len <= limit) return tangential;
  return len > 0.0f ? tangential * (limit / len) : glm::vec3(0.0f);
}

// A cloth that has stopped making crossings and barely changes shape
// (findTangles).
bool isCalm(const World& world, float travel = kCalmTravel) {
  const SolverScratch& sc = *world.scratch;
  return sc.tangles.cleanSearches >= kCleanSearchesToCalm &&
         sc.selfTravelMean < travel * sc.selfThickness;
}

// With a span of more than one sub-step, the predicted positions carried
// on to its end, x + span (p − x), in place of State::p while the self
// contacts are looked for (sweepAhead, then swapAhead to put p back, and
// to swap them in and out again).
void sweepAhead(World& world, int span) {
  if (span <= 1) return;
  State& s = world.state;
  std::vector<glm::vec3>& ahead = world.scratch->selfAhead;
  ahead.resize(s.p.size());
  for (std::size_t i = 0; i < s.p.size(); ++i) ahead[i] = s.x[i] + float(span) * (s.p[i] - s.x[i]);
  std::swap(s.p, ahead);
}
void swapAhead(World& world, int span) {
  if (span > 1) std::swap(world.state.p, world.scratch->selfAhead);
}

}  // namespace

int selfContactSpan(const World& world, int substeps) {
  const SolverScratch& sc = *world.scratch;
  const bool own = world.stats.crossingFactor == 1;
  // A hand pulls in the iterations, beyond the sweep of the prediction.
  if (world.params.self_collision == 0 || !own || world.grab.active || !isCalm(world, kSpanTravel))
    return 1;
  // A falling cloth barely changes shape until it lands, and then within a
  // frame: its mean velocity over a sub-step, against the same share of
  // the thickness.
  const std::vector<glm::vec3>& v = world.state.v;
  glm::dvec3 sum(0.0);
  for (const glm::vec3& vi : v) sum += glm::dvec3(vi);
  const float h = world.params.dt / float(std::max(substeps, 1));
  const float meanMove = v.empty() ? 0.0f : float(glm::length(sum / double(v.size()))) * h;
  return meanMove < kSpanTravel * sc.selfThickness ? substeps : 1;
}

void finishSubstep(World& world, double t0, float h) {
  State& s = world.state;
  const float invH = 1.0f / h;
  for (const Contact& c : world.scratch->contacts) {
    if (!c.touched || c.approachSpeed >= 0.0f) continue;
    const glm::vec3 surface = c.surfaceShift * invH;
    const float vn = glm::dot(s.v[c.vertex] - surface, c.n);
    const float target = -world.params.restitution * c.approachSpeed;
    if (vn < target) s.v[c.vertex] += (target - vn) * c.n;
  }
  for (const SelfContact& c : world.scratch->selfContacts)
    world.stats.selfContactsActive += c.touched ? 1 : 0;
  world.time = t0 + double(h);
}

void moveToTargets(World& world, double t) {
  State& s = world.state;
  for (const Pin& pin : world.pins) s.p[pin.vertex] = pin.targetAt(t);
  // A soft grab pulls in the solver's iterations; the explicit springs have
  // none, and hold the grabbed vertex where the hand is.
  const bool soft = world.grab.soft && world.params.solver != SolverKind::MassSpring;
  if (world.grab.active && !soft) s.p[world.grab.vertex] = world.grab.at;
}

void findTangles(World& world, StepTimings& timing) {
  Tangles& tangles = world.scratch->tangles;
  tangles.fresh = 0;
  if (world.params.self_collision == 0) {
    tangles.crossings.clear();
    tangles.region.clear();
    tangles.searchedTopology = UINT64_MAX;
    tangles.cleanSearches = 0;
    return;
  }
  const auto t = Clock::now();
  // The whole cloth is searched every kTangleSearchEvery frames, every
  // kTangleSearchEveryWhileCrossed while crossings are known, and every
  // kTangleSearchEveryWhileCalm after searches that found none (on a
  // piled 128² drape, a search takes 9 ms on two threads even with the
  // smooth parts ruled out); in the frames between, the crossings found
  // are checked again.
  const Cloth& cloth = world.cloth;
  const bool calm = isCalm(world);
  if (tangles.tooDenseTopology == cloth.topologyVersion) {
    tangles.crossings.clear();  // a mesh too dense to search: not again until it changes
  } else if (world.frame % (!tangles.crossings.empty() ? kTangleSearchEveryWhileCrossed
                            : calm                     ? kTangleSearchEveryWhileCalm
                                                       : kTangleSearchEvery) ==
                 0 ||
             tangles.searchedTopology != cloth.topologyVersion) {
    ThreadTeam& team = solverTeam(world);
    tangles.known.swap(tangles.crossings);
    if (tangles.searchedTopology != cloth.topologyVersion) {
      tangles.known.clear();
      tangles.cleanSearches = 0;
    }
    if (!findCrossings(cloth, world.state.x, &team, tangles, CrossingSearch::Culled)) {
      tangles.crossings.clear();
      tangles.tooDenseTopology = cloth.topologyVersion;
    }
    tangles.fresh = countFresh(tangles.known, tangles.crossings);
    tangles.cleanSearches = tangles.crossings.empty() ? tangles.cleanSearches + 1 : 0;
    tangles.searchedTopology = cloth.topologyVersion;
  } else {
    keepStillCrossing(world.state.x, tangles);
  }
  findRegions(cloth, tangles);
  shareCrossings(cloth.vertexCount(), tangles);
  timing.selfCollision += msSince(t);
}

void generateStepContacts(World& world, double t0, float h, StepTimings& timing, int span) {
  SolverScratch& sc = *world.scratch;
  markCrossingVertices(sc.tangles, world.state.x.size(), sc.crossingVertices);
  // Self-collision constraints (paper §4.3) and collision constraints (paper
  // §3.4), once per sub-step (the self contacts once per span). The
  // self-collision hash is built on one thread while the others choose the
  // fold limits and then, with it, find the collider contacts: the hash's
  // time counts in selfCollision, the rest of that job (the fold limits'
  // choice too) in collisions.
  auto t = Clock::now();
  const bool search = span > 0;
  if (search) {
    sweepAhead(world, span);
    sc.selfSearched = prepareSelfContacts(world);
    swapAhead(world, span);
    if (sc.selfSearched) sc.selfTravelMean /= float(span);  // a sub-step's, as calm reads it
  } else {
    for (SelfContact& c : sc.selfContacts) c.touched = false;
  }
  const bool self = sc.selfSearched && world.params.self_collision != 0;
  const std::size_t foldChunks = self ? beginFoldLimits(world) : 0;
  const std::size_t hashJobs = self && search ? 1 : 0;
  timing.selfCollision += msSince(t);
  t = Clock::now();
  double hashMs = 0.0;
  generateContacts(world, t0, h, hashJobs + foldChunks, [&](std::size_t k) {
    if (k >= hashJobs) return chooseFoldLimitsOf(world, k - hashJobs);
    const auto start = Clock::now();
    buildSelfHash(world);
    hashMs = msSince(start);
  });
  timing.collisions += std::max(0.0, msSince(t) - hashMs);
  t = Clock::now();
  if (self) {
    if (search) {
      swapAhead(world, span);
      findSelfContacts(world);
      swapAhead(world, span);
      ++world.stats.selfSearches;
    }
    world.stats.selfContacts += sc.selfContacts.size();
    joinFoldLimits(world);
  } else {
    sc.foldLimits.active.clear();
  }
  timing.selfCollision += msSince(t) + hashMs;
}

void solveContacts(const Points& pts, const glm::vec3* x, Contact* contacts, std::size_t count,
                   float friction) {
  for (std::size_t j = 0; j < count; ++j) {
    Contact& c = contacts[j];
    glm::vec3& p = pts.p(c.vertex);  // relative to pts.origin; c.q and x in the world
    const float C = glm::dot(p + pts.origin - c.q, c.n);
    if (C >= 0.0f) continue;
    p -= C * c.n;
    c.touched = true;
    p -= frictionCorrection((p + pts.origin - x[c.vertex]) - c.surfaceShift, c.n, friction * -C);
  }
}

void solveFeatureContacts(const Points& pts, const glm::vec3* x, const FeatureContact* contacts,
                          std::size_t count, float friction) {
  for (std::size_t j = 0; j < count; ++j) {
    const FeatureContact& c = contacts[j];
    const glm::vec3 p[3] = {pts.world(c.v[0]), pts.world(c.v[1]), pts.world(c.v[2])};
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
    move -= frictionCorrection(slip, c.n, friction * depth);
    // A point beside a pinned vertex would lever the free one far (by
    // 1/weight): no vertex moves more than kMaxLever times the point.
    constexpr float kMaxLever = 2.0f;
    for (int i = 0; i < 3; ++i) pts.p(c.v[i]) += std::min(share[i] / denom, kMaxLever) * move;
  }
}

}  // namespace drape::sim
