#include "sim/collision/collider_contacts.hpp"
#include "sim/tuning.hpp"

#include <algorithm>
#include <cmath>

#include "sim/constraints.hpp"

namespace drape::sim {
namespace {

// Vertices (and edges, and triangles) per job of the search.
constexpr std::size_t kVerticesPerChunk = 1024;

// The feature contacts (feature_contacts.hpp) of one chunk of the cloth's
// edges, or of its triangles after the edges' chunks, for the poses and far
// tests of the sub-step, in order.
void featureContactsOf(ColliderContacts& cc, const ColliderSearch& in, std::size_t chunk,
                       std::size_t edgeChunks) {
  const State& s = in.state;
  std::vector<FeatureContact>& out = cc.featureChunks[chunk];
  out.clear();
  const float thickness = in.thickness;
  const float longest2 =
      (tuning::kFeatureStretch * cc.longestRest) * (tuning::kFeatureStretch * cc.longestRest);
  const bool edges = chunk < edgeChunks;
  const std::size_t count = edges ? in.cloth.stretch.size() : in.cloth.triangles.size();
  const std::size_t first = (edges ? chunk : chunk - edgeChunks) * kVerticesPerChunk;
  const std::size_t end = std::min(count, first + kVerticesPerChunk);
  for (std::size_t j = first; j < end; ++j) {
    std::uint32_t v[3];
    if (edges) {
      v[0] = in.cloth.stretch[j].a;
      v[1] = v[2] = in.cloth.stretch[j].b;
    } else {
      for (int k = 0; k < 3; ++k) v[k] = in.cloth.triangles[j][k];
    }
    if (s.w[v[0]] == 0.0f && s.w[v[1]] == 0.0f && s.w[v[2]] == 0.0f) continue;
    // As for a vertex: the step's travel and a bit; a
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
    for (const std::uint32_t c : cc.featureColliders) {
      const Collider& shape = in.colliders[c];
      if (!featuresMayReach(shape, span2) || cc.far[c].far(middle, radius, thickness, margin) ||
          !nearFeatures(shape, cc.to[c], middle, radius + thickness + margin, edges ? 2 : 3))
        continue;
      FeatureContact contact;
      const bool found =
          edges ? generateEdgeContact(shape, cc.from[c], cc.to[c], s.p[v[0]], s.p[v[1]], thickness,
                                      margin, contact)
                : generateFaceContact(shape, cc.from[c], cc.to[c], s.p[v[0]], s.p[v[1]], s.p[v[2]],
                                      thickness, margin, contact);
      if (!found) continue;
      for (int k = 0; k < 3; ++k) contact.v[k] = v[k];
      out.push_back(contact);
    }
  }
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

// The contacts of the vertices of chunk `chunk`: every collider's at the
// start of a span, else those of the colliders searched every sub-step.
void vertexContactsOf(ColliderContacts& cc, const ColliderSearch& in, std::size_t chunk) {
  const State& s = in.state;
  const std::size_t n = s.x.size();
  const float thickness = in.thickness;
  std::vector<Contact>& out = cc.vertexChunks[chunk];
  out.clear();
  const std::size_t end = std::min(n, (chunk + 1) * kVerticesPerChunk);
  for (std::uint32_t i = std::uint32_t(chunk * kVerticesPerChunk); i < end; ++i) {
    if (s.w[i] == 0.0f) continue;
    // A margin of the step's travel plus a bit catches vertices that other
    // constraints may push into the collider during the solve.
    const float move = glm::length(s.p[i] - s.x[i]);
    const bool crossing = !in.crossingVertices.empty() && in.crossingVertices[i] != 0;
    for (std::uint32_t c = 0; c < in.colliders.size(); ++c) {
      const bool spanned = !in.spanned.empty() && in.spanned[c] != 0;
      if (spanned && !in.spanStart) continue;
      const float carried = spanned ? float(in.span) : 1.0f;
      const float travel = carried * move;
      const glm::vec3 to = spanned ? s.x[i] + carried * (s.p[i] - s.x[i]) : s.p[i];
      const float margin = travel + 0.5f * thickness + 1e-4f;
      const Collider& shape = in.colliders[c];
      const bool sheet = shape.kind == ColliderKind::Mesh && shape.mesh && !shape.mesh->closed;
      const float untangling =
          crossing && shape.kind != ColliderKind::Plane ? in.untangleReach : 0.0f;
      const float reach = (sheet ? margin + cc.fastest : margin) + untangling;
      if (cc.far[c].far(s.x[i], travel, thickness, reach)) continue;
      Contact contact;
      if (shape.sequence) {
        const ColliderContacts::Deforming& d = cc.deforming[c];
        if (!generateSequenceContact(d.from, d.to, d.travel, s.x[i], to, thickness, reach,
                                     contact.q, contact.n, contact.surfaceShift))
          continue;
        contact.touched = false;
      } else if (!generateContact(shape, cc.from[c], cc.to[c], s.x[i], to, thickness, reach,
                                  contact)) {
        continue;
      }
      contact.vertex = i;
      contact.collider = c;
      contact.approachSpeed = glm::dot(s.v[i] - contact.surfaceShift / in.h, contact.n);
      out.push_back(contact);
    }
  }
}

// Every collider is searched in this sub-step.
bool searchesAll(const ColliderSearch& in) {
  return in.spanStart || in.spanned.empty();
}

// Some collider is searched in every sub-step.
bool searchesAny(const ColliderSearch& in) {
  return in.spanned.empty() ||
         std::any_of(in.spanned.begin(), in.spanned.end(), [](std::uint8_t s) { return !s; });
}

// The deforming colliders' surfaces at the sub-step's ends: the last end
// taken as this start where the times agree (a pure function of the time,
// so a copied world that makes them afresh gets the same bits).
void updateDeforming(ColliderContacts& cc, const ColliderSearch& in) {
  const double t1 = in.t0 + double(in.h);
  bool any = false;
  for (const Collider& c : in.colliders) any = any || c.sequence;
  if (!any) {
    cc.deforming.clear();
    return;
  }
  cc.deforming.resize(in.colliders.size());
  for (std::size_t c = 0; c < in.colliders.size(); ++c) {
    ColliderContacts::Deforming& d = cc.deforming[c];
    const MeshSequence* seq = in.colliders[c].sequence.get();
    if (!seq) {
      d.sequence = nullptr;
      continue;
    }
    if (d.sequence == seq && d.fromTime == in.t0 && d.toTime == t1) continue;
    if (d.sequence == seq && d.toTime == in.t0) {
      std::swap(d.from, d.to);
    } else {
      seq->shapeAt(in.t0, d.from);
    }
    seq->shapeAt(t1, d.to);
    d.sequence = seq;
    d.fromTime = in.t0;
    d.toTime = t1;
    d.travel = 0.0f;
    for (std::size_t i = 0; i < d.from.vertices.size(); ++i)
      d.travel = std::max(d.travel, glm::length(d.to.vertices[i] - d.from.vertices[i]));
    // A little over, for the rounding of the blends.
    d.travel = d.travel * 1.0001f + 1e-7f;
  }
}

}  // namespace

std::size_t beginColliderContacts(ColliderContacts& cc, const ColliderSearch& in) {
  const State& s = in.state;
  const std::vector<Collider>& colliders = in.colliders;
  const bool all = searchesAll(in);
  if (all) cc.contacts.clear();
  cc.features.clear();
  cc.from.resize(colliders.size());
  cc.to.resize(colliders.size());
  cc.far.resize(colliders.size());
  for (std::size_t c = 0; c < colliders.size(); ++c) {
    cc.from[c] = poseAt(colliders[c], in.t0);
    cc.to[c] = poseAt(colliders[c], in.t0 + double(in.h));
    cc.far[c] = farTest(colliders[c], cc.from[c], cc.to[c]);
  }
  updateDeforming(cc, in);
  // A vertex that barely moves by itself may be dragged far by its
  // neighbours during the solve. Inside a solid that is undone at the next
  // step (it is pushed back out), but a vertex dragged through an open
  // mesh's sheet would stay on the far side: open meshes take every vertex
  // within the fastest vertex's travel.
  cc.fastest = 0.0f;
  for (const Collider& c : colliders)
    if (c.kind == ColliderKind::Mesh && c.mesh && !c.mesh->closed) {
      for (std::size_t i = 0; i < s.x.size(); ++i)
        if (s.w[i] != 0.0f) cc.fastest = std::max(cc.fastest, glm::length(s.p[i] - s.x[i]));
      break;
    }
  const std::size_t n = s.x.size();
  cc.vertexJobs = all || searchesAny(in) ? (n + kVerticesPerChunk - 1) / kVerticesPerChunk : 0;
  cc.vertexChunks.resize(std::max(cc.vertexChunks.size(), cc.vertexJobs));
  // The cloth's edges and triangles in chunks after the vertices', where a
  // collider has edges, corners or a thin part for them to meet: those
  // whose features a span of the cloth stretched to tuning::kFeatureStretch times
  // its longest edge may meet.
  if (cc.longestTopology != in.cloth.topologyVersion) {
    cc.longestRest = 0.0f;
    for (const StretchConstraint& e : in.cloth.stretch)
      cc.longestRest = std::max(cc.longestRest, e.rest);
    cc.longestTopology = in.cloth.topologyVersion;
  }
  const float span = tuning::kFeatureStretch * cc.longestRest;
  cc.featureColliders.clear();
  for (std::uint32_t c = 0; c < colliders.size(); ++c)
    if (featuresMayReach(colliders[c], span * span)) cc.featureColliders.push_back(c);
  auto chunksOf = [&](std::size_t count) {
    return cc.featureColliders.empty() ? 0 : (count + kVerticesPerChunk - 1) / kVerticesPerChunk;
  };
  cc.edgeJobs = chunksOf(in.cloth.stretch.size());
  cc.featureJobs = cc.edgeJobs + chunksOf(in.cloth.triangles.size());
  cc.featureChunks.resize(std::max(cc.featureChunks.size(), cc.featureJobs));
  return cc.vertexJobs + cc.featureJobs;
}

void findColliderContacts(ColliderContacts& cc, const ColliderSearch& in, std::size_t job) {
  if (job >= cc.vertexJobs)
    featureContactsOf(cc, in, job - cc.vertexJobs, cc.edgeJobs);
  else
    vertexContactsOf(cc, in, job);
}

void joinColliderContacts(ColliderContacts& cc, const ColliderSearch& in) {
  for (std::size_t chunk = 0; chunk < cc.featureJobs; ++chunk)
    cc.features.insert(cc.features.end(), cc.featureChunks[chunk].begin(),
                       cc.featureChunks[chunk].end());
  if (searchesAll(in)) {
    for (std::size_t chunk = 0; chunk < cc.vertexJobs; ++chunk)
      cc.contacts.insert(cc.contacts.end(), cc.vertexChunks[chunk].begin(),
                         cc.vertexChunks[chunk].end());
    return;
  }
  if (!searchesAny(in)) return;
  // Within a span: the kept contacts of the spanned colliders (the fresh
  // ones' colliders are the others) merged with the fresh, in the order a
  // span's start gives.
  cc.merged.clear();
  std::size_t chunk = 0, k = 0;
  auto next = [&]() -> const Contact* {
    while (chunk < cc.vertexJobs && k >= cc.vertexChunks[chunk].size()) {
      ++chunk;
      k = 0;
    }
    return chunk < cc.vertexJobs ? &cc.vertexChunks[chunk][k] : nullptr;
  };
  for (const Contact& kept : cc.contacts) {
    if (!in.spanned[kept.collider]) continue;
    for (const Contact* f = next(); f && (f->vertex < kept.vertex || (f->vertex == kept.vertex &&
                                                                      f->collider < kept.collider));
         f = next()) {
      cc.merged.push_back(*f);
      ++k;
    }
    cc.merged.push_back(kept);
  }
  for (const Contact* f = next(); f; f = next()) {
    cc.merged.push_back(*f);
    ++k;
  }
  cc.contacts.swap(cc.merged);
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
