#pragma once
// Picking by ray casting on the CPU, against the cloth's current positions
// (no GPU read-back: the positions are on the CPU anyway, and a frame's cast
// over every triangle is cheap at cloth sizes).
//
// A hit on triangle (a, b, c) is described by the ray parameter t and the
// barycentric weights of b and c:
//
//        c                point = (1 − u − v)·a + u·b + v·c
//       / \               inside: u ≥ 0, v ≥ 0, u + v ≤ 1
//      / • \              (• = origin + t·direction)
//     a-----b

#include <cstdint>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "render/camera.hpp"
#include "sim/cloth.hpp"

namespace drape::render {

struct TriangleHit {
  float t;     // along the ray, in units of its (unit) direction: metres
  float u, v;  // barycentric weights of b and c
};

// Möller–Trumbore ray–triangle intersection, two-sided (a cloth has no back
// face to skip). Only hits in front of the origin (t > 0) count; rays in the
// triangle's plane and degenerate triangles never hit.
std::optional<TriangleHit> intersectTriangle(const Ray& ray, const glm::vec3& a, const glm::vec3& b,
                                             const glm::vec3& c);

struct MeshHit {
  std::uint32_t triangle;  // index into the triangle list
  std::uint32_t vertex;    // the triangle's corner nearest to the hit point
  float t;
  glm::vec3 point;
};

// The nearest triangle the ray hits, and its corner closest to the hit.
// Triangles naming a vertex outside `positions` are skipped.
std::optional<MeshHit> pickMesh(const Ray& ray, const std::vector<glm::vec3>& positions,
                                const std::vector<glm::uvec3>& triangles);

inline constexpr std::uint32_t kNoTriangle = UINT32_MAX;

// The nearest rope segment (a, b) that the camera's ray through a window
// point passes within `radius` metres of (never under `minPixels` across,
// as a thin tube far away stays clickable), as a hit on its nearer end;
// its `triangle` is kNoTriangle. Segments naming a vertex outside
// `positions` are skipped.
std::optional<MeshHit> pickRope(const Camera& camera, float screenX, float screenY,
                                const std::vector<glm::vec3>& positions,
                                const std::vector<sim::RopeSegment>& segments, float radius,
                                float minPixels);

struct MarkerHit {
  std::size_t index;  // into the markers' centres
  float t;            // along the ray to the centre's nearest approach
};

// The nearest marker the camera's ray through a window point hits, drawn as
// a sphere of `radius` metres but never under `minPixels` across (as the
// renderer draws pins): a small marker far away stays as easy to click as it
// is to see.
std::optional<MarkerHit> pickMarker(const Camera& camera, float screenX, float screenY,
                                    const std::vector<glm::vec3>& centres, float radius,
                                    float minPixels);

// Where the ray meets the plane through `point` with normal `normal`; none
// when the ray runs parallel to the plane or meets it behind its origin.
std::optional<glm::vec3> intersectPlane(const Ray& ray, const glm::vec3& point,
                                        const glm::vec3& normal);

}  // namespace drape::render
