#include "sim/cloth.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "sim/constraints.hpp"
#include "sim/material.hpp"
#include "sim/tuning.hpp"

namespace drape::sim {
namespace {

std::uint64_t edgeKey(std::uint32_t a, std::uint32_t b) {
  if (a > b) std::swap(a, b);
  return (std::uint64_t(a) << 32) | b;
}

std::uint32_t findRoot(std::vector<std::uint32_t>& parent, std::uint32_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

}  // namespace

void computeMasses(Cloth& cloth, float density) {
  cloth.mass.assign(cloth.restPositions.size(), 0.0f);
  for (const glm::uvec3& t : cloth.triangles) {
    const glm::vec3& a = cloth.restPositions[t[0]];
    const float area = 0.5f * glm::length(glm::cross(cloth.restPositions[t[1]] - a,
                                                     cloth.restPositions[t[2]] - a));
    for (int k = 0; k < 3; ++k) cloth.mass[t[k]] += density * area / 3.0f;
  }
  // A rope's segment: half its strip's mass to each end.
  for (const RopeSegment& s : cloth.ropeSegments) {
    const float half = 0.5f * density * tuning::kRopeWidth * s.rest;
    cloth.mass[s.a] += half;
    cloth.mass[s.b] += half;
  }
}

std::uint64_t nextVersion() {
  static std::atomic<std::uint64_t> last{0};
  return ++last;
}

float Cloth::meanRestEdge() const {
  if (meanEdgeTopology_ != topologyVersion || meanEdgeCount_ != stretch.size()) {
    double sum = 0.0;
    for (const StretchConstraint& e : stretch) sum += double(e.rest);
    for (const RopeSegment& s : ropeSegments) sum += double(s.rest);
    const std::size_t count = stretch.size() + ropeSegments.size();
    meanEdge_ = count == 0 ? 0.0f : float(sum / double(count));
    meanEdgeTopology_ = topologyVersion;
    meanEdgeCount_ = stretch.size();
  }
  return meanEdge_;
}

double Cloth::bendingRate() const {
  if (bendingRateTopology_ != topologyVersion || bendingRateCount_ != bend.size()) {
    bendingRate_ = 0.0;
    const std::vector<glm::vec3>& x = restPositions;
    for (const BendConstraint& b : bend) {
      const double compliance = hingeCompliance(b.restLength, b.restArea);
      if (!(compliance > 0.0)) continue;
      // |∇θ| at the wings' tips is 1/altitude; the edge's ends take as much
      // between them.
      const glm::dvec3 e = glm::dvec3(x[b.v[3]] - x[b.v[2]]);
      const double l = glm::length(e);
      double sum = 0.0;
      for (int k = 0; k < 2; ++k) {
        const double altitude =
            glm::length(glm::cross(glm::dvec3(x[b.v[k]] - x[b.v[2]]), e)) / std::max(l, 1e-30);
        const double grad2 = 1.0 / std::max(altitude * altitude, 1e-30);
        sum += grad2 / std::max(double(mass[b.v[k]]), 1e-30);
        sum += grad2 / std::max(double(mass[b.v[2 + k]]), 1e-30);
      }
      bendingRate_ = std::max(bendingRate_, sum / compliance);
    }
    bendingRateTopology_ = topologyVersion;
    bendingRateCount_ = bend.size();
  }
  return bendingRate_;
}

Cloth buildCloth(const PreparedMesh& prepared, float density) {
  Cloth cloth;
  cloth.topologyVersion = nextVersion();
  cloth.triangles = prepared.mesh.triangles;
  cloth.cornerUVs = prepared.mesh.cornerUVs;
  cloth.restPositions = prepared.mesh.positions;
  cloth.report = prepared.report;
  cloth.inputToVertex = prepared.inputToVertex;
  const std::vector<glm::vec3>& x = cloth.restPositions;
  computeMasses(cloth, density);

  // Edges in order of first appearance; for each, the triangle that runs it
  // a→b (opposite vertex o0) and the one that runs it b→a (opposite o1).
  struct EdgeInfo {
    std::uint32_t a, b;
    std::int64_t o0 = -1, o1 = -1;
  };
  std::vector<EdgeInfo> edges;
  std::unordered_map<std::uint64_t, std::uint32_t> index;
  index.reserve(cloth.triangles.size() * 2);
  for (const glm::uvec3& t : cloth.triangles)
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = t[k], b = t[(k + 1) % 3], o = t[(k + 2) % 3];
      auto [it, fresh] = index.emplace(edgeKey(a, b), std::uint32_t(edges.size()));
      if (fresh) edges.push_back({a, b});
      EdgeInfo& e = edges[it->second];
      if (e.a == a && e.o0 < 0)
        e.o0 = o;
      else
        e.o1 = o;
    }

  cloth.stretch.reserve(edges.size());
  bool allInterior = true;
  auto triangleArea = [&](std::int64_t o, std::uint32_t a, std::uint32_t b) {
    if (o < 0) return 0.0f;
    const glm::vec3& p = x[std::size_t(o)];
    return 0.5f * glm::length(glm::cross(x[a] - p, x[b] - p));
  };
  for (const EdgeInfo& e : edges) {
    const float third = (triangleArea(e.o0, e.a, e.b) + triangleArea(e.o1, e.a, e.b)) / 3.0f;
    cloth.stretch.push_back({e.a, e.b, glm::length(x[e.a] - x[e.b]), 1.0f, third});
    if (e.o0 < 0 || e.o1 < 0) {
      allInterior = false;
      continue;
    }
    // Triangle 1 = (o0, a, b): x0 = o0, x2 = a, x3 = b; triangle 2 runs b→a: x1 = o1.
    const float hinge = glm::length(x[e.a] - x[e.b]);
    const glm::vec3 &x0 = x[std::size_t(e.o0)], &x1 = x[std::size_t(e.o1)];
    const float area = glm::length(glm::cross(x[e.a] - x0, x[e.b] - x0)) +
                       glm::length(glm::cross(x[e.b] - x1, x[e.a] - x1));
    BendConstraint bc{{std::uint32_t(e.o0), std::uint32_t(e.o1), e.a, e.b}, 0.0f, hinge, area};
    float theta = 0.0f;
    if (!dihedralAngle(x[bc.v[0]], x[bc.v[1]], x[bc.v[2]], x[bc.v[3]], theta)) continue;
    bc.restAngle = theta;
    cloth.bend.push_back(bc);

    const IsometricQ<float> q = isometricQ(x[bc.v[0]], x[bc.v[1]], x[bc.v[2]], x[bc.v[3]]);
    if (q.valid) {
      IsoBendConstraint ib{};
      for (int i = 0; i < 4; ++i) ib.v[i] = bc.v[i];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) ib.q[i][j] = q.q[i][j];
      // C = E − E0 holds |Σ K_i x_i| at its rest value, so a flat stencil
      // must have E0 = 0 exactly: E0 from rounding would hold a flat cloth
      // bent by that much, either way, and buckle it. Flat: the
      // stencil's points off its plane by under 1e-4 of the hinge, in double
      // (E = ½ s |Σ K_i x_i|², Q = s K Kᵀ, so E ≤ ½ trace(Q) d² for an offset d).
      const glm::dvec3 xd[4] = {glm::dvec3(x[bc.v[0]]), glm::dvec3(x[bc.v[1]]),
                                glm::dvec3(x[bc.v[2]]), glm::dvec3(x[bc.v[3]])};
      const IsometricQ<double> qd = isometricQ(xd[0], xd[1], xd[2], xd[3]);
      const double e0 = isometricValue(xd, qd.q);
      const double d = 1e-4 * double(hinge);
      const double trace = qd.q[0][0] + qd.q[1][1] + qd.q[2][2] + qd.q[3][3];
      ib.rest = e0 <= 0.5 * trace * d * d ? 0.0f : float(e0);
      ib.restLength = hinge;
      cloth.isoBend.push_back(ib);
    }
  }

  for (const glm::uvec2& s : prepared.mesh.seams)
    cloth.seams.push_back({s[0], s[1], glm::length(x[s[0]] - x[s[1]])});

  cloth.closed = allInterior && prepared.report.closed;
  cloth.restSixVolume = sixVolume(x, cloth.triangles);
  cloth.pressureActive = cloth.closed && prepared.report.orientable && cloth.restSixVolume > 0.0f;

  // The strands as ropes, their vertices after the mesh's.
  std::vector<std::vector<std::uint32_t>> lines;
  for (std::size_t j = 0; j < prepared.strands.size(); ++j) {
    std::vector<std::uint32_t>& line = lines.emplace_back();
    for (std::size_t k = 0; k < prepared.strands[j].size(); ++k) {
      const auto v = std::uint32_t(cloth.restPositions.size());
      cloth.restPositions.push_back(prepared.strands[j][k]);
      line.push_back(v);
      const std::uint32_t input =
          j < prepared.strandInputs.size() && k < prepared.strandInputs[j].size()
              ? prepared.strandInputs[j][k]
              : UINT32_MAX;
      if (input < cloth.inputToVertex.size()) cloth.inputToVertex[input] = v;
    }
  }
  if (!lines.empty()) addRopes(cloth, lines, density);

  computePieces(cloth);
  return cloth;
}

void addRopes(Cloth& cloth, const std::vector<std::vector<std::uint32_t>>& polylines,
              float density) {
  const std::vector<glm::vec3>& x = cloth.restPositions;
  for (const std::vector<std::uint32_t>& line : polylines) {
    if (line.size() < 2) continue;
    Rope rope{};
    rope.segmentBegin = std::uint32_t(cloth.ropeSegments.size());
    rope.turnBegin = std::uint32_t(cloth.ropeTurns.size());
    for (std::size_t k = 0; k + 1 < line.size(); ++k)
      cloth.ropeSegments.push_back(
          {line[k], line[k + 1], glm::length(x[line[k + 1]] - x[line[k]])});
    for (std::size_t k = 1; k + 1 < line.size(); ++k) {
      const RopeSegment* s = cloth.ropeSegments.data() + rope.segmentBegin + k - 1;
      const glm::vec3 e1 = x[line[k]] - x[line[k - 1]], e2 = x[line[k + 1]] - x[line[k]];
      const float angle = std::atan2(glm::length(glm::cross(e1, e2)), glm::dot(e1, e2));
      cloth.ropeTurns.push_back(
          {{line[k - 1], line[k], line[k + 1]}, angle, 0.5f * (s[0].rest + s[1].rest)});
    }
    rope.segmentEnd = std::uint32_t(cloth.ropeSegments.size());
    rope.turnEnd = std::uint32_t(cloth.ropeTurns.size());
    cloth.ropes.push_back(rope);
  }
  computeMasses(cloth, density);
  computePieces(cloth);
  cloth.topologyVersion = nextVersion();
}

bool cutRopeSegment(Cloth& cloth, std::uint32_t segment) {
  if (segment >= cloth.ropeSegments.size()) return false;
  std::vector<RopeSegment> segments;
  std::vector<RopeTurn> turns;
  std::vector<Rope> ropes;
  // Segments [b, e) of `r` (local indices) as a rope of their own, with the
  // turns between them.
  auto keep = [&](const Rope& r, std::uint32_t b, std::uint32_t e) {
    if (e <= b) return;
    Rope part{};
    part.segmentBegin = std::uint32_t(segments.size());
    part.turnBegin = std::uint32_t(turns.size());
    segments.insert(segments.end(), cloth.ropeSegments.begin() + r.segmentBegin + b,
                    cloth.ropeSegments.begin() + r.segmentBegin + e);
    // Turn j lies between segments j and j + 1.
    turns.insert(turns.end(), cloth.ropeTurns.begin() + r.turnBegin + b,
                 cloth.ropeTurns.begin() + r.turnBegin + (e - 1));
    part.segmentEnd = std::uint32_t(segments.size());
    part.turnEnd = std::uint32_t(turns.size());
    ropes.push_back(part);
  };
  for (const Rope& r : cloth.ropes) {
    const std::uint32_t n = r.segmentEnd - r.segmentBegin;
    if (segment < r.segmentBegin || segment >= r.segmentEnd) {
      keep(r, 0, n);
      continue;
    }
    const std::uint32_t k = segment - r.segmentBegin;
    keep(r, 0, k);
    keep(r, k + 1, n);
  }
  cloth.ropeSegments = std::move(segments);
  cloth.ropeTurns = std::move(turns);
  cloth.ropes = std::move(ropes);
  computePieces(cloth);
  cloth.topologyVersion = nextVersion();
  return true;
}

void computePieces(Cloth& cloth) {
  // Union-find over the edges; the smaller root wins, so labels follow vertex order.
  const std::size_t n = cloth.vertexCount();
  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  auto join = [&](std::uint32_t a, std::uint32_t b) {
    const std::uint32_t ra = findRoot(parent, a), rb = findRoot(parent, b);
    if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
  };
  for (const StretchConstraint& e : cloth.stretch) join(e.a, e.b);
  for (const RopeSegment& s : cloth.ropeSegments) join(s.a, s.b);
  cloth.piece.assign(n, 0);
  cloth.pieceCount = 0;
  std::unordered_map<std::uint32_t, std::uint32_t> label;
  for (std::uint32_t i = 0; i < n; ++i) {
    auto [it, fresh] = label.emplace(findRoot(parent, i), cloth.pieceCount);
    if (fresh) ++cloth.pieceCount;
    cloth.piece[i] = it->second;
  }
}

}  // namespace drape::sim
