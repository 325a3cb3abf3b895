#include "sim/models/vertex_block_descent.hpp"
#include "sim/tuning.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "sim/constraints.hpp"
#include "sim/params.hpp"

namespace drape::sim {
namespace {

constexpr std::uint32_t kNone = UINT32_MAX;

// Each vertex's entries of a list of stencils (CSR): entry = stencil × 4 +
// the vertex's place, or the edge index where `places` is false.
template <std::size_t N, typename Vertices>
void incidence(std::size_t vertices, std::size_t count, Vertices&& of, bool places,
               std::vector<std::uint32_t>& start, std::vector<std::uint32_t>& out) {
  start.assign(vertices + 1, 0);
  for (std::size_t j = 0; j < count; ++j)
    for (std::size_t r = 0; r < N; ++r) ++start[of(j)[r] + 1];
  for (std::size_t v = 0; v < vertices; ++v) start[v + 1] += start[v];
  out.resize(start[vertices]);
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (std::size_t j = 0; j < count; ++j)
    for (std::size_t r = 0; r < N; ++r)
      out[fill[of(j)[r]]++] = places ? std::uint32_t(4 * j + r) : std::uint32_t(j);
}

// ½ k C² added to a vertex's block for its gradient g = ∇_i C (Gauss-Newton:
// the curvature of C itself left out, so that the block stays positive).
void addConstraint(VbdBlock& b, float k, float C, const glm::vec3& g) {
  b.force -= (k * C) * g;
  b.hessian += k * glm::outerProduct(g, g);
  b.energy += 0.5 * double(k) * double(C) * double(C);
}

}  // namespace

void buildVbdTopology(const Cloth& cloth, bool isometric, VbdTopology& t) {
  const std::size_t n = cloth.vertexCount();
  incidence<2>(
      n, cloth.stretch.size(),
      [&](std::size_t j) {
        return std::array<std::uint32_t, 2>{cloth.stretch[j].a, cloth.stretch[j].b};
      },
      false, t.edgeStart, t.edges);
  if (isometric)
    incidence<4>(
        n, cloth.isoBend.size(),
        [&](std::size_t j) -> const std::uint32_t(&)[4] { return cloth.isoBend[j].v; }, true,
        t.stencilStart, t.stencils);
  else
    incidence<4>(
        n, cloth.bend.size(),
        [&](std::size_t j) -> const std::uint32_t(&)[4] { return cloth.bend[j].v; }, true,
        t.stencilStart, t.stencils);

  // Greedy colouring in vertex order: a vertex takes the first colour that
  // no vertex sharing an edge or a stencil with it has taken.
  std::vector<std::uint32_t> colour(n, kNone), usedBy;
  std::uint32_t colours = 0;
  auto stencilVertex = [&](std::uint32_t entry, std::uint32_t r) {
    const std::uint32_t j = entry / 4;
    return isometric ? cloth.isoBend[j].v[r] : cloth.bend[j].v[r];
  };
  for (std::uint32_t v = 0; v < n; ++v) {
    auto mark = [&](std::uint32_t u) {
      if (colour[u] != kNone) usedBy[colour[u]] = v;
    };
    for (std::uint32_t k = t.edgeStart[v]; k < t.edgeStart[v + 1]; ++k) {
      const StretchConstraint& e = cloth.stretch[t.edges[k]];
      mark(e.a + e.b - v);
    }
    for (std::uint32_t k = t.stencilStart[v]; k < t.stencilStart[v + 1]; ++k)
      for (std::uint32_t r = 0; r < 4; ++r) mark(stencilVertex(t.stencils[k], r));
    std::uint32_t c = 0;
    while (c < colours && usedBy[c] == v) ++c;
    if (c == colours) {
      ++colours;
      usedBy.push_back(kNone);
    }
    colour[v] = c;
  }
  t.colourStart.assign(colours + 1, 0);
  for (std::uint32_t v = 0; v < n; ++v) ++t.colourStart[colour[v] + 1];
  for (std::uint32_t c = 0; c < colours; ++c) t.colourStart[c + 1] += t.colourStart[c];
  t.byColour.resize(n);
  std::vector<std::uint32_t> fill(t.colourStart.begin(), t.colourStart.end() - 1);
  for (std::uint32_t v = 0; v < n; ++v) t.byColour[fill[colour[v]]++] = v;
  t.version = cloth.topologyVersion;
  t.isometric = isometric;
}

float vbdStiffness(float k, float unit) {
  const float alpha = complianceFromStiffness(k, unit);
  return alpha > 1.0f / tuning::kVbdStiffest ? 1.0f / alpha : tuning::kVbdStiffest;
}

VbdBlock vbdBlock(const Cloth& cloth, const VbdTopology& t, const Points& pts,
                  const glm::vec4* target, const VbdStiffness& k, std::uint32_t i) {
  VbdBlock b;
  const glm::vec3 x = pts.p(i);
  const float inertia = 1.0f / (pts.invMass(i) * k.h * k.h);  // m / h²
  const glm::vec3 off = x - glm::vec3(target[i]);
  b.force = -inertia * off;
  b.hessian = glm::mat3(inertia);
  b.energy = 0.5 * double(inertia) * double(glm::dot(off, off));
  for (std::uint32_t e = t.edgeStart[i]; e < t.edgeStart[i + 1]; ++e) {
    const StretchConstraint& s = cloth.stretch[t.edges[e]];
    const float ks = vbdStiffness(std::min(1.0f, k.kStretch * s.stiffness), kStretchComplianceUnit);
    const glm::vec3 d = x - pts.p(s.a + s.b - i);
    const float len = glm::length(d);
    if (!(len > 1e-12f)) continue;
    const glm::vec3 u = d / len;
    addConstraint(b, ks, len - s.rest, u);
    // The edge's own curvature across its direction, where it is positive.
    if (len > s.rest)
      b.hessian += (ks * (1.0f - s.rest / len)) * (glm::mat3(1.0f) - glm::outerProduct(u, u));
  }
  for (std::uint32_t e = t.stencilStart[i]; e < t.stencilStart[i + 1]; ++e) {
    const std::uint32_t j = t.stencils[e] / 4, r = t.stencils[e] % 4;
    ConstraintEval<4, float> c;
    float multiplier;
    if (t.isometric) {
      const IsoBendConstraint& s = cloth.isoBend[j];
      const glm::vec3 p[4] = {pts.p(s.v[0]), pts.p(s.v[1]), pts.p(s.v[2]), pts.p(s.v[3])};
      c = evalIsometric(p, s.q, s.rest);
      multiplier = s.stiffness;
    } else {
      const BendConstraint& s = cloth.bend[j];
      c = evalDihedral(pts.p(s.v[0]), pts.p(s.v[1]), pts.p(s.v[2]), pts.p(s.v[3]), s.restAngle);
      multiplier = s.stiffness;
    }
    if (!c.valid) continue;
    const float kb = vbdStiffness(std::min(1.0f, k.kBend * multiplier), kBendComplianceUnit);
    if (kb > 0.0f) addConstraint(b, kb, c.C, c.grad[r]);
  }
  return b;
}

void vbdSweep(const Cloth& cloth, const VbdTopology& t, const Points& pts, const glm::vec4* target,
              const VbdStiffness& k, std::uint32_t begin, std::uint32_t end) {
  for (std::uint32_t n = begin; n < end; ++n) {
    const std::uint32_t i = t.byColour[n];
    if (!(pts.invMass(i) > 0.0f)) continue;
    const VbdBlock b = vbdBlock(cloth, t, pts, target, k, i);
    const float det = glm::determinant(b.hessian);
    if (!(std::abs(det) > 1e-30f)) continue;
    pts.p(i) += glm::inverse(b.hessian) * b.force;
  }
}

}  // namespace drape::sim
