#include "sim/self_collision.hpp"

#include <algorithm>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "sim/solve_batched.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

// A triangle's plane and edges at one instant, computed once and tested
// against many vertices.
struct TrianglePlane {
  glm::vec3 a, N;      // a corner, and the normal (b − a) × (c − a)
  float nn = 0.0f;     // |N|²
  float len = 0.0f;    // |N|
  float edge[3] = {};  // |c − b|, |a − c|, |b − a|
  glm::vec3 b, c;
  bool valid = false;  // not a sliver
};

TrianglePlane trianglePlane(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  TrianglePlane t;
  t.a = a;
  t.b = b;
  t.c = c;
  t.N = glm::cross(b - a, c - a);
  t.nn = glm::dot(t.N, t.N);
  t.len = glm::length(t.N);
  t.edge[0] = glm::length(c - b);
  t.edge[1] = glm::length(a - c);
  t.edge[2] = glm::length(b - a);
  const float longest =
      std::max({glm::dot(b - a, b - a), glm::dot(c - a, c - a), glm::dot(c - b, c - b)});
  t.valid = t.len > 1e-6f * longest;
  return t;
}

// Signed distance of q to the triangle's plane (a valid one).
float planeDistance(const TrianglePlane& t, const glm::vec3& q) {
  return glm::dot(q - t.a, t.N) / t.len;
}

// Whether the projection of q onto the plane of the triangle lies in the
// triangle grown by `margin` (m) beyond each edge. Barycentric b_i < 0 puts
// the point −b_i |N| / |opposite edge| outside that edge.
bool insideGrown(const TrianglePlane& t, const glm::vec3& q, float margin) {
  if (!(t.nn > 0.0f)) return false;
  const float ba = glm::dot(glm::cross(t.c - t.b, q - t.b), t.N) / t.nn;
  const float bb = glm::dot(glm::cross(t.a - t.c, q - t.c), t.N) / t.nn;
  const float bc = 1.0f - ba - bb;
  return ba * t.len >= -margin * t.edge[0] && bb * t.len >= -margin * t.edge[1] &&
         bc * t.len >= -margin * t.edge[2];
}

// A triangle over the step: its planes at the start and the end.
struct TriangleMotion {
  TrianglePlane start, end;
};

TriangleMotion triangleMotion(const glm::vec3* from, const glm::vec3* to) {
  return {trianglePlane(from[0], from[1], from[2]), trianglePlane(to[0], to[1], to[2])};
}

// What a vertex's motion q0 → q1 gives against a triangle whose planes are
// computed (both valid): its signed distances to the start and end planes,
// and whether it ends within `reach` of the end plane inside the end
// triangle grown by the thickness.
struct PlaneTest {
  float d0 = 0.0f, d1 = 0.0f;
  bool endInside = false;
};

PlaneTest planeTest(const TriangleMotion& m, const glm::vec3& q0, const glm::vec3& q1,
                    float thickness, float reach) {
  PlaneTest r;
  r.d0 = planeDistance(m.start, q0);
  r.d1 = planeDistance(m.end, q1);
  r.endInside = std::abs(r.d1) < reach && insideGrown(m.end, q1, thickness);
  return r;
}

#if defined(__SSE2__)
// planeTest for four vertices at once, each lane the same operations in the
// same order as planeTest (the same bits), so the divisions overlap and the
// outcome needs no branch.
int planeTest4(const TriangleMotion& m, const glm::vec3 (&q0)[4], const glm::vec3 (&q1)[4],
               float thickness, const float (&reach)[4], PlaneTest (&out)[4]) {
  auto lanes = [](const glm::vec3(&q)[4], int k) {
    return _mm_setr_ps(q[0][k], q[1][k], q[2][k], q[3][k]);
  };
  auto one = [](float v) { return _mm_set1_ps(v); };
  const __m128 x0 = lanes(q0, 0), y0 = lanes(q0, 1), z0 = lanes(q0, 2);
  const __m128 x1 = lanes(q1, 0), y1 = lanes(q1, 1), z1 = lanes(q1, 2);
  // dot(q − a, N) / |N|: (x + y) + z, as glm::dot.
  auto distance = [&](const TrianglePlane& t, __m128 x, __m128 y, __m128 z) {
    const __m128 dx = _mm_mul_ps(_mm_sub_ps(x, one(t.a.x)), one(t.N.x));
    const __m128 dy = _mm_mul_ps(_mm_sub_ps(y, one(t.a.y)), one(t.N.y));
    const __m128 dz = _mm_mul_ps(_mm_sub_ps(z, one(t.a.z)), one(t.N.z));
    return _mm_div_ps(_mm_add_ps(_mm_add_ps(dx, dy), dz), one(t.len));
  };
  const __m128 d0 = distance(m.start, x0, y0, z0), d1 = distance(m.end, x1, y1, z1);
  // insideGrown(m.end, q1, thickness): dot(cross(u, q − o), N) / |N|² for
  // the edges u = c − b from o = b and u = a − c from o = c.
  const TrianglePlane& t = m.end;
  auto barycentric = [&](const glm::vec3& u, const glm::vec3& o) {
    const __m128 vx = _mm_sub_ps(x1, one(o.x)), vy = _mm_sub_ps(y1, one(o.y)),
                 vz = _mm_sub_ps(z1, one(o.z));
    const __m128 cx = _mm_sub_ps(_mm_mul_ps(one(u.y), vz), _mm_mul_ps(vy, one(u.z)));
    const __m128 cy = _mm_sub_ps(_mm_mul_ps(one(u.z), vx), _mm_mul_ps(vz, one(u.x)));
    const __m128 cz = _mm_sub_ps(_mm_mul_ps(one(u.x), vy), _mm_mul_ps(vx, one(u.y)));
    const __m128 dot =
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(cx, one(t.N.x)), _mm_mul_ps(cy, one(t.N.y))),
                   _mm_mul_ps(cz, one(t.N.z)));
    return _mm_div_ps(dot, one(t.nn));
  };
  const __m128 ba = barycentric(t.c - t.b, t.b), bb = barycentric(t.a - t.c, t.c);
  const __m128 bc = _mm_sub_ps(_mm_sub_ps(one(1.0f), ba), bb);
  // Within the thickness outside each edge.
  auto within = [&](__m128 w, float edge) {
    return _mm_cmpge_ps(_mm_mul_ps(w, one(t.len)), one(-thickness * edge));
  };
  __m128 inside =
      _mm_and_ps(_mm_and_ps(within(ba, t.edge[0]), within(bb, t.edge[1])), within(bc, t.edge[2]));
  if (!(t.nn > 0.0f)) inside = _mm_setzero_ps();
  const __m128 absD1 = _mm_andnot_ps(_mm_set1_ps(-0.0f), d1);
  const int near = _mm_movemask_ps(_mm_and_ps(_mm_cmplt_ps(absD1, _mm_loadu_ps(reach)), inside));
  alignas(16) float d0s[4], d1s[4];
  _mm_store_ps(d0s, d0);
  _mm_store_ps(d1s, d1);
  for (int k = 0; k < 4; ++k) out[k] = {d0s[k], d1s[k], ((near >> k) & 1) != 0};
  const __m128 zero = _mm_setzero_ps();
  return near | _mm_movemask_ps(_mm_xor_ps(_mm_cmpgt_ps(d0, zero), _mm_cmpgt_ps(d1, zero)));
}
#endif

// planeTest for the first `count` of four vertices (the other lanes are
// filled, and their outcome not read): side by side where SSE2 is there.
// Returns a mask of the vertices that may get a side (bit k for vertex k):
// those that end near the triangle or cross its plane; sideFrom gives the
// others 0.
int planeTests(const TriangleMotion& m, const glm::vec3 (&q0)[4], const glm::vec3 (&q1)[4],
               float thickness, const float (&reach)[4], int count, PlaneTest (&out)[4]) {
#if defined(__SSE2__)
  return planeTest4(m, q0, q1, thickness, reach, out) & ((1 << count) - 1);
#else
  int maybe = 0;
  for (int k = 0; k < count; ++k) {
    out[k] = planeTest(m, q0[k], q1[k], thickness, reach[k]);
    if (out[k].endInside || (out[k].d0 > 0.0f) != (out[k].d1 > 0.0f)) maybe |= 1 << k;
  }
  return maybe;
#endif
}

// vertexTriangleSide for a triangle whose planes are computed (both valid),
// from the vertex's planeTest.
int sideFrom(const TriangleMotion& m, const glm::vec3& q0, const glm::vec3& q1,
             const PlaneTest& test, float thickness, float* approach = nullptr) {
  const float d0 = test.d0, d1 = test.d1;
  // The side it came from; a vertex that starts in the plane goes with its motion.
  const int side = d0 > 0.0f ? 1 : d0 < 0.0f ? -1 : (d1 >= 0.0f ? 1 : -1);
  if (approach) *approach = std::max(0.0f, float(side) * (d0 - d1));
  if ((d0 > 0.0f) != (d1 > 0.0f) && d0 != d1) {
    // It crosses the plane; where it does (the distance taken as linear in
    // time), is it inside the triangle?
    const float tau = d0 / (d0 - d1);
    auto at = [&](const glm::vec3& from, const glm::vec3& to) { return from + tau * (to - from); };
    if (insideGrown(
            trianglePlane(at(m.start.a, m.end.a), at(m.start.b, m.end.b), at(m.start.c, m.end.c)),
            at(q0, q1), thickness))
      return side;
  }
  return test.endInside ? side : 0;
}

// Does segment [p, q] pass through triangle (a, b, c)? Double precision.
bool segmentCrossesTriangle(const glm::dvec3& p, const glm::dvec3& q, const glm::dvec3& a,
                            const glm::dvec3& b, const glm::dvec3& c) {
  const glm::dvec3 N = glm::cross(b - a, c - a);
  const double dp = glm::dot(p - a, N), dq = glm::dot(q - a, N);
  if ((dp > 0.0 && dq > 0.0) || (dp < 0.0 && dq < 0.0) || dp == dq) return false;
  const glm::dvec3 x = p + (dp / (dp - dq)) * (q - p);
  return glm::dot(glm::cross(b - a, x - a), N) >= 0.0 &&
         glm::dot(glm::cross(c - b, x - b), N) >= 0.0 &&
         glm::dot(glm::cross(a - c, x - c), N) >= 0.0;
}

// The vertices joined to each vertex by an edge (CSR).
void buildAdjacency(const Cloth& cloth, std::vector<std::uint32_t>& start,
                    std::vector<std::uint32_t>& adjacent) {
  const std::size_t n = cloth.vertexCount();
  start.assign(n + 1, 0);
  for (const StretchConstraint& e : cloth.stretch) {
    ++start[e.a + 1];
    ++start[e.b + 1];
  }
  for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
  adjacent.resize(start[n]);
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (const StretchConstraint& e : cloth.stretch) {
    adjacent[fill[e.a]++] = e.b;
    adjacent[fill[e.b]++] = e.a;
  }
}

bool shares(const glm::uvec3& t, std::uint32_t v) {
  return t[0] == v || t[1] == v || t[2] == v;
}

Aabb grow(Aabb b, float by) {
  b.min -= glm::vec3(by);
  b.max += glm::vec3(by);
  return b;
}

// The box around vertices v[0..count) over the step, seen from a frame that
// moves by `shift` over it (x → p − shift), grown by `by`. Whether a vertex
// comes near a triangle depends only on their relative motion, so any
// common shift gives the same pairs; the cloth's mean motion keeps the
// boxes of a falling or carried cloth small.
Aabb sweptBox(const State& s, const std::uint32_t* v, int count, const glm::vec3& shift, float by) {
  Aabb b{s.x[v[0]], s.x[v[0]]};
  for (int k = 0; k < count; ++k) {
    const glm::vec3 to = s.p[v[k]] - shift;
    b.min = glm::min(b.min, glm::min(s.x[v[k]], to));
    b.max = glm::max(b.max, glm::max(s.x[v[k]], to));
  }
  return grow(b, by);
}

// Hash cells of two mean edges: a triangle's query (its swept box grown by
// the reach and by the largest vertex box) then spans a few cells a side,
// each holding a few vertices (measured: 1, 2, 3 and 4 edges per cell).
constexpr float kHashCellEdges = 2.0f;

// Triangles per chunk of the parallel lookup (a 128² cloth makes 63
// chunks), and vertices per chunk of the parallel travel and boxes.
constexpr std::size_t kTrianglesPerChunk = 512;
constexpr std::size_t kVerticesPerChunk = 2048;

// One triangle's part in the lookup: its query box (its swept box grown by
// the pair's reach), and which vertices the hash finds there it keeps.
class TriangleLookup {
 public:
  // Set up for triangle t.
  void init(const World& world, std::uint32_t t, const glm::vec3& shift, float base,
            std::uint32_t* seen) {
    sc_ = &world.scratch;
    s_ = &world.state;
    t_ = t;
    tri_ = world.cloth.triangles[t];
    base_ = base;
    seen_ = seen;
    const SolverScratch& sc = *sc_;
    const State& s = *s_;
    moved_ = std::max({sc.selfTravel[tri_[0]], sc.selfTravel[tri_[1]], sc.selfTravel[tri_[2]]});
    box_ = sweptBox(s, &tri_[0], 3, shift, base + moved_);
    pinned_ = s.w[tri_[0]] == 0.0f && s.w[tri_[1]] == 0.0f && s.w[tri_[2]] == 0.0f;
    // The triangle's corners, and the vertices joined by an edge to a
    // corner, are marked seen before the lookup, so that it skips them.
    // Those are left to the cloth's own constraints: a crease folded flat
    // puts the neighbours of its apex edge closer than the thickness, and
    // keeping them apart would fight the stretch and bending constraints.
    for (int k = 0; k < 3; ++k) {
      seen_[tri_[k]] = t;
      for (std::uint32_t j = sc.selfAdjStart[tri_[k]]; j < sc.selfAdjStart[tri_[k] + 1]; ++j)
        seen_[sc.selfAdj[j]] = t;
    }
    planes_ = Planes::Unknown;
  }

  const Aabb& box() const { return box_; }

  // Vertex i, whose box `ib` the hash found near box(): kept for the exact
  // test (test(), which appends its constraint, if it gets one, to
  // `pairs`). Repeats and the triangle's own neighbours (most of what the
  // hash finds) are dropped before the boxes are compared; the comparison
  // gives the same answer each time i comes again, so marking i seen first
  // changes nothing.
  void take(std::uint32_t i, const Aabb& ib, std::vector<SelfContact>& pairs) {
    const State& s = *s_;
    if (seen_[i] == t_) return;
    seen_[i] = t_;
    if (!ib.overlaps(box_)) return;
    if (pinned_ && s.w[i] == 0.0f) return;
    waiting_[waitingCount_++] = i;
    if (waitingCount_ == kWaiting) test(pairs);
  }

  // The exact test of the vertices waiting for it, in the order they came:
  // each one that gets a constraint is appended to `pairs`.
  void test(std::vector<SelfContact>& pairs) {
    const SolverScratch& sc = *sc_;
    const State& s = *s_;
    const int count = waitingCount_;
    waitingCount_ = 0;
    if (count == 0) return;
    // The triangle's planes, when a vertex first needs them (most
    // triangles have no vertex left to test). A sliver gets no constraints.
    if (planes_ == Planes::Unknown) {
      const glm::vec3 from[3] = {s.x[tri_[0]], s.x[tri_[1]], s.x[tri_[2]]};
      const glm::vec3 to[3] = {s.p[tri_[0]], s.p[tri_[1]], s.p[tri_[2]]};
      for (int k = 0; k < 3; ++k) corner_[k] = glm::dvec3(from[k]);
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
      reach[k] = base_ + moved_ + sc.selfTravel[i];
    }
    PlaneTest tests[kWaiting];
    for (int maybe = planeTests(motion_, q0, q1, sc.selfThickness, reach, count, tests); maybe != 0;
         maybe &= maybe - 1) {
      const int k = __builtin_ctz(unsigned(maybe));
      const std::uint32_t i = waiting_[k];
      float approach = 0.0f;
      const int side = sideFrom(motion_, q0[k], q1[k], tests[k], sc.selfThickness, &approach);
      if (side == 0 || passesThrough(i)) continue;
      // Paper eq. 12: from the back, swap p2 and p3 so the normal faces q.
      const float deepest = sc.selfThickness + approach;
      if (side > 0) pairs.push_back({{i, tri_[0], tri_[1], tri_[2]}, false, deepest});
      if (side < 0) pairs.push_back({{i, tri_[0], tri_[2], tri_[1]}, false, deepest});
    }
  }

 private:
  // A vertex with an edge through the triangle at the start of the step is
  // on both of its sides already: the cloth is tangled there. Keeping it on
  // the side it is on would hold the tangle, and as the sheets slide, the
  // contacts of the vertices beyond it would spread it (a 128² drape: 533
  // edge–triangle crossings at frame 39, 177,000 at frame 119); left free,
  // the stretch and bending constraints pull it back out (831 at frame 119).
  bool passesThrough(std::uint32_t q) const {
    const SolverScratch& sc = *sc_;
    const State& s = *s_;
    for (std::uint32_t k = sc.selfAdjStart[q]; k < sc.selfAdjStart[q + 1]; ++k)
      if (segmentCrossesTriangle(glm::dvec3(s.x[q]), glm::dvec3(s.x[sc.selfAdj[k]]), corner_[0],
                                 corner_[1], corner_[2]))
        return true;
    return false;
  }

  const SolverScratch* sc_ = nullptr;
  const State* s_ = nullptr;
  std::uint32_t t_ = 0;
  glm::uvec3 tri_{0};
  float base_ = 0.0f, moved_ = 0.0f;
  std::uint32_t* seen_ = nullptr;
  Aabb box_;
  bool pinned_ = false;
  enum class Planes : std::uint8_t { Unknown, Valid, Sliver } planes_ = Planes::Unknown;
  glm::dvec3 corner_[3];
  TriangleMotion motion_;
  // Vertices that passed the cheap tests, tested exactly four at a time.
  static constexpr int kWaiting = 4;
  std::uint32_t waiting_[kWaiting] = {};
  int waitingCount_ = 0;
};

bool shareEdge(const glm::uvec3& a, const glm::uvec3& b) {
  return int(shares(b, a[0])) + int(shares(b, a[1])) + int(shares(b, a[2])) == 2;
}

// Triangles looked up together: up to this many consecutive ones, each
// sharing an edge with the one before (the two of a quad). On a piled 128²
// drape, detection on one thread took 14.0 ms looking up each triangle
// alone, 12.6 ms in twos, 12.6 ms in fours.
constexpr int kGroup = 2;

// The constraints of triangles t … t + count − 1: the vertices the hash
// finds near each one's query box that vertexTriangleSide accepts, appended
// to `pairs` triangle by triangle, each one's in the hash's order (sorted
// later; the pairs of one vertex come in triangle order). Neighbouring
// triangles have boxes that mostly overlap, so one lookup of their joint box
// serves them all; `found` holds what it finds. seen[k] (one entry per
// vertex) drops repeats for the k-th triangle.
void findPairs(const World& world, std::uint32_t t, int count, const glm::vec3& shift, float base,
               std::vector<std::uint32_t>* seen, std::vector<std::uint32_t>& found,
               std::vector<SelfContact>& pairs) {
  TriangleLookup group[kGroup];
  for (int k = 0; k < count; ++k)
    group[k].init(world, t + std::uint32_t(k), shift, base, seen[k].data());
  Aabb joint = group[0].box();
  for (int k = 1; k < count; ++k) {
    joint.min = glm::min(joint.min, group[k].box().min);
    joint.max = glm::max(joint.max, group[k].box().max);
  }
  const std::size_t n = world.scratch.selfHash.collect(joint, found);
  if (count == 1) {
    for (std::size_t j = 0; j < n; ++j) group[0].take(found[j], joint, pairs);
    group[0].test(pairs);
    return;
  }
  const std::vector<Aabb>& boxes = world.scratch.selfBoxes;
  for (int k = 0; k < count; ++k) {
    for (std::size_t j = 0; j < n; ++j) group[k].take(found[j], boxes[found[j]], pairs);
    group[k].test(pairs);
  }
}

}  // namespace

float selfThickness(float thickness, float meanEdge) {
  return std::min(thickness, kSelfThicknessPerEdge * meanEdge);
}

float meanRestEdge(const Cloth& cloth) {
  double sum = 0.0;
  for (const StretchConstraint& e : cloth.stretch) sum += double(e.rest);
  return cloth.stretch.empty() ? 0.0f : float(sum / double(cloth.stretch.size()));
}

int vertexTriangleSide(const glm::vec3 (&from)[4], const glm::vec3 (&to)[4], float thickness,
                       float reach) {
  const TriangleMotion m = triangleMotion(&from[1], &to[1]);
  if (!m.start.valid || !m.end.valid) return 0;
  return sideFrom(m, from[0], to[0], planeTest(m, from[0], to[0], thickness, reach), thickness);
}

void vertexTriangleSides(const glm::vec3 (&triangleFrom)[3], const glm::vec3 (&triangleTo)[3],
                         const glm::vec3* from, const glm::vec3* to, const float* reach, int count,
                         float thickness, int* side) {
  const TriangleMotion m = triangleMotion(triangleFrom, triangleTo);
  for (int begin = 0; begin < count; begin += 4) {
    const int n = std::min(4, count - begin);
    glm::vec3 q0[4], q1[4];
    float r[4];
    for (int k = 0; k < 4; ++k) {
      const int j = begin + (k < n ? k : 0);
      q0[k] = from[j];
      q1[k] = to[j];
      r[k] = reach[j];
    }
    PlaneTest tests[4];
    const int maybe =
        m.start.valid && m.end.valid ? planeTests(m, q0, q1, thickness, r, n, tests) : 0;
    for (int k = 0; k < n; ++k)
      side[begin + k] = (maybe >> k) & 1 ? sideFrom(m, q0[k], q1[k], tests[k], thickness) : 0;
  }
}

namespace {

// The reach of a pair beyond its travel: the thickness h plus a margin of
// at least h for what the iterations move.
float pairBase(float h, float cell) {
  return h + std::max(h, 0.05f * cell);
}

}  // namespace

bool prepareSelfContacts(World& world) {
  SolverScratch& sc = world.scratch;
  sc.selfContacts.clear();
  if (world.params.self_collision == 0) return false;
  const Cloth& cloth = world.cloth;
  const State& s = world.state;
  const std::size_t n = s.x.size();
  if (sc.selfCellVersion != cloth.topologyVersion || sc.selfCellEdges != cloth.stretch.size() ||
      sc.selfAdjStart.size() != n + 1) {
    sc.selfCell = meanRestEdge(cloth);
    buildAdjacency(cloth, sc.selfAdjStart, sc.selfAdj);
    sc.selfCellVersion = cloth.topologyVersion;
    sc.selfCellEdges = cloth.stretch.size();
  }
  if (!(sc.selfCell > 0.0f) || n == 0) return false;
  sc.selfThickness = selfThickness(world.params.thickness, sc.selfCell);

  // The cloth's mean motion over the step: the frame the boxes are seen from.
  glm::dvec3 sum(0.0);
  for (std::size_t i = 0; i < n; ++i) sum += glm::dvec3(s.p[i] - s.x[i]);
  sc.selfShift = glm::vec3(sum / double(n));
  const glm::vec3 shift = sc.selfShift;

  // Constraints are made once per sub-step, so they must also cover what
  // the iterations move a vertex towards a triangle it was not near: the
  // reach of a pair is pairBase(), grown by how far its vertices travel in
  // the step against the mean motion of their neighbours (the solve's
  // corrections come from such relative motion; a cloth falling or swinging
  // as a whole barely changes shape), each travel counted up to one cell.
  // Against the cloth's mean motion instead, a swinging 128² cloth had 4–10
  // times the contacts, and fold and drape at 64² ended with more
  // edge–triangle crossings. Teschner et al.: the vertices go into the hash
  // by their swept boxes (grown by their travel; mostly one cell each), and
  // every triangle looks up the cells of its own swept box grown by the rest
  // of the pair's reach.
  ThreadTeam& team =
      threadTeam(solverThreads(world.params.threads, cloth.stretch.size() + cloth.bend.size()));
  sc.selfTravel.resize(n);
  sc.selfBoxes.resize(n);
  forEachChunk(team, (n + kVerticesPerChunk - 1) / kVerticesPerChunk, [&](std::size_t c, int) {
    const std::uint32_t end = std::uint32_t(std::min(n, (c + 1) * kVerticesPerChunk));
    for (std::uint32_t i = std::uint32_t(c * kVerticesPerChunk); i < end; ++i) {
      const std::uint32_t b = sc.selfAdjStart[i], e = sc.selfAdjStart[i + 1];
      glm::vec3 mean(0.0f);
      for (std::uint32_t k = b; k < e; ++k) mean += s.p[sc.selfAdj[k]] - s.x[sc.selfAdj[k]];
      const glm::vec3 local = e > b ? mean / float(e - b) : shift;
      sc.selfTravel[i] = std::min(glm::length(s.p[i] - s.x[i] - local), sc.selfCell);
      sc.selfBoxes[i] = sweptBox(s, &i, 1, shift, sc.selfTravel[i]);
    }
  });
  return true;
}

void buildSelfHash(World& world) {
  SolverScratch& sc = world.scratch;
  // Each vertex once, by the centre of its box (SpatialHash::Insert).
  sc.selfHash.build(sc.selfBoxes, kHashCellEdges * sc.selfCell, SpatialHash::Insert::Centre);
}

void findSelfContacts(World& world) {
  SolverScratch& sc = world.scratch;
  const Cloth& cloth = world.cloth;
  const std::size_t n = world.state.x.size();
  const glm::vec3 shift = sc.selfShift;
  const float base = pairBase(sc.selfThickness, sc.selfCell);
  ThreadTeam& team =
      threadTeam(solverThreads(world.params.threads, cloth.stretch.size() + cloth.bend.size()));
  // The triangles are taken by the solver's threads in chunks, whichever
  // thread is free next (piled-up regions cost far more than flat ones);
  // each chunk's pairs come out in triangle order, and the chunks are joined
  // in order, so the result is the same for any thread count.
  const std::vector<glm::uvec3>& tris = cloth.triangles;
  const std::size_t chunks = (tris.size() + kTrianglesPerChunk - 1) / kTrianglesPerChunk;
  sc.selfChunkPairs.resize(std::max(sc.selfChunkPairs.size(), chunks));
  sc.selfThreadSeen.resize(std::size_t(kGroup) * std::size_t(team.size()));
  sc.selfThreadFound.resize(std::size_t(team.size()));
  for (std::vector<std::uint32_t>& seen : sc.selfThreadSeen) seen.assign(n, UINT32_MAX);
  forEachChunk(team, chunks, [&](std::size_t c, int thread) {
    std::vector<SelfContact>& pairs = sc.selfChunkPairs[c];
    pairs.clear();
    std::vector<std::uint32_t>* seen =
        &sc.selfThreadSeen[std::size_t(kGroup) * std::size_t(thread)];
    std::vector<std::uint32_t>& found = sc.selfThreadFound[std::size_t(thread)];
    const std::size_t end = std::min(tris.size(), (c + 1) * kTrianglesPerChunk);
    for (std::size_t t = c * kTrianglesPerChunk; t < end;) {
      int count = 1;
      while (count < kGroup && t + std::size_t(count) < end &&
             shareEdge(tris[t + std::size_t(count) - 1], tris[t + std::size_t(count)]))
        ++count;
      findPairs(world, std::uint32_t(t), count, shift, base, seen, found, pairs);
      t += std::size_t(count);
    }
  });
  // In vertex order (a stable counting sort keeps the triangles ascending
  // within each vertex), whatever the hash's layout.
  sc.selfStart.assign(n + 1, 0);
  std::size_t total = 0;
  for (std::size_t c = 0; c < chunks; ++c) {
    for (const SelfContact& pair : sc.selfChunkPairs[c]) ++sc.selfStart[pair.v[0] + 1];
    total += sc.selfChunkPairs[c].size();
  }
  for (std::size_t i = 0; i < n; ++i) sc.selfStart[i + 1] += sc.selfStart[i];
  sc.selfContacts.resize(total);
  for (std::size_t c = 0; c < chunks; ++c)
    for (const SelfContact& pair : sc.selfChunkPairs[c])
      sc.selfContacts[sc.selfStart[pair.v[0]]++] = pair;
}

void generateSelfContacts(World& world) {
  if (!prepareSelfContacts(world)) return;
  buildSelfHash(world);
  findSelfContacts(world);
}

void solveSelfContacts(const Points& pts, SelfContact* contacts, std::size_t count,
                       float thickness) {
  const float skipAbove = (1.0f + 1e-4f) * thickness * thickness;
  for (std::size_t j = 0; j < count; ++j) {
    SelfContact& c = contacts[j];
    const glm::vec3 &q = pts.p(c.v[0]), &p1 = pts.p(c.v[1]);
    const glm::vec3 &p2 = pts.p(c.v[2]), &p3 = pts.p(c.v[3]);
    // Most constraints hold in a given iteration (on a piled-up 128² drape,
    // one in four acts at all during the step). (q − p1)·N > h |N|, squared,
    // skips them without a square root or the gradients; the margin, far
    // above the rounding of either form, keeps it from skipping one that
    // the full evaluation would project.
    const glm::vec3 N = glm::cross(p2 - p1, p3 - p1);
    const float dN = glm::dot(q - p1, N);
    if (dN > 0.0f && dN * dN > skipAbove * glm::dot(N, N)) continue;
    ConstraintEval<4, float> e = evalVertexTriangle(q, p1, p2, p3, thickness);
    if (!e.valid || e.C >= 0.0f) continue;
    // At most c.deepest per projection: the thickness, plus the way the
    // vertex itself came towards the plane in the step (a fast vertex that
    // passed through is put back at once). A vertex pushed deeper than that
    // by the solve (layers pressed together, each pushed into the next) is
    // moved out over several iterations instead of flung out in one, as
    // rigid-body solvers bound their speed of depenetration. Flung out,
    // those moves fed back: on a 104², 112² or 120² drape the contacts
    // doubled every frame once it piled up, 10,000 to 2 million in about
    // ten frames.
    e.C = std::max(e.C, -c.deepest);
    float w[4];
    for (int k = 0; k < 4; ++k) w[k] = pts.invMass(c.v[k]);
    float scale;
    if (!pbdScale(e, w, scale)) continue;
    for (int k = 0; k < 4; ++k) pts.p(c.v[k]) -= (scale * w[k]) * e.grad[k];
    c.touched = true;
  }
}

void partitionSelfContacts(SolverScratch& sc, std::size_t vertexCount) {
  std::vector<SelfContact>& contacts = sc.selfContacts;
  auto block = [&](std::uint32_t v) { return std::size_t(v) * kSelfBlocks / vertexCount; };
  auto group = [&](const SelfContact& c) {
    const std::size_t b = block(c.v[0]);
    for (int k = 1; k < 4; ++k)
      if (block(c.v[k]) != b) return kSelfBlocks;
    return b;
  };
  std::vector<std::uint32_t>& start = sc.selfBlockStart;
  start.assign(kSelfBlocks + 2, 0);
  for (const SelfContact& c : contacts) ++start[group(c) + 1];
  for (std::size_t g = 0; g <= kSelfBlocks; ++g) start[g + 1] += start[g];
  std::uint32_t fill[kSelfBlocks + 1];
  std::copy(start.begin(), start.end() - 1, fill);
  sc.selfSorted.resize(contacts.size());
  for (const SelfContact& c : contacts) sc.selfSorted[fill[group(c)]++] = c;
  contacts.swap(sc.selfSorted);
}

std::size_t countSelfIntersections(const World& world) {
  const Cloth& cloth = world.cloth;
  const std::vector<glm::vec3>& x = world.state.x;
  const float cell = meanRestEdge(cloth);
  if (!(cell > 0.0f)) return 0;
  std::vector<Aabb> boxes(cloth.triangles.size());
  for (std::size_t t = 0; t < boxes.size(); ++t) {
    const glm::uvec3& tri = cloth.triangles[t];
    boxes[t].min = glm::min(x[tri[0]], glm::min(x[tri[1]], x[tri[2]]));
    boxes[t].max = glm::max(x[tri[0]], glm::max(x[tri[1]], x[tri[2]]));
  }
  SpatialHash hash;
  hash.build(boxes, cell);
  std::vector<std::uint32_t> candidates;
  std::size_t crossings = 0;
  for (const StretchConstraint& e : cloth.stretch) {
    hash.query({glm::min(x[e.a], x[e.b]), glm::max(x[e.a], x[e.b])}, candidates);
    for (std::uint32_t t : candidates) {
      const glm::uvec3& tri = cloth.triangles[t];
      if (shares(tri, e.a) || shares(tri, e.b)) continue;
      if (segmentCrossesTriangle(glm::dvec3(x[e.a]), glm::dvec3(x[e.b]), glm::dvec3(x[tri[0]]),
                                 glm::dvec3(x[tri[1]]), glm::dvec3(x[tri[2]])))
        ++crossings;
    }
  }
  return crossings;
}

}  // namespace drape::sim
