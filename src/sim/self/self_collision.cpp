#include "sim/self/self_collision.hpp"
#include "sim/self/rest_crossings.hpp"
#include "sim/tuning.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "sim/self/neighbour_lists.hpp"
#include "sim/self/self_cones.hpp"
#include "sim/self/untangle.hpp"
#include "sim/self/vertex_triangle.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

// Hash cells of two mean edges: a triangle's query (its swept box grown by
// the reach and by the largest vertex box) then spans a few cells a side,
// each holding a few vertices.
constexpr float kHashCellEdges = 2.0f;

// Triangles per chunk of the parallel lookup, and vertices per chunk of the
// parallel travel and boxes.
constexpr std::size_t kTrianglesPerChunk = 512;
constexpr std::size_t kVerticesPerChunk = 2048;

// Triangles looked up together: up to this many consecutive ones, each
// sharing an edge with the one before (the two of a quad): their boxes
// mostly overlap, so one lookup serves both; larger groups gain nothing.
constexpr int kGroup = 2;
// The low bits of a vertex's entry in a lookup's `seen` (findPairs).
constexpr std::uint32_t kSeenBits = 2;
constexpr std::uint32_t kSeenMask = (1u << kSeenBits) - 1u;
static_assert(kGroup <= int(kSeenBits), "a bit of seen for each triangle of a lookup");

// One triangle's part in the lookup: its query box (its swept box grown by
// the pair's reach), and which vertices the hash finds there it keeps.
class TriangleLookup {
 public:
  // Set up for triangle t, the k-th of the lookup whose stamp in `seen` is
  // `stamp` (findPairs).
  void init(const SelfCollision& self, const SelfSearch& in, std::uint32_t t,
            const glm::vec3& shift, float base, std::uint32_t* seen, std::uint32_t stamp, int k,
            bool mark) {
    self_ = &self;
    s_ = &in.state;
    tri_ = in.cloth.triangles[t];
    base_ = base;
    const State& s = *s_;
    moved_ = std::max({self.travel[tri_[0]], self.travel[tri_[1]], self.travel[tri_[2]]});
    box_ = sweptBox(s, &tri_[0], 3, shift, base + moved_);
    pinned_ = s.w[tri_[0]] == 0.0f && s.w[tri_[1]] == 0.0f && s.w[tri_[2]] == 0.0f;
    // The triangle's corners, and the vertices joined by an edge to a
    // corner, are marked seen for it before the lookup, so that it skips
    // them. Those are left to the cloth's own constraints: a crease folded
    // flat puts the neighbours of its apex edge closer than the thickness,
    // and keeping them apart would fight the stretch and bending
    // constraints. Each triangle's list is made once per mesh, without the
    // repeats of its corners' lists.
    // (Unless the pair's joint list marks them: findPairs.)
    const std::uint32_t* near = self.triNear.data();
    const std::uint32_t mine = stamp | (1u << k);
    for (std::uint32_t j = self.triNearStart[t], end = mark ? self.triNearStart[t + 1] : j; j < end;
         ++j) {
      const std::uint32_t v = near[j];
      seen[v] = (seen[v] & ~kSeenMask) == stamp ? seen[v] | mine : mine;
    }
    hub_ = self.triHub[t] != 0;
    planes_ = Planes::Unknown;
    // Inside a contour of the cloth's crossings: the triangle's part.
    region_ = nullptr;
    triRegion_ = 0;
    if (!in.tangles.region.empty()) {
      region_ = in.tangles.region.data();
      for (int k = 0; k < 3; ++k) triRegion_ = std::max(triRegion_, region_[tri_[k]]);
    }
    rest_ = in.rest && !in.rest->empty() ? in.rest : nullptr;
    piece_ = in.cloth.piece.data();
  }

  const Aabb& box() const { return box_; }

  // Vertex i, whose box the hash found overlapping box(), neither a repeat
  // nor one of the triangle's neighbours: kept for the exact test (test(),
  // which appends its constraint, if it gets one, to `pairs`).
  void take(std::uint32_t i, std::vector<SelfContact>& pairs) {
    const State& s = *s_;
    if (pinned_ && s.w[i] == 0.0f) return;
    if (hub_ && joinedToCorner(i)) return;
    // Two parts inside contours (untangle.hpp) lie on the wrong sides of
    // each other: kept where they are, they would hold the tangle.
    if (triRegion_ != 0 && region_[i] != 0 && region_[i] != triRegion_) return;
    // Pieces that cross at rest keep their crossings (rest_crossings.hpp).
    if (rest_ && rest_->has(piece_[tri_[0]], piece_[i])) return;
    waiting_[waitingCount_++] = i;
    if (waitingCount_ == kWaiting) test(pairs);
  }

  // The exact test of the vertices waiting for it, in the order they came:
  // each one that gets a constraint is appended to `pairs`.
  void test(std::vector<SelfContact>& pairs) {
    const SelfCollision& self = *self_;
    const State& s = *s_;
    const int count = waitingCount_;
    waitingCount_ = 0;
    if (count == 0) return;
    // The triangle's planes, when a vertex first needs them (most
    // triangles have no vertex left to test). A sliver gets no constraints.
    if (planes_ == Planes::Unknown) {
      const glm::vec3 from[3] = {s.x[tri_[0]], s.x[tri_[1]], s.x[tri_[2]]};
      const glm::vec3 to[3] = {s.p[tri_[0]], s.p[tri_[1]], s.p[tri_[2]]};
      triangle_ = DoubleTriangle(glm::dvec3(from[0]), glm::dvec3(from[1]), glm::dvec3(from[2]));
      motion_ = triangleMotion(from, to);
      planes_ = motion_.start.valid && motion_.end.valid ? Planes::Valid : Planes::Sliver;
    }
    if (planes_ == Planes::Sliver) return;
    // Unused lanes repeat the first vertex; their outcome is not read.
    glm::vec3 q0[kWaiting], q1[kWaiting];
    float reach[kWaiting];
    for (int k = 0; k < kWaiting; ++k) {
      const std::uint32_t i = waiting_[k < count ? k : 0];
      q0[k] = s.x[i];
      q1[k] = s.p[i];
      reach[k] = base_ + moved_ + self.travel[i];
    }
    int sides[kWaiting];
    float approaches[kWaiting];
    for (int sided = vertexSides4(motion_, q0, q1, reach, count, self.thickness, sides, approaches);
         sided != 0; sided &= sided - 1) {
      const int k = __builtin_ctz(unsigned(sided));
      const std::uint32_t i = waiting_[k];
      const int side = sides[k];
      const float approach = approaches[k];
      if (passesThrough(i)) continue;
      // Paper eq. 12: from the back, swap p2 and p3 so the normal faces q.
      const float deepest = self.depenetration + approach;
      if (side > 0) pairs.push_back({{i, tri_[0], tri_[1], tri_[2]}, false, deepest});
      if (side < 0) pairs.push_back({{i, tri_[0], tri_[2], tri_[1]}, false, deepest});
    }
  }

 private:
  // A vertex with an edge through the triangle at the start of the step is
  // on both of its sides already: the cloth is tangled there. Keeping it on
  // the side it is on would hold the tangle, and as the sheets slide, the
  // contacts of the vertices beyond it would spread it; left free, the
  // stretch and bending constraints pull it back out.
  bool passesThrough(std::uint32_t q) const {
    const SelfCollision& self = *self_;
    const State& s = *s_;
    const glm::dvec3 p(s.x[q]);
    const double dp = triangle_.side(p);
    for (std::uint32_t k = self.adjStart[q]; k < self.adjStart[q + 1]; ++k) {
      const glm::dvec3 end(s.x[self.adj[k]]);
      if (triangle_.crossedBy(p, dp, end, triangle_.side(end))) return true;
    }
    return false;
  }

  // Whether vertex q has an edge to a corner (for a triangle with a hub,
  // whose neighbours its list leaves out).
  bool joinedToCorner(std::uint32_t q) const {
    const SelfCollision& self = *self_;
    for (std::uint32_t k = self.adjStart[q]; k < self.adjStart[q + 1]; ++k)
      if (shares(tri_, self.adj[k])) return true;
    return false;
  }

  const SelfCollision* self_ = nullptr;
  const State* s_ = nullptr;
  bool hub_ = false;
  glm::uvec3 tri_{0};
  float base_ = 0.0f, moved_ = 0.0f;
  Aabb box_;
  bool pinned_ = false;
  const std::uint32_t* region_ = nullptr;
  std::uint32_t triRegion_ = 0;
  const RestCrossings* rest_ = nullptr;
  const std::uint32_t* piece_ = nullptr;
  enum class Planes : std::uint8_t { Unknown, Valid, Sliver } planes_ = Planes::Unknown;
  DoubleTriangle triangle_;  // at the start of the step
  TriangleMotion motion_;
  // Vertices that passed the cheap tests, tested exactly four at a time.
  static constexpr int kWaiting = 4;
  std::uint32_t waiting_[kWaiting] = {};
  int waitingCount_ = 0;
};

// The constraints of triangles t … t + count − 1: the vertices the hash
// finds near each one's query box that vertexTriangleSide accepts, appended
// to `pairs` triangle by triangle, each one's in the hash's order (sorted
// later; the pairs of one vertex come in triangle order); returns how many
// entries of the hash it compared. Neighbouring triangles have boxes that
// mostly overlap, so one lookup of their joint cells serves them all,
// testing each vertex's box against each triangle's; `found` holds what it
// finds (tagged with the triangles whose boxes it overlaps), `kept[k]` what
// the k-th triangle keeps of it. One entry per vertex of `seen` drops the
// repeats and each triangle's neighbours: the lookup's stamp (t <<
// kSeenBits) with bit k set where the k-th triangle skips the vertex (one
// read a vertex, not one a triangle).
std::size_t findPairs(const SelfCollision& self, const SelfSearch& in, std::uint32_t t, int count,
                      const glm::vec3& shift, float base, std::uint32_t* seen,
                      std::vector<std::uint32_t>& found, std::vector<std::uint32_t>* kept,
                      std::vector<SelfContact>& pairs) {
  static_assert(kGroup == 2 && kSeenBits == 2, "pairs' lists hold two bits a vertex");
  TriangleLookup group[kGroup];
  const std::uint32_t stamp = t << kSeenBits;
  const bool paired = count == 2;
  for (int k = 0; k < count; ++k)
    group[k].init(self, in, t + std::uint32_t(k), shift, base, seen, stamp, k, !paired);
  if (paired) {
    const std::uint32_t* near = self.pairNear.data();
    for (std::uint32_t j = self.pairNearStart[t], end = self.pairNearStart[t + 1]; j < end; ++j)
      seen[near[j] >> 2] = stamp | (near[j] & kSeenMask);
  }
  // Each vertex whose box overlaps either triangle's once, tagged with the
  // triangles it overlaps (SpatialHash::collectTagged).
  std::size_t scanned = 0;
  const std::size_t n =
      self.hash.collectTagged(group[0].box(), group[count - 1].box(), found, &scanned);
  for (int k = 0; k < count; ++k) kept[k].resize(std::max(kept[k].size(), n));
  std::size_t keptCount[kGroup] = {};
  const std::uint32_t all = stamp | ((1u << count) - 1u);
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint32_t v = found[j] >> 2, overlaps = found[j] & kSeenMask;
    const std::uint32_t mark = seen[v];
    if (mark == all) continue;
    const std::uint32_t skip = (mark & ~kSeenMask) == stamp ? mark : stamp;
    seen[v] = all;
    for (int k = 0; k < count; ++k) {
      kept[k][keptCount[k]] = v;
      keptCount[k] += (skip >> k) & 1u ? 0 : (overlaps >> k) & 1u;
    }
  }
  for (int k = 0; k < count; ++k) {
    for (std::size_t j = 0; j < keptCount[k]; ++j) group[k].take(kept[k][j], pairs);
    group[k].test(pairs);
  }
  return scanned;
}

}  // namespace

float selfThickness(float thickness, float meanEdge) {
  return std::min(thickness, tuning::kSelfThicknessPerEdge * meanEdge);
}

float meanRestEdge(const Cloth& cloth) {
  return cloth.meanRestEdge();
}

bool prepareSelfContacts(SelfCollision& self, const SelfSearch& in, SelfSearchState& state,
                         ThreadTeam& team) {
  self.contacts.clear();
  self.exposed.clear();
  self.exposedVertices.clear();
  self.tooDense = false;
  const Cloth& cloth = in.cloth;
  // A lookup's stamp in `seen` is its first triangle's index shifted past
  // kSeenBits (findPairs), short of the fill UINT32_MAX; a vertex's id
  // shifted so, with a bit for each triangle of a lookup, is what the
  // lookup finds and what a pair's list holds.
  constexpr std::size_t kMostTriangles = (std::size_t(1) << (32 - kSeenBits)) - 1;
  if (state.tooDenseTopology == cloth.topologyVersion || cloth.triangles.size() >= kMostTriangles ||
      in.state.x.size() >= kMostTriangles) {
    self.tooDense = true;
    return false;
  }
  const State& s = in.state;
  const std::size_t n = s.x.size();
  if (self.cellVersion != cloth.topologyVersion || self.cellEdges != cloth.stretch.size() ||
      self.adjStart.size() != n + 1 || self.triNearStart.size() != cloth.triangles.size() + 1) {
    self.cell = meanRestEdge(cloth);
    buildAdjacency(cloth, self.adjStart, self.adj);
    buildTriangleNeighbours(cloth, self.adjStart, self.adj, self.triNearStart, self.triNear,
                            self.triHub);
    buildPairNeighbours(cloth, self.triNearStart, self.triNear, self.pairNearStart, self.pairNear);
    self.cellVersion = cloth.topologyVersion;
    self.cellEdges = cloth.stretch.size();
  }
  if (!(self.cell > 0.0f) || n == 0) return false;
  self.thickness = selfThickness(in.thickness, self.cell);
  // A contact's way out of a layer, beyond its own approach: the thickness
  // a sub-step at the scene's sub-steps, shorter in the shorter sub-steps
  // of a frame that takes more, so that it moves out no faster: a whole
  // thickness in each of many short sub-steps flings vertices off a cloth
  // landing on itself.
  const int own = std::max(in.ownSubsteps, 1);
  self.depenetration =
      in.substeps > own ? self.thickness * float(own) / float(in.substeps) : self.thickness;

  // Each vertex's motion over the step (read once for each of its
  // neighbours below), on the solver's threads, and the cloth's mean
  // motion: the frame the boxes are seen from.
  const std::size_t chunks = (n + kVerticesPerChunk - 1) / kVerticesPerChunk;
  std::vector<glm::vec3>& motion = self.motion;
  motion.resize(n);
  std::vector<glm::dvec3>& motionSums = self.motionSums;
  motionSums.resize(chunks);
  forEachChunk(team, chunks, [&](std::size_t c, int) {
    const std::size_t end = std::min(n, (c + 1) * kVerticesPerChunk);
    glm::dvec3 chunkSum(0.0);
    for (std::size_t i = c * kVerticesPerChunk; i < end; ++i) {
      motion[i] = s.p[i] - s.x[i];
      chunkSum += glm::dvec3(motion[i]);
    }
    motionSums[c] = chunkSum;
  });
  glm::dvec3 sum(0.0);
  for (const glm::dvec3& chunkSum : motionSums) sum += chunkSum;  // in chunk order
  self.shift = glm::vec3(sum / double(n));
  const glm::vec3 shift = self.shift;

  // Constraints are made once per sub-step, so they must also cover what
  // the iterations move a vertex towards a triangle it was not near: the
  // reach of a pair is selfPairBase(), grown by how far its vertices travel in
  // the step against the mean motion of their neighbours (the solve's
  // corrections come from such relative motion; a cloth falling or swinging
  // as a whole barely changes shape), each travel counted up to one cell.
  // Against the cloth's mean motion instead, a swinging cloth gets many
  // times the contacts, and folds end with more edge–triangle crossings.
  // Teschner et al. 2003: the vertices go into the hash by their swept boxes
  // (grown by their travel; mostly one cell each), and every triangle looks
  // up the cells of its own swept box grown by the rest of the pair's reach.
  self.travel.resize(n);
  self.boxes.resize(n);
  std::vector<double>& travelSums = self.travelSums;
  travelSums.assign(chunks, 0.0);
  forEachChunk(team, chunks, [&](std::size_t c, int) {
    double travelSum = 0.0;
    const std::uint32_t end = std::uint32_t(std::min(n, (c + 1) * kVerticesPerChunk));
    for (std::uint32_t i = std::uint32_t(c * kVerticesPerChunk); i < end; ++i) {
      const std::uint32_t b = self.adjStart[i], e = self.adjStart[i + 1];
      glm::vec3 mean(0.0f);
      for (std::uint32_t k = b; k < e; ++k) mean += motion[self.adj[k]];
      const glm::vec3 local = e > b ? mean / float(e - b) : shift;
      self.travel[i] = std::min(glm::length(motion[i] - local), self.cell);
      self.boxes[i] = sweptBox(s, &i, 1, shift, self.travel[i]);
      travelSum += double(self.travel[i]);
    }
    travelSums[c] = travelSum;
  });
  double travelSum = 0.0;
  for (const double chunkSum : travelSums) travelSum += chunkSum;  // in chunk order
  state.travelMean = float(travelSum / double(n));
  return true;
}

void buildSelfHash(SelfCollision& self) {
  // Each vertex once, by the centre of its box (SpatialHash::Insert).
  // Only the vertices the cone walk left, where it ran.
  self.hash.build(self.boxes, kHashCellEdges * self.cell, SpatialHash::Insert::Centre,
                  SpatialHash::Layout::Auto,
                  self.exposedVertices.empty() ? nullptr : self.exposedVertices.data());
}

bool findSelfContacts(SelfCollision& self, const SelfSearch& in, SelfSearchState& state,
                      ThreadTeam& team) {
  const Cloth& cloth = in.cloth;
  const std::size_t n = in.state.x.size();
  const glm::vec3 shift = self.shift;
  const float base = selfPairBase(self.thickness, self.cell);
  // The triangles are taken by the solver's threads in chunks, whichever
  // thread is free next (piled-up regions cost far more than flat ones);
  // each chunk's pairs come out in triangle order, and the chunks are joined
  // in order, so the result is the same for any thread count.
  const std::vector<glm::uvec3>& tris = cloth.triangles;
  const std::size_t chunks = (tris.size() + kTrianglesPerChunk - 1) / kTrianglesPerChunk;
  self.chunkPairs.resize(std::max(self.chunkPairs.size(), chunks));
  self.threadSeen.resize(std::size_t(team.size()));
  self.threadFound.resize(std::size_t(team.size()));
  self.threadKept.resize(std::size_t(kGroup) * std::size_t(team.size()));
  // Each thread clears its own marks in its first chunk.
  std::vector<std::uint8_t> cleared(std::size_t(team.size()), 0);
  // Where far more vertices lie near each triangle than a cloth piles up
  // (all the triangles of a fan meet at its hub, and its rim lies in a few
  // cells), the lookups take time quadratic in the mesh: a chunk over its
  // budget gives up, and so do the others once one has.
  const std::size_t budget =
      tuning::kVisitsPerTriangle * kTrianglesPerChunk + (std::size_t(1) << 20);
  std::atomic<bool> tooDense{false};
  forEachChunk(team, chunks, [&](std::size_t c, int thread) {
    std::vector<SelfContact>& pairs = self.chunkPairs[c];
    pairs.clear();
    std::size_t visited = 0;
    std::vector<std::uint32_t>& threadSeen = self.threadSeen[std::size_t(thread)];
    if (!cleared[std::size_t(thread)]) {
      threadSeen.assign(n, UINT32_MAX);
      cleared[std::size_t(thread)] = 1;
    }
    std::uint32_t* seen = threadSeen.data();
    std::vector<std::uint32_t>& found = self.threadFound[std::size_t(thread)];
    std::vector<std::uint32_t>* kept = &self.threadKept[std::size_t(kGroup) * std::size_t(thread)];
    const std::size_t end = std::min(tris.size(), (c + 1) * kTrianglesPerChunk);
    const std::uint8_t* exposed = self.exposed.empty() ? nullptr : self.exposed.data();
    for (std::size_t t = c * kTrianglesPerChunk; t < end;) {
      if (exposed && !exposed[t]) {
        ++t;
        continue;
      }
      int count = 1;
      while (count < kGroup && t + std::size_t(count) < end &&
             (!exposed || exposed[t + std::size_t(count)]) &&
             shareEdge(tris[t + std::size_t(count) - 1], tris[t + std::size_t(count)]))
        ++count;
      visited +=
          findPairs(self, in, std::uint32_t(t), count, shift, base, seen, found, kept, pairs);
      t += std::size_t(count);
      if (visited > budget) tooDense.store(true, std::memory_order_relaxed);
      if (tooDense.load(std::memory_order_relaxed)) return;
    }
  });
  if (tooDense.load()) {
    // Off for this mesh until its topology changes (prepareSelfContacts).
    state.tooDenseTopology = cloth.topologyVersion;
    self.contacts.clear();
    self.tooDense = true;
    return false;
  }
  // In vertex order (a stable counting sort keeps the triangles ascending
  // within each vertex), whatever the hash's layout.
  self.start.assign(n + 1, 0);
  std::size_t total = 0;
  for (std::size_t c = 0; c < chunks; ++c) {
    for (const SelfContact& pair : self.chunkPairs[c]) ++self.start[pair.v[0] + 1];
    total += self.chunkPairs[c].size();
  }
  for (std::size_t i = 0; i < n; ++i) self.start[i + 1] += self.start[i];
  self.contacts.resize(total);
  for (std::size_t c = 0; c < chunks; ++c)
    for (const SelfContact& pair : self.chunkPairs[c])
      self.contacts[self.start[pair.v[0]]++] = pair;
  return true;
}

std::optional<std::size_t> countSelfIntersections(const Cloth& cloth,
                                                  const std::vector<glm::vec3>& x,
                                                  std::vector<std::uint32_t>* crossed) {
  if (crossed) crossed->clear();
  Tangles tangles;
  if (!findCrossings(cloth, x, nullptr, tangles)) return std::nullopt;
  if (crossed && !tangles.crossings.empty()) {
    // The triangle crossed and those beside the edge through it.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (const Crossing& c : tangles.crossings) {
      crossed->push_back(c.triangle);
      edges.emplace_back(std::min(c.a, c.b), std::max(c.a, c.b));
    }
    std::sort(edges.begin(), edges.end());
    for (std::uint32_t t = 0; t < cloth.triangles.size(); ++t) {
      const glm::uvec3& tri = cloth.triangles[t];
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t a = tri[k], b = tri[(k + 1) % 3];
        if (std::binary_search(edges.begin(), edges.end(),
                               std::make_pair(std::min(a, b), std::max(a, b))))
          crossed->push_back(t);
      }
    }
    std::sort(crossed->begin(), crossed->end());
    crossed->erase(std::unique(crossed->begin(), crossed->end()), crossed->end());
  }
  return tangles.crossings.size();
}

}  // namespace drape::sim
