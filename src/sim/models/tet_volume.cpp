#include "sim/models/tet_volume.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "sim/constraints.hpp"

namespace drape::sim {
namespace {

constexpr int kMaxClusters = 8;
constexpr int kLloydPasses = 10;
// An interior point must stand this fraction of the piece's radius behind a
// triangle: flatter tetrahedra barely constrain the triangle's distance.
constexpr float kMinHeight = 0.01f;

std::uint64_t directedKey(std::uint32_t a, std::uint32_t b) {
  return (std::uint64_t(a) << 32) | b;
}

// A candidate interior point: the mass-weighted centroid of `members`.
struct Candidate {
  std::vector<std::uint32_t> members;
  glm::vec3 pos{0.0f};
};

Candidate makeCandidate(const Cloth& cloth, std::vector<std::uint32_t> members) {
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  Candidate c;
  double mass = 0.0;
  glm::dvec3 sum(0.0);
  for (std::uint32_t v : members) {
    mass += double(cloth.mass[v]);
    sum += double(cloth.mass[v]) * glm::dvec3(cloth.restPositions[v]);
  }
  c.pos = mass > 0.0 ? glm::vec3(sum / mass) : glm::vec3(0.0f);
  c.members = std::move(members);
  return c;
}

float restSixVolume(const Cloth& cloth, const glm::uvec3& t, const glm::vec3& centre) {
  const std::vector<glm::vec3>& x = cloth.restPositions;
  return evalTetVolume(x[t[0]], x[t[1]], x[t[2]], centre, 0.0f).C;
}

// Per triangle of `tris`, the nearest candidate standing at least minHeight
// behind it, or −1. Returns how many triangles have none.
std::size_t assign(const Cloth& cloth, const std::vector<std::uint32_t>& tris,
                   const std::vector<Candidate>& candidates, float minHeight,
                   std::vector<int>& choice) {
  const std::vector<glm::vec3>& x = cloth.restPositions;
  choice.assign(tris.size(), -1);
  std::size_t missing = 0;
  for (std::size_t i = 0; i < tris.size(); ++i) {
    const glm::uvec3& t = cloth.triangles[tris[i]];
    const float twiceArea = glm::length(glm::cross(x[t[1]] - x[t[0]], x[t[2]] - x[t[0]]));
    const glm::vec3 mid = (x[t[0]] + x[t[1]] + x[t[2]]) / 3.0f;
    float best = std::numeric_limits<float>::infinity();
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      const float six = restSixVolume(cloth, t, candidates[c].pos);
      if (!(six >= minHeight * twiceArea) || !(six > 0.0f)) continue;
      const float d = glm::length(candidates[c].pos - mid);
      if (d < best) best = d, choice[i] = int(c);
    }
    if (choice[i] < 0) ++missing;
  }
  return missing;
}

// k-means of the triangles' centres, seeded deterministically by farthest
// points; each cluster's candidate is the centroid of its triangles' vertices.
void addClusters(const Cloth& cloth, const std::vector<std::uint32_t>& tris, int k,
                 const glm::vec3& centroid, std::vector<Candidate>& out) {
  const std::vector<glm::vec3>& x = cloth.restPositions;
  std::vector<glm::vec3> mid(tris.size());
  for (std::size_t i = 0; i < tris.size(); ++i) {
    const glm::uvec3& t = cloth.triangles[tris[i]];
    mid[i] = (x[t[0]] + x[t[1]] + x[t[2]]) / 3.0f;
  }
  std::vector<glm::vec3> seeds;
  std::vector<float> nearest(mid.size(), std::numeric_limits<float>::infinity());
  glm::vec3 from = centroid;
  for (int s = 0; s < k; ++s) {
    std::size_t far = 0;
    float farD = -1.0f;
    for (std::size_t i = 0; i < mid.size(); ++i) {
      const float d = glm::length(mid[i] - from);
      if (s > 0) nearest[i] = std::min(nearest[i], d);
      const float key = s > 0 ? nearest[i] : d;
      if (key > farD) farD = key, far = i;
    }
    seeds.push_back(mid[far]);
    from = mid[far];
    for (std::size_t i = 0; i < mid.size(); ++i)
      nearest[i] = std::min(nearest[i], glm::length(mid[i] - from));
  }
  std::vector<int> label(mid.size(), 0);
  for (int pass = 0; pass < kLloydPasses; ++pass) {
    for (std::size_t i = 0; i < mid.size(); ++i) {
      float best = std::numeric_limits<float>::infinity();
      for (int s = 0; s < k; ++s) {
        const float d = glm::length(mid[i] - seeds[std::size_t(s)]);
        if (d < best) best = d, label[i] = s;
      }
    }
    std::vector<glm::dvec3> sum(std::size_t(k), glm::dvec3(0.0));
    std::vector<std::size_t> count(std::size_t(k), 0);
    for (std::size_t i = 0; i < mid.size(); ++i) {
      sum[std::size_t(label[i])] += glm::dvec3(mid[i]);
      ++count[std::size_t(label[i])];
    }
    for (int s = 0; s < k; ++s)
      if (count[std::size_t(s)] > 0)
        seeds[std::size_t(s)] = glm::vec3(sum[std::size_t(s)] / double(count[std::size_t(s)]));
  }
  for (int s = 0; s < k; ++s) {
    std::vector<std::uint32_t> members;
    for (std::size_t i = 0; i < mid.size(); ++i)
      if (label[i] == s)
        for (int j = 0; j < 3; ++j) members.push_back(cloth.triangles[tris[i]][j]);
    if (!members.empty()) out.push_back(makeCandidate(cloth, std::move(members)));
  }
}

}  // namespace

TetVolumes buildTetVolumes(const Cloth& cloth) {
  TetVolumes out;
  out.version = cloth.topologyVersion;
  if (!cloth.pressureActive) return out;

  // A piece is closed and consistently oriented when each of its directed
  // edges appears once and its reverse once.
  std::unordered_map<std::uint64_t, std::uint32_t> directed;
  directed.reserve(cloth.triangles.size() * 3);
  for (const glm::uvec3& t : cloth.triangles)
    for (int k = 0; k < 3; ++k) ++directed[directedKey(t[k], t[(k + 1) % 3])];
  std::vector<std::vector<std::uint32_t>> pieceTris(cloth.pieceCount);
  std::vector<bool> closed(cloth.pieceCount, true);
  for (std::uint32_t i = 0; i < cloth.triangles.size(); ++i) {
    const glm::uvec3& t = cloth.triangles[i];
    const std::uint32_t piece = cloth.piece[t[0]];
    pieceTris[piece].push_back(i);
    for (int k = 0; k < 3; ++k) {
      const auto fwd = directed.find(directedKey(t[k], t[(k + 1) % 3]));
      const auto back = directed.find(directedKey(t[(k + 1) % 3], t[k]));
      if (fwd->second != 1 || back == directed.end() || back->second != 1) closed[piece] = false;
    }
  }

  std::vector<int> choice, bestChoice;
  for (std::uint32_t piece = 0; piece < cloth.pieceCount; ++piece) {
    const std::vector<std::uint32_t>& tris = pieceTris[piece];
    if (!closed[piece] || tris.empty()) continue;
    std::vector<std::uint32_t> all;
    for (std::uint32_t t : tris)
      for (int j = 0; j < 3; ++j) all.push_back(cloth.triangles[t][j]);
    std::vector<Candidate> candidates;
    candidates.push_back(makeCandidate(cloth, std::move(all)));
    const glm::vec3 centroid = candidates[0].pos;
    float radius = 0.0f;
    for (std::uint32_t v : candidates[0].members)
      radius = std::max(radius, glm::length(cloth.restPositions[v] - centroid));
    // Orientation: outward triangles enclose a positive volume.
    double six = 0.0;
    for (std::uint32_t t : tris) six += double(restSixVolume(cloth, cloth.triangles[t], centroid));
    if (!(six > 0.0)) continue;

    const float minHeight = kMinHeight * radius;
    std::size_t fewest = assign(cloth, tris, candidates, minHeight, bestChoice);
    std::vector<Candidate> best = candidates;
    for (int k = 2; k <= kMaxClusters && fewest > 0; ++k) {
      std::vector<Candidate> more(1, candidates[0]);
      addClusters(cloth, tris, k, centroid, more);
      const std::size_t missing = assign(cloth, tris, more, minHeight, choice);
      if (missing < fewest) fewest = missing, bestChoice = choice, best = std::move(more);
    }
    out.skipped += fewest;

    // The candidates in use become centres, in candidate order.
    std::vector<std::uint32_t> centreOf(best.size(), UINT32_MAX);
    for (int c : bestChoice)
      if (c >= 0) centreOf[std::size_t(c)] = 0;
    for (std::size_t c = 0; c < best.size(); ++c) {
      if (centreOf[c] == UINT32_MAX) continue;
      centreOf[c] = std::uint32_t(out.centres.size());
      TetCentre centre{std::uint32_t(out.members.size()), 0, 0.0f};
      for (std::uint32_t v : best[c].members) centre.mass += cloth.mass[v];
      for (std::uint32_t v : best[c].members) {
        out.members.push_back(v);
        out.weight.push_back(centre.mass > 0.0f ? cloth.mass[v] / centre.mass : 0.0f);
      }
      centre.end = std::uint32_t(out.members.size());
      out.centres.push_back(centre);
    }
    for (std::size_t i = 0; i < tris.size(); ++i) {
      if (bestChoice[i] < 0) continue;
      const glm::uvec3& t = cloth.triangles[tris[i]];
      const std::size_t c = std::size_t(bestChoice[i]);
      out.tets.push_back({{t[0], t[1], t[2]}, centreOf[c], restSixVolume(cloth, t, best[c].pos)});
    }
  }
  return out;
}

void solveTetVolumes(State& s, TetVolumes& tv, float kPressure) {
  const std::size_t centres = tv.centres.size();
  tv.centrePos.resize(centres);
  tv.freeMass.resize(centres);
  tv.shift.assign(centres, glm::vec3(0.0f));
  // The interior points where this pass finds the members; held for the pass.
  for (std::size_t c = 0; c < centres; ++c) {
    const TetCentre& ct = tv.centres[c];
    glm::dvec3 pos(0.0);
    double free = 0.0;
    for (std::uint32_t j = ct.begin; j < ct.end; ++j) {
      const std::uint32_t v = tv.members[j];
      pos += double(tv.weight[j]) * glm::dvec3(s.p[v]);
      if (s.w[v] > 0.0f) free += 1.0 / double(s.w[v]);
    }
    tv.centrePos[c] = pos;
    tv.freeMass[c] = free;
  }
  for (const VolumeTet& t : tv.tets) {
    const TetCentre& ct = tv.centres[t.centre];
    if (!(ct.mass > 0.0f)) continue;
    const glm::vec3 c(tv.centrePos[t.centre]);
    const ConstraintEval<4, float> e =
        evalTetVolume(s.p[t.v[0]], s.p[t.v[1]], s.p[t.v[2]], c, kPressure * t.restSixVolume);
    // Σ w |∇C|²: the three surface vertices, and the centroid as a particle
    // of inverse mass M_free / M² (the sum of w_j (m_j/M)² over its members).
    const float invM = 1.0f / ct.mass;
    float denom = float(tv.freeMass[t.centre]) * invM * invM * glm::dot(e.grad[3], e.grad[3]);
    for (int k = 0; k < 3; ++k) denom += s.w[t.v[k]] * glm::dot(e.grad[k], e.grad[k]);
    if (!(denom > 1e-20f)) continue;
    const float scale = e.C / denom;
    for (int k = 0; k < 3; ++k) s.p[t.v[k]] -= (scale * s.w[t.v[k]]) * e.grad[k];
    tv.shift[t.centre] -= (scale * invM) * e.grad[3];
  }
  // The centroids' share: the same translation of every free member.
  for (std::size_t c = 0; c < centres; ++c) {
    const TetCentre& ct = tv.centres[c];
    for (std::uint32_t j = ct.begin; j < ct.end; ++j)
      if (s.w[tv.members[j]] > 0.0f) s.p[tv.members[j]] += tv.shift[c];
  }
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

void solveBalloon(State& s, const Cloth& cloth, const Params& params, TetVolumes& tets,
                  std::vector<glm::vec3>& grad) {
  if (params.balloon_model != BalloonModel::Tets) {
    solvePressure(s, cloth, params.k_pressure, grad);
    return;
  }
  assert(tets.version == cloth.topologyVersion);
  solveTetVolumes(s, tets, params.k_pressure);
}

}  // namespace drape::sim
