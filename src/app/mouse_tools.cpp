#include "app/mouse_tools.hpp"

#include <algorithm>
#include <limits>

#include "render/picking.hpp"
#include "render/renderer.hpp"
#include "sim/sim.hpp"

namespace drape::app {
namespace {

// A throw faster than this is clamped: a flick whose cursor ran far along a
// plane seen nearly edge-on would otherwise launch a vertex at hundreds of
// m/s, which no cloth survives in one step.
constexpr float kMaxThrowSpeed = 20.0f;  // m/s

// Strokes are followed in steps of this many pixels, so that a quick
// stroke leaves no vertex out between two frames.
constexpr float kStrokePixels = 3.0f;
// The Tear tool's stretch ratio while the `tear` slider is 0 (off).
constexpr float kTearRatio = 1.5f;

// The cloth's triangles or its ropes' tubes, whichever the ray meets first
// (a rope's hit has no triangle: render::kNoTriangle).
std::optional<render::MeshHit> pick(double x, double y, const render::Camera& camera,
                                    const sim::World& world) {
  auto hit = render::pickMesh(camera.ray(float(x), float(y)), world.state.x, world.cloth.triangles);
  if (world.cloth.ropes.empty()) return hit;
  const render::Look look;
  const auto rope = render::pickRope(camera, float(x), float(y), world.state.x,
                                     world.cloth.ropeSegments, look.ropeRadius, look.pinMinPixels);
  if (rope && (!hit || rope->t < hit->t)) return rope;
  return hit;
}

float distanceToSegment(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b) {
  const glm::vec3 ab = b - a;
  const float len2 = glm::dot(ab, ab);
  const float t = len2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
  return glm::length(p - (a + t * ab));
}

// The stretch constraint of the mesh edge (a, b); none when it has none.
std::optional<std::uint32_t> edgeIndex(const sim::Cloth& cloth, std::uint32_t a, std::uint32_t b) {
  for (std::size_t i = 0; i < cloth.stretch.size(); ++i) {
    const sim::StretchConstraint& c = cloth.stretch[i];
    if ((c.a == a && c.b == b) || (c.a == b && c.b == a)) return std::uint32_t(i);
  }
  return std::nullopt;
}

// Pieces of the cloth with only one or two triangles: loose slivers.
std::size_t countSlivers(const sim::Cloth& cloth) {
  std::vector<std::uint32_t> triangles(cloth.pieceCount, 0);
  for (const glm::uvec3& t : cloth.triangles)
    if (t.x < cloth.piece.size() && cloth.piece[t.x] < triangles.size())
      ++triangles[cloth.piece[t.x]];
  return std::size_t(std::count_if(triangles.begin(), triangles.end(),
                                   [](std::uint32_t n) { return n > 0 && n <= 2; }));
}

// Cut the edge (a, b) unless the cut would leave a new loose sliver: then
// the cloth stays as it was (a split re-partitions every triangle around
// the vertex it splits, so what it cuts off is known only once it is made).
void cutUnlessSliver(sim::World& world, std::uint32_t edge) {
  const std::size_t slivers = countSlivers(world.cloth);
  sim::Cloth cloth = world.cloth;
  sim::State state = world.state;
  const std::uint64_t torn = world.tornEdges;
  sim::tearEdge(world, edge);
  if (countSlivers(world.cloth) <= slivers) return;
  world.cloth = std::move(cloth);
  world.state = std::move(state);
  world.tornEdges = torn;
}

}  // namespace

std::optional<std::uint32_t> MouseTools::vertexAt(double x, double y, const render::Camera& camera,
                                                  const sim::World& world) const {
  const auto hit = pick(x, y, camera, world);
  std::vector<glm::vec3> centres;
  for (const sim::Pin& p : world.pins)
    if (p.vertex < world.state.x.size()) centres.push_back(world.state.x[p.vertex]);
  const render::Look look;
  const auto marker =
      render::pickMarker(camera, float(x), float(y), centres, look.pinRadius, look.pinMinPixels);
  // The marker sits on the cloth at its pin: it counts when it is no
  // further than its own radius behind the cloth's surface hit.
  if (marker && (!hit || marker->t <= hit->t + look.pinRadius))
    return world.pins[marker->index].vertex;
  if (hit) return hit->vertex;
  return std::nullopt;
}

bool MouseTools::press(double x, double y, bool ctrl, const render::Camera& camera,
                       sim::World& world) {
  move(x, y);
  if (tool == Tool::Cut && !ctrl) {
    stroking_ = true;
    onCloth_ = false;
    strokeCursor_ = cursor_;
    trail_.assign(1, cursor_);
    lastVertex_ = lastOther_ = UINT32_MAX;
    strokeAt(cursor_.x, cursor_.y, camera, world);
    return true;
  }
  const auto vertex = vertexAt(x, y, camera, world);
  if (!vertex) return false;
  if (ctrl || tool == Tool::Pin) {
    if (sim::isPinned(world, *vertex))
      sim::unpinVertex(world, *vertex);
    else
      sim::pinVertex(world, *vertex);
    return true;
  }
  sim::startGrab(
      world, *vertex,
      tool == Tool::Tear ? (world.params.tear > 0.0f ? world.params.tear : kTearRatio) : 0.0f);
  holding_ = true;
  target_ = world.state.x[*vertex];
  samples_[0] = {world.time, target_};
  sampleCount_ = 1;
  return true;
}

void MouseTools::strokeAt(float x, float y, const render::Camera& camera, sim::World& world) {
  const render::Ray ray = camera.ray(x, y);
  const auto hit = pick(x, y, camera, world);
  if (!hit) return;
  if (hit->triangle == render::kNoTriangle) {
    // A rope: the stroke cuts the segment it crosses, one that ends at
    // the vertex the hit is nearer.
    const std::vector<sim::RopeSegment>& segments = world.cloth.ropeSegments;
    for (std::uint32_t i = 0; i < segments.size(); ++i) {
      const sim::RopeSegment& s = segments[i];
      if (s.a != hit->vertex && s.b != hit->vertex) continue;
      if (distanceToSegment(hit->point, world.state.x[s.a], world.state.x[s.b]) > 1e-3f) continue;
      if (sim::cutRopeSegment(world.cloth, i)) ++world.tornEdges;
      break;
    }
    strokePoint_ = hit->point;
    return;
  }
  // Of the triangle's edges, the nearest one that the stroke crosses (its
  // ends on either side of the plane through the stroke's way and the line
  // of sight), so that edges along the stroke stay whole; where the stroke
  // first meets the cloth, and its way is not known yet, the nearest.
  const glm::vec3 across =
      onCloth_ ? glm::cross(hit->point - strokePoint_, ray.direction) : glm::vec3(0.0f);
  const bool known = glm::length(across) > 1e-9f;
  onCloth_ = true;
  const glm::uvec3 tri = world.cloth.triangles[hit->triangle];
  const std::uint32_t corners[3] = {tri.x, tri.y, tri.z};
  int best = -1;
  float nearest = std::numeric_limits<float>::max();
  for (int k = 0; k < 3; ++k) {
    const glm::vec3 pa = world.state.x[corners[k]], pb = world.state.x[corners[(k + 1) % 3]];
    if (known && glm::dot(pa - hit->point, across) * glm::dot(pb - hit->point, across) > 0.0f)
      continue;
    const float d = distanceToSegment(hit->point, pa, pb);
    if (d < nearest) {
      nearest = d;
      best = k;
    }
  }
  strokePoint_ = hit->point;
  if (best < 0) return;
  const std::uint32_t a = corners[best], b = corners[(best + 1) % 3];
  if ((a == lastVertex_ && b == lastOther_) || (a == lastOther_ && b == lastVertex_)) return;
  lastVertex_ = a;
  lastOther_ = b;
  if (const auto edge = edgeIndex(world.cloth, a, b)) cutUnlessSliver(world, *edge);
}

void MouseTools::update(const render::Camera& camera, sim::World& world) {
  if (stroking_) {
    // Along the cursor's way since the last frame, a few pixels at a time.
    const glm::vec2 from = strokeCursor_, to = cursor_;
    const int n = int(glm::length(to - from) / kStrokePixels) + 1;
    for (int i = 1; i <= n; ++i) {
      const glm::vec2 p = from + (to - from) * (float(i) / float(n));
      strokeAt(p.x, p.y, camera, world);
    }
    strokeCursor_ = cursor_;
    constexpr std::size_t kTrailMax = 4096;  // points drawn; a longer stroke keeps its start
    if (trail_.size() < kTrailMax && trail_.back() != cursor_) trail_.push_back(cursor_);
    return;
  }
  if (!holding_) return;
  if (!world.grab.active) {  // let go elsewhere (rolled back, pinned over)
    holding_ = false;
    return;
  }
  const render::Ray ray = camera.ray(cursor_.x, cursor_.y);
  if (const auto p = render::intersectPlane(ray, target_, camera.forward())) target_ = *p;
  sim::moveGrab(world, target_);
  // One sample per simulated frame: while the time stands still (paused),
  // the newest sample is replaced.
  if (sampleCount_ > 0 && samples_[sampleCount_ - 1].time == world.time) {
    samples_[sampleCount_ - 1].target = target_;
    return;
  }
  if (sampleCount_ == kSamples) {
    std::rotate(samples_.begin(), samples_.begin() + 1, samples_.end());
    --sampleCount_;
  }
  samples_[sampleCount_++] = {world.time, target_};
}

glm::vec3 MouseTools::handVelocity() const {
  if (sampleCount_ < 2) return glm::vec3(0.0f);
  const Sample& first = samples_[0];
  const Sample& last = samples_[sampleCount_ - 1];
  const double dt = last.time - first.time;
  if (!(dt > 0.0)) return glm::vec3(0.0f);
  glm::vec3 v = (last.target - first.target) / float(dt);
  const float speed = glm::length(v);
  if (speed > kMaxThrowSpeed) v *= kMaxThrowSpeed / speed;
  return v;
}

void MouseTools::release(sim::World& world) {
  if (stroking_) {
    cancel();
    return;
  }
  if (!holding_) return;
  sim::endGrab(world, handVelocity());
  cancel();
}

void MouseTools::cancel() {
  holding_ = false;
  stroking_ = false;
  sampleCount_ = 0;
  trail_.clear();
}

std::optional<std::uint32_t> MouseTools::vertexUnderCursor(const render::Camera& camera,
                                                           const sim::World& world) const {
  return vertexAt(cursor_.x, cursor_.y, camera, world);
}

}  // namespace drape::app
