#include "sim/cloth.hpp"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <unordered_map>

#include "sim/constraints.hpp"
#include "sim/material.hpp"

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
}

std::uint64_t nextVersion() {
  static std::atomic<std::uint64_t> last{0};
  return ++last;
}

float Cloth::meanRestEdge() const {
  if (meanEdgeTopology_ != topologyVersion || meanEdgeCount_ != stretch.size()) {
    double sum = 0.0;
    for (const StretchConstraint& e : stretch) sum += double(e.rest);
    meanEdge_ = stretch.empty() ? 0.0f : float(sum / double(stretch.size()));
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

  cloth.closed = allInterior && prepared.report.closed;
  cloth.restSixVolume = sixVolume(x, cloth.triangles);
  cloth.pressureActive = cloth.closed && prepared.report.orientable && cloth.restSixVolume > 0.0f;

  computePieces(cloth);
  return cloth;
}

void computePieces(Cloth& cloth) {
  // Union-find over the edges; the smaller root wins, so labels follow vertex order.
  const std::size_t n = cloth.vertexCount();
  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  for (const StretchConstraint& e : cloth.stretch) {
    const std::uint32_t ra = findRoot(parent, e.a), rb = findRoot(parent, e.b);
    if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
  }
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
