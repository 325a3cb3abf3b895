#include "sim/solve/fold_limits.hpp"
#include "sim/tuning.hpp"

#include <algorithm>
#include <cmath>

#include "sim/constraints.hpp"
#include "sim/solve/capped_projection.hpp"
#include "sim/solve/coefficients.hpp"

namespace drape::sim {
namespace {

// Hinges per chunk of the parallel choice.
constexpr std::size_t kHingesPerChunk = 2048;

std::size_t chunksOf(const Cloth& cloth) {
  return (cloth.bend.size() + kHingesPerChunk - 1) / kHingesPerChunk;
}

}  // namespace

float foldLimit(float thickness, float altitude) {
  const float pi = 3.14159265358979f;
  const float ratio = altitude > 0.0f ? std::min(1.0f, thickness / altitude) : 1.0f;
  return std::max(tuning::kFoldLimitFloor, pi - std::asin(std::max(0.0f, ratio)));
}

std::vector<float> hingeAltitudes(const Cloth& cloth) {
  std::vector<float> out(cloth.bend.size(), 0.0f);
  const std::vector<glm::vec3>& r = cloth.restPositions;
  for (std::size_t j = 0; j < cloth.bend.size(); ++j) {
    const BendConstraint& b = cloth.bend[j];
    const glm::vec3 e = r[b.v[3]] - r[b.v[2]];
    const float length = glm::length(e);
    if (!(length > 0.0f)) continue;
    const float a0 = glm::length(glm::cross(r[b.v[0]] - r[b.v[2]], e)) / length;
    const float a1 = glm::length(glm::cross(r[b.v[1]] - r[b.v[2]], e)) / length;
    out[j] = std::min(a0, a1);
  }
  return out;
}

std::size_t beginFoldLimits(FoldLimits& fl, const Cloth& cloth, float thickness) {
  fl.active.clear();
  const std::size_t count = cloth.bend.size();
  if (count == 0) return 0;
  if (fl.topology != cloth.topologyVersion || fl.thickness != thickness ||
      fl.bound.size() != count) {
    const std::vector<float> altitude = hingeAltitudes(cloth);
    fl.bound.resize(count);
    fl.cosWithin.resize(count);
    for (std::size_t j = 0; j < count; ++j) {
      fl.bound[j] = foldLimit(thickness, altitude[j]);
      fl.cosWithin[j] = std::cos(fl.bound[j] - tuning::kFoldLimitWindow);  // ≤ 0: the bound ≥ 120°
    }
    fl.topology = cloth.topologyVersion;
    fl.thickness = thickness;
  }
  const std::size_t chunks = chunksOf(cloth);
  fl.chunkActive.resize(std::max(fl.chunkActive.size(), chunks));
  return chunks;
}

void chooseFoldLimitsOf(FoldLimits& fl, const FoldInput& in, std::size_t c) {
  const Cloth& cloth = in.cloth;
  const std::vector<glm::vec3>& x = in.x;
  // Each hinge on its own: the cosine of its angle from the normals' dot
  // product, without a root; the side from the angle itself, for the few
  // within the window. Not where the cloth is known to pass through itself:
  // there the hinges fold through the other layer, and opening them drags
  // it along; the untangling has the word (untangle.hpp).
  const std::vector<std::uint8_t>& crossing = in.crossingVertices;
  const bool regions = !in.region.empty();
  auto tangled = [&](std::uint32_t v) {
    return (!crossing.empty() && crossing[v]) || (regions && in.region[v] != 0);
  };
  std::vector<FoldLimit>& active = fl.chunkActive[c];
  active.clear();
  const std::uint32_t end = std::uint32_t(std::min(cloth.bend.size(), (c + 1) * kHingesPerChunk));
  for (std::uint32_t j = std::uint32_t(c * kHingesPerChunk); j < end; ++j) {
    const BendConstraint& b = cloth.bend[j];
    const glm::vec3 &x0 = x[b.v[0]], &x1 = x[b.v[1]];
    const glm::vec3 &x2 = x[b.v[2]], &x3 = x[b.v[3]];
    const glm::vec3 n1 = glm::cross(x2 - x0, x3 - x0);
    const glm::vec3 n2 = glm::cross(x3 - x1, x2 - x1);
    const float d = glm::dot(n1, n2), within = fl.cosWithin[j];
    if (d > 0.0f || d * d < within * within * glm::dot(n1, n1) * glm::dot(n2, n2)) continue;
    float theta = 0.0f;
    if (!dihedralAngle(x0, x1, x2, x3, theta)) continue;
    if (tangled(b.v[0]) || tangled(b.v[1]) || tangled(b.v[2]) || tangled(b.v[3])) continue;
    active.push_back({j, theta > 0.0f ? fl.bound[j] : -fl.bound[j]});
  }
}

void joinFoldLimits(FoldLimits& fl, const Cloth& cloth) {
  fl.active.clear();
  for (std::size_t c = 0; c < chunksOf(cloth); ++c)
    fl.active.insert(fl.active.end(), fl.chunkActive[c].begin(), fl.chunkActive[c].end());
}

void solveFoldLimits(const Points& pts, const Cloth& cloth, const FoldLimit* limits,
                     std::size_t count) {
  for (std::size_t k = 0; k < count; ++k) {
    const BendConstraint& b = cloth.bend[limits[k].hinge];
    const float bound = limits[k].bound;
    // C = θ − bound, wrapped: a hinge folded on past π reads as beyond the
    // bound on its own side, since the bound is within π of it.
    const ConstraintEval<4, float> e =
        evalDihedral(pts.p(b.v[0]), pts.p(b.v[1]), pts.p(b.v[2]), pts.p(b.v[3]), bound);
    if (!e.valid || (bound > 0.0f ? e.C <= 0.0f : e.C >= 0.0f)) continue;
    projectCapped(pts, b.v, e, 1.0f, tuning::kMaxBendMove * b.restLength);
  }
}

}  // namespace drape::sim
