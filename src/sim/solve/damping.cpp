#include "sim/solve/damping.hpp"

#include <algorithm>
#include <cmath>

#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

// Vertices per chunk of the damping sums, and the most pieces for which
// they are split in chunks. Small enough for many chunks a cloth: in a few
// large ones, a thread that comes late to a pass leaves the others a chunk
// more than their share.
constexpr std::size_t kDampChunk = 1024;
constexpr std::size_t kDampMaxPiecesChunked = 64;

}  // namespace

void dampVelocities(State& s, const Cloth& cloth, float kDamping, ThreadTeam& team,
                    DampingScratch& sc) {
  if (kDamping <= 0.0f) return;
  const std::size_t pieces = cloth.pieceCount;
  const std::size_t n = s.x.size();
  // The sums in chunks of vertices on the solver's threads, added in chunk
  // order: the same on any thread count. Fixed chunks, but one chunk for a
  // cloth torn into many pieces (each chunk keeps a sum per piece).
  const std::size_t chunks = pieces <= kDampMaxPiecesChunked
                                 ? std::max<std::size_t>(1, (n + kDampChunk - 1) / kDampChunk)
                                 : 1;
  const std::size_t perChunk = (n + chunks - 1) / chunks;
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
      PieceSums* sums = &sc.sums[c * pieces];
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
  zero(sc.sums, chunks * pieces, PieceSums{});
  zero(sc.pieceX, pieces, glm::dvec3(0.0));
  zero(sc.pieceV, pieces, glm::dvec3(0.0));
  zero(sc.pieceOmega, pieces, glm::dvec3(0.0));
  // Piece k's sums so far, its chunks added in order.
  auto total = [&](std::size_t k) {
    PieceSums sum;
    for (std::size_t c = 0; c < chunks; ++c) sum += sc.sums[c * pieces + k];
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

}  // namespace drape::sim
