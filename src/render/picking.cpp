#include "render/picking.hpp"

#include <algorithm>

#include <cmath>
#include <limits>

namespace drape::render {

std::optional<TriangleHit> intersectTriangle(const Ray& ray, const glm::vec3& a, const glm::vec3& b,
                                             const glm::vec3& c) {
  const glm::vec3 e1 = b - a, e2 = c - a;
  const glm::vec3 p = glm::cross(ray.direction, e2);
  const float det = glm::dot(e1, p);
  // det = direction · (e1 × e2): near zero when the ray lies in the plane or
  // the triangle has no area. Relative to the triangle's size, so that tiny
  // and huge meshes are judged alike.
  const float scale = glm::length(e1) * glm::length(e2);
  if (!(std::abs(det) > 1e-7f * scale)) return std::nullopt;
  const float inv = 1.0f / det;
  const glm::vec3 s = ray.origin - a;
  const float u = glm::dot(s, p) * inv;
  if (u < 0.0f || u > 1.0f) return std::nullopt;
  const glm::vec3 q = glm::cross(s, e1);
  const float v = glm::dot(ray.direction, q) * inv;
  if (v < 0.0f || u + v > 1.0f) return std::nullopt;
  const float t = glm::dot(e2, q) * inv;
  if (!(t > 0.0f)) return std::nullopt;
  return TriangleHit{t, u, v};
}

namespace {

// How far from a point a pick may pass and still take it: `radius`, but at
// least `minPixels` across on screen at its depth (as the marker shader
// sizes its sprites), so small things far away stay pickable.
struct ScreenReach {
  ScreenReach(const Camera& camera, float radius, float minPixels)
      : forward(camera.forward()),
        radius(radius),
        // Metres per screen pixel at distance 1 along the view, times half the pixels.
        halfPixels(minPixels / (camera.projection()[1][1] * camera.viewportHeight())) {}
  float at(float depth) const { return std::max(radius, halfPixels * depth); }
  glm::vec3 forward;
  float radius, halfPixels;
};

}  // namespace

std::optional<MeshHit> pickMesh(const Ray& ray, const std::vector<glm::vec3>& positions,
                                const std::vector<glm::uvec3>& triangles) {
  const std::size_t n = positions.size();
  std::optional<MeshHit> best;
  float bestT = std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    const glm::uvec3 tri = triangles[i];
    if (tri.x >= n || tri.y >= n || tri.z >= n) continue;
    const auto hit = intersectTriangle(ray, positions[tri.x], positions[tri.y], positions[tri.z]);
    if (!hit || hit->t >= bestT) continue;
    bestT = hit->t;
    const glm::vec3 point = ray.origin + hit->t * ray.direction;
    std::uint32_t corner = tri.x;
    float nearest = glm::dot(point - positions[tri.x], point - positions[tri.x]);
    for (const std::uint32_t k : {tri.y, tri.z}) {
      const float d2 = glm::dot(point - positions[k], point - positions[k]);
      if (d2 < nearest) {
        nearest = d2;
        corner = k;
      }
    }
    best = MeshHit{std::uint32_t(i), corner, hit->t, point};
  }
  return best;
}

std::optional<MeshHit> pickRope(const Camera& camera, float screenX, float screenY,
                                const std::vector<glm::vec3>& positions,
                                const std::vector<sim::RopeSegment>& segments, float radius,
                                float minPixels) {
  const Ray ray = camera.ray(screenX, screenY);
  const ScreenReach reach(camera, radius, minPixels);
  std::optional<MeshHit> best;
  for (const sim::RopeSegment& s : segments) {
    if (s.a >= positions.size() || s.b >= positions.size()) continue;
    const glm::vec3 a = positions[s.a], u = positions[s.b] - a, w0 = ray.origin - a;
    // The closest points of the ray's line and the segment.
    const float b = glm::dot(ray.direction, u), c = glm::dot(u, u);
    const float d = glm::dot(ray.direction, w0), e = glm::dot(u, w0);
    const float denom = c - b * b;
    float along = denom > 1e-12f * std::max(c, 1e-30f) ? (e - b * d) / denom : 0.0f;
    along = c > 0.0f ? std::clamp(along, 0.0f, 1.0f) : 0.0f;
    const glm::vec3 point = a + along * u;
    const float t = glm::dot(point - ray.origin, ray.direction);
    const float depth = glm::dot(point - ray.origin, reach.forward);
    if (!(t > 0.0f) || !(depth > 0.0f)) continue;
    const float r = reach.at(depth);
    const glm::vec3 miss = point - (ray.origin + t * ray.direction);
    if (glm::dot(miss, miss) > r * r) continue;
    if (best && t >= best->t) continue;
    best = MeshHit{kNoTriangle, along < 0.5f ? s.a : s.b, t, point};
  }
  return best;
}

std::optional<MarkerHit> pickMarker(const Camera& camera, float screenX, float screenY,
                                    const std::vector<glm::vec3>& centres, float radius,
                                    float minPixels) {
  const Ray ray = camera.ray(screenX, screenY);
  const ScreenReach reach(camera, radius, minPixels);
  std::optional<MarkerHit> best;
  for (std::size_t i = 0; i < centres.size(); ++i) {
    const glm::vec3 toCentre = centres[i] - ray.origin;
    const float depth = glm::dot(toCentre, reach.forward);
    if (!(depth > 0.0f)) continue;
    const float r = reach.at(depth);
    const float t = glm::dot(toCentre, ray.direction);
    const glm::vec3 miss = toCentre - t * ray.direction;
    if (glm::dot(miss, miss) > r * r) continue;
    if (!best || t < best->t) best = MarkerHit{i, t};
  }
  return best;
}

std::optional<glm::vec3> intersectPlane(const Ray& ray, const glm::vec3& point,
                                        const glm::vec3& normal) {
  const float denom = glm::dot(ray.direction, normal);
  if (!(std::abs(denom) > 1e-6f * glm::length(normal))) return std::nullopt;
  const float t = glm::dot(point - ray.origin, normal) / denom;
  if (!(t > 0.0f)) return std::nullopt;
  return ray.origin + t * ray.direction;
}

}  // namespace drape::render
