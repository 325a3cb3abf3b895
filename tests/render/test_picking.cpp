// Picking math without a GL context: ray–triangle, the nearest hit on a
// mesh and its nearest corner, ray–plane, the camera-facing drag plane, and
// framing a box in the free part of the window.

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "render/camera.hpp"
#include "render/picking.hpp"

namespace drape::render {
namespace {

const glm::vec3 kA{0, 0, 0}, kB{1, 0, 0}, kC{0, 1, 0};  // in the plane z = 0

Ray down(float x, float y) {  // from z = 2 towards −z
  return {{x, y, 2.0f}, {0.0f, 0.0f, -1.0f}};
}

// Where a world point shows on the screen (the inverse of Camera::ray).
glm::vec2 project(const Camera& c, const glm::vec3& p, float width, float height) {
  const glm::vec4 clip = c.viewProjection() * glm::vec4(p, 1.0f);
  return {(clip.x / clip.w + 1.0f) * 0.5f * width, (1.0f - clip.y / clip.w) * 0.5f * height};
}

TEST(RayTriangle, HitInsideGivesDistanceAndBarycentrics) {
  const auto hit = intersectTriangle(down(0.25f, 0.5f), kA, kB, kC);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->t, 2.0f, 1e-6f);
  EXPECT_NEAR(hit->u, 0.25f, 1e-6f);  // weight of b = x
  EXPECT_NEAR(hit->v, 0.5f, 1e-6f);   // weight of c = y
}

TEST(RayTriangle, MissesOutsideTheTriangle) {
  EXPECT_FALSE(intersectTriangle(down(0.6f, 0.6f), kA, kB, kC));  // beyond the hypotenuse
  EXPECT_FALSE(intersectTriangle(down(-0.01f, 0.5f), kA, kB, kC));
  EXPECT_FALSE(intersectTriangle(down(0.5f, -0.01f), kA, kB, kC));
}

TEST(RayTriangle, EdgesAndCornersCount) {
  EXPECT_TRUE(intersectTriangle(down(0.5f, 0.0f), kA, kB, kC));
  EXPECT_TRUE(intersectTriangle(down(0.0f, 0.0f), kA, kB, kC));
  EXPECT_TRUE(intersectTriangle(down(0.5f, 0.5f), kA, kB, kC));
}

TEST(RayTriangle, TwoSided) {
  // The same triangle wound the other way, and a ray from below.
  EXPECT_TRUE(intersectTriangle(down(0.2f, 0.2f), kA, kC, kB));
  const Ray up{{0.2f, 0.2f, -3.0f}, {0.0f, 0.0f, 1.0f}};
  const auto hit = intersectTriangle(up, kA, kB, kC);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->t, 3.0f, 1e-6f);
}

TEST(RayTriangle, NothingBehindTheOriginOrAlongThePlane) {
  const Ray away{{0.2f, 0.2f, 2.0f}, {0.0f, 0.0f, 1.0f}};
  EXPECT_FALSE(intersectTriangle(away, kA, kB, kC));
  const Ray inPlane{{-1.0f, 0.2f, 0.0f}, {1.0f, 0.0f, 0.0f}};
  EXPECT_FALSE(intersectTriangle(inPlane, kA, kB, kC));
  // Degenerate: all three corners on a line.
  EXPECT_FALSE(intersectTriangle(down(0.5f, 0.0f), kA, kB, {2, 0, 0}));
}

TEST(RayTriangle, ScaleInvariant) {
  // A triangle a micrometre wide is hit like a metre-wide one.
  const float s = 1e-6f;
  const auto hit = intersectTriangle(down(0.25f * s, 0.25f * s), kA * s, kB * s, kC * s);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->u, 0.25f, 1e-4f);
}

TEST(PickMesh, NearestTriangleAndItsClosestCorner) {
  // Two unit squares (two triangles each), one at z = 0 and one at z = 1
  // (nearer to a ray from z = 2).
  const std::vector<glm::vec3> x = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                    {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  const std::vector<glm::uvec3> t = {{0, 1, 2}, {0, 2, 3}, {4, 5, 6}, {4, 6, 7}};
  const auto hit = pickMesh(down(0.9f, 0.2f), x, t);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->triangle, 2u);
  EXPECT_EQ(hit->vertex, 5u);  // (1, 0, 1) is the nearest corner to (0.9, 0.2)
  EXPECT_NEAR(hit->t, 1.0f, 1e-6f);
  EXPECT_NEAR(hit->point.x, 0.9f, 1e-6f);
  const auto other = pickMesh(down(0.1f, 0.8f), x, t);
  ASSERT_TRUE(other);
  EXPECT_EQ(other->triangle, 3u);
  EXPECT_EQ(other->vertex, 7u);
  EXPECT_FALSE(pickMesh(down(1.5f, 0.5f), x, t));
}

TEST(PickMesh, SkipsTrianglesWithStaleIndices) {
  const std::vector<glm::vec3> x = {kA, kB, kC};
  const std::vector<glm::uvec3> t = {{0, 1, 7}, {0, 1, 2}};
  const auto hit = pickMesh(down(0.2f, 0.2f), x, t);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->triangle, 1u);
}

TEST(RayPlane, MeetsInFrontOnly) {
  const auto p = intersectPlane(down(0.3f, -4.0f), {0, 0, 0.5f}, {0, 0, 1});
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->z, 0.5f, 1e-6f);
  EXPECT_NEAR(p->y, -4.0f, 1e-6f);
  EXPECT_FALSE(intersectPlane(down(0, 0), {0, 0, 3}, {0, 0, 1}));  // behind
  EXPECT_FALSE(intersectPlane(down(0, 0), {0, 0, 0}, {1, 0, 0}));  // parallel
}

Camera dragCamera() {
  Camera c;
  c.target = {0.2f, 1.0f, -0.1f};
  c.distance = 3.0f;
  c.yaw = 0.4f;
  c.pitch = 0.3f;
  c.setViewport(1280.0f, 720.0f, 320.0f);
  return c;
}

TEST(DragPlane, CursorOnTheVertexGivesTheVertex) {
  const Camera c = dragCamera();
  const glm::vec3 vertex{0.5f, 0.8f, 0.2f};
  const glm::vec2 s = project(c, vertex, 1280.0f, 720.0f);
  const auto p = intersectPlane(c.ray(s.x, s.y), vertex, c.forward());
  ASSERT_TRUE(p);
  EXPECT_NEAR(glm::length(*p - vertex), 0.0f, 1e-4f);
}

TEST(DragPlane, MovingTheCursorMovesTheTargetInTheCameraFacingPlane) {
  const Camera c = dragCamera();
  const glm::vec3 vertex{0.5f, 0.8f, 0.2f};
  const glm::vec2 s = project(c, vertex, 1280.0f, 720.0f);
  // 60 pixels down the screen.
  const auto p = intersectPlane(c.ray(s.x, s.y + 60.0f), vertex, c.forward());
  ASSERT_TRUE(p);
  const glm::vec3 moved = *p - vertex;
  EXPECT_NEAR(glm::dot(moved, c.forward()), 0.0f, 1e-4f);  // stays in the plane
  const glm::vec3 right = glm::normalize(glm::cross(c.forward(), glm::vec3(0, 1, 0)));
  const glm::vec3 up = glm::cross(right, c.forward());
  EXPECT_LT(glm::dot(moved, up), 0.0f);              // down on the screen is down
  EXPECT_NEAR(glm::dot(moved, right), 0.0f, 1e-3f);  // and nothing sideways
  // The length: 60 pixels at the vertex's depth, 2·depth·tan(fov/2)/height per pixel.
  const float depth = glm::dot(vertex - c.eye(), c.forward());
  const float perPixel = 2.0f * depth * std::tan(0.5f * c.fovY) / 720.0f;
  EXPECT_NEAR(glm::length(moved), 60.0f * perPixel, 0.02f * 60.0f * perPixel);
  // And the target shows under the cursor.
  const glm::vec2 back = project(c, *p, 1280.0f, 720.0f);
  EXPECT_NEAR(back.x, s.x, 0.05f);
  EXPECT_NEAR(back.y, s.y + 60.0f, 0.05f);
}

TEST(CameraFrame, TheBoxFitsTheFreeAreaSnugly) {
  Camera c = dragCamera();
  const glm::vec3 lo{-2.0f, 0.5f, -1.0f}, hi{3.0f, 2.0f, 0.5f};
  c.frame(lo, hi);
  EXPECT_NEAR(glm::length(c.target - 0.5f * (lo + hi)), 0.0f, 1e-5f);
  EXPECT_NEAR(c.yaw, 0.4f, 1e-6f);  // the direction of view is kept
  float minX = 1e9f, maxX = -1e9f, minY = 1e9f, maxY = -1e9f;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner{(i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z};
    const glm::vec2 s = project(c, corner, 1280.0f, 720.0f);
    minX = std::min(minX, s.x);
    maxX = std::max(maxX, s.x);
    minY = std::min(minY, s.y);
    maxY = std::max(maxY, s.y);
  }
  EXPECT_GT(minX, 320.0f);  // right of the panel
  EXPECT_LT(maxX, 1280.0f);
  EXPECT_GT(minY, 0.0f);
  EXPECT_LT(maxY, 720.0f);
  // Snug: the box spans a good part of the free width or height.
  EXPECT_GT(std::max((maxX - minX) / 960.0f, (maxY - minY) / 720.0f), 0.5f);
}

}  // namespace
}  // namespace drape::render
