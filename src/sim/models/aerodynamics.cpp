#include "sim/models/aerodynamics.hpp"

#include <algorithm>
#include <cmath>

#include "sim/cloth.hpp"
#include "sim/params.hpp"
#include "sim/state.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {

namespace {

// triangleAeroForce with the normal and the speed folded in: with c the
// cross product, u the air's velocity past the triangle, vc = u·c and
// r = 1 / (|c| |u|),
//   f = ρ/4 · r · vc · ((drag + lift) |u|² c − lift · vc · u),
// one division where the plain form takes four.
inline glm::vec3 aeroForce(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                           const glm::vec3& u, float drag, float lift) {
  const glm::vec3 cross = glm::cross(b - a, c - a);
  const float cc = glm::dot(cross, cross), uu = glm::dot(u, u);
  if (!(cc > 1e-24f) || !(uu > 1e-18f)) return glm::vec3(0.0f);
  const float vc = glm::dot(u, cross);
  const float s = (0.25f * kAirDensity) * vc / (std::sqrt(cc) * std::sqrt(uu));
  return ((s * (drag + lift)) * uu) * cross - ((s * lift) * vc) * u;
}

}  // namespace

glm::vec3 triangleAeroForce(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                            const glm::vec3& velocity, const glm::vec3& wind, float drag,
                            float lift) {
  return aeroForce(a, b, c, wind - velocity, drag, lift);
}

void applyAerodynamics(const Cloth& cloth, const Params& prm, State& s, float h, ThreadTeam& team,
                       AirScratch& air) {
  if (prm.drag == 0.0f && prm.lift == 0.0f) return;
  const std::size_t n = s.x.size(), count = cloth.triangles.size();
  if (air.topology != cloth.topologyVersion || air.start.size() != n + 1) {
    air.start.assign(n + 1, 0);
    for (const glm::uvec3& t : cloth.triangles)
      for (int k = 0; k < 3; ++k) ++air.start[t[k] + 1];
    for (std::size_t i = 0; i < n; ++i) air.start[i + 1] += air.start[i];
    air.triangles.resize(air.start[n]);
    std::vector<std::uint32_t> fill(air.start.begin(), air.start.end() - 1);
    for (std::uint32_t t = 0; t < count; ++t)
      for (int k = 0; k < 3; ++k) air.triangles[fill[cloth.triangles[t][k]]++] = t;
    air.topology = cloth.topologyVersion;
    air.density = -1.0f;
  }
  if (air.density != prm.density) {
    // Each vertex's mass is a third of its triangles' (computeMasses), so a
    // vertex's change of velocity is its triangles' changes, mass-weighted.
    air.invMass.resize(count);
    for (std::uint32_t t = 0; t < count; ++t) {
      const glm::uvec3& tri = cloth.triangles[t];
      const glm::vec3& a = cloth.restPositions[tri[0]];
      const float m =
          0.5f * prm.density *
          glm::length(glm::cross(cloth.restPositions[tri[1]] - a, cloth.restPositions[tri[2]] - a));
      air.invMass[t] = m > 0.0f ? 1.0f / m : 0.0f;
    }
    air.density = prm.density;
  }
  air.share.resize(count);
  constexpr std::size_t kChunk = 4096;
  forEachChunk(team, (count + kChunk - 1) / kChunk, [&](std::size_t c, int) {
    for (std::size_t j = c * kChunk; j < std::min(count, (c + 1) * kChunk); ++j) {
      const glm::uvec3& t = cloth.triangles[j];
      const glm::vec3 mean = (s.v[t[0]] + s.v[t[1]] + s.v[t[2]]) / 3.0f;
      // An explicit step may not make the air past the triangle faster:
      // |u − d| ≤ |u| for the change d of its mean velocity (so in still air
      // the air only takes energy, however stretched the triangle is).
      const glm::vec3 u = prm.wind - mean;
      glm::vec3 f = aeroForce(s.x[t[0]], s.x[t[1]], s.x[t[2]], u, prm.drag, prm.lift);
      const glm::vec3 d = (h * air.invMass[j]) * f;
      const float dd = glm::dot(d, d), ud = glm::dot(u, d);
      if (dd > 2.0f * ud) f *= ud > 0.0f ? 2.0f * ud / dd : 0.0f;
      air.share[j] = f / 3.0f;
    }
  });
  forEachChunk(team, (n + kChunk - 1) / kChunk, [&](std::size_t c, int) {
    for (std::size_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) {
      if (s.w[i] == 0.0f) continue;
      glm::vec3 force(0.0f);
      for (std::uint32_t k = air.start[i]; k < air.start[i + 1]; ++k)
        force += air.share[air.triangles[k]];
      glm::vec3 dv = (h * s.w[i]) * force;
      // Nor the air past the vertex, along it: where the triangles' mean
      // differs from the vertex (a cloth torn or stretched apart) the
      // vertex neither flies into the air nor turns back past it.
      const glm::vec3 u = prm.wind - s.v[i];
      const float uu = glm::dot(u, u), along = glm::dot(dv, u);
      if (along < 0.0f || along > uu)
        dv -= (uu > 0.0f ? (along - std::clamp(along, 0.0f, uu)) / uu : 0.0f) * u;
      s.v[i] += dv;
    }
  });
}

}  // namespace drape::sim
