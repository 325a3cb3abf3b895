// Render code that needs no GL context: collider shapes, the camera's
// projection centre and rays, and where a box shows on the screen.

#include <cmath>

#include <gtest/gtest.h>

#include "render/camera.hpp"
#include "render/framing.hpp"
#include "render/primitives.hpp"

namespace drape::render {
namespace {

void expectNear(const glm::vec3& a, const glm::vec3& b, float tol = 1e-5f) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

// Every triangle of a closed shape turns counter-clockwise seen from outside,
// and every vertex normal points outwards with unit length.
void expectOutward(const PrimitiveMesh& m) {
  ASSERT_FALSE(m.indices.empty());
  ASSERT_EQ(m.indices.size() % 3, 0u);
  for (std::size_t i = 0; i < m.indices.size(); i += 3) {
    const glm::vec3 a = m.vertices[m.indices[i]].position;
    const glm::vec3 b = m.vertices[m.indices[i + 1]].position;
    const glm::vec3 c = m.vertices[m.indices[i + 2]].position;
    const glm::vec3 face = glm::cross(b - a, c - a);
    EXPECT_GT(glm::length(face), 1e-6f) << "degenerate triangle " << i / 3;
    EXPECT_GT(glm::dot(face, (a + b + c) / 3.0f), 0.0f) << "triangle " << i / 3;
  }
  for (const LitVertex& v : m.vertices) {
    EXPECT_NEAR(glm::length(v.normal), 1.0f, 1e-5f);
    EXPECT_GE(glm::dot(v.normal, v.position), 0.0f);
  }
}

TEST(Primitives, SphereOnItsRadius) {
  const PrimitiveMesh m = makeSphereMesh(0.5f, 16, 8);
  expectOutward(m);
  for (const LitVertex& v : m.vertices) EXPECT_NEAR(glm::length(v.position), 0.5f, 1e-5f);
}

TEST(Primitives, CapsuleSpansItsAxis) {
  const PrimitiveMesh m = makeCapsuleMesh(0.2f, 0.6f, 16, 9);  // odd stacks are made even
  expectOutward(m);
  float lo = 1e9f, hi = -1e9f;
  for (const LitVertex& v : m.vertices) {
    lo = std::min(lo, v.position.y);
    hi = std::max(hi, v.position.y);
    // Distance to the axis segment is the radius everywhere.
    const glm::vec3 axis(0.0f, std::clamp(v.position.y, -0.6f, 0.6f), 0.0f);
    EXPECT_NEAR(glm::length(v.position - axis), 0.2f, 1e-5f);
  }
  EXPECT_NEAR(lo, -0.8f, 1e-5f);
  EXPECT_NEAR(hi, 0.8f, 1e-5f);
}

TEST(Primitives, BoxHasSixFlatFaces) {
  const PrimitiveMesh m = makeBoxMesh({1.0f, 2.0f, 3.0f});
  EXPECT_EQ(m.vertices.size(), 24u);
  EXPECT_EQ(m.indices.size(), 36u);
  expectOutward(m);
  for (const LitVertex& v : m.vertices) expectNear(glm::abs(v.position), {1, 2, 3});
}

Camera testCamera() {
  Camera c;
  c.target = {0.5f, -0.2f, 0.3f};
  c.distance = 4.0f;
  c.yaw = 0.7f;
  c.pitch = 0.3f;
  c.setViewport(1280.0f, 720.0f, 320.0f);
  return c;
}

TEST(Camera, MouseMovesKeepTheEyeAboveTheFloor) {
  Camera c = testCamera();
  c.target = glm::vec3(0.0f, 0.2f, 0.0f);
  c.floorY = 0.0f;
  // Orbit far down: the pitch stops where the eye is just above the floor.
  c.orbit(0.0f, -2000.0f);
  EXPECT_GT(c.eye().y, 0.0f);
  EXPECT_LT(c.eye().y, 0.3f);
  // Zooming out from there lifts the eye with the margin.
  c.zoom(4.0f);
  EXPECT_GT(c.eye().y, 0.0f);
  // Panning the target down through the floor: the eye stays above it.
  for (int i = 0; i < 50; ++i) c.pan(0.0f, -200.0f);
  EXPECT_GT(c.eye().y, 0.0f);
  // Without a floor the same orbit goes below the old floor.
  Camera free = testCamera();
  free.target = glm::vec3(0.0f, 0.2f, 0.0f);
  free.orbit(0.0f, -2000.0f);
  EXPECT_LT(free.eye().y, 0.0f);
}

TEST(Camera, YawZeroLooksAlongMinusZ) {
  Camera c;
  c.yaw = 0.0f;
  c.pitch = 0.0f;
  c.distance = 3.0f;
  expectNear(c.eye(), {0, 0, 3});
}

TEST(Camera, TargetSitsInTheMiddleOfTheFreeArea) {
  const Camera c = testCamera();
  const glm::vec4 clip = c.viewProjection() * glm::vec4(c.target, 1.0f);
  // Free area: x from 320 to 1280, middle at 800, i.e. NDC x = 800/640 − 1.
  EXPECT_NEAR(clip.x / clip.w, 800.0f / 640.0f - 1.0f, 1e-5f);
  EXPECT_NEAR(clip.y / clip.w, 0.0f, 1e-5f);
}

TEST(Camera, RayThroughAPixelHitsWhatProjectsThere) {
  const Camera c = testCamera();
  const Ray centre = c.ray(800.0f, 360.0f);
  expectNear(centre.origin, c.eye());
  expectNear(centre.direction, glm::normalize(c.target - c.eye()), 1e-4f);
  // Any point on a ray projects back to the pixel the ray came from.
  const Ray r = c.ray(1000.0f, 200.0f);
  const glm::vec4 clip = c.viewProjection() * glm::vec4(r.origin + 3.0f * r.direction, 1.0f);
  EXPECT_NEAR((clip.x / clip.w + 1.0f) * 640.0f, 1000.0f, 1e-2f);
  EXPECT_NEAR((1.0f - clip.y / clip.w) * 360.0f, 200.0f, 1e-2f);
}

TEST(Camera, PanMovesTargetAndEyeTogether) {
  Camera c = testCamera();
  const glm::vec3 offset = c.eye() - c.target;
  c.pan(30.0f, -12.0f);
  expectNear(c.eye() - c.target, offset, 1e-5f);
  EXPECT_GT(glm::length(c.target - testCamera().target), 0.0f);
}

TEST(Camera, OrbitKeepsPitchShortOfThePoles) {
  Camera c = testCamera();
  c.orbit(0.0f, 1e6f);
  EXPECT_LT(c.pitch, 1.5708f);
  c.orbit(0.0f, -1e6f);
  EXPECT_GT(c.pitch, -1.5708f);
  EXPECT_TRUE(std::isfinite(glm::length(c.view()[0])));
}

// Where a box shows, for anti-aliasing: every corner's pixel (and its
// shadow's) inside the rectangle, which stays within the viewport.
TEST(ProjectedArea, HoldsTheBoxAndItsShadowWithinTheViewport) {
  Camera c = testCamera();
  const PixelRect area{100, 50, 800, 600};
  c.setViewport(800.0f, 600.0f, 0.0f);
  const sim::Bounds box{{-0.5f, 0.2f, -0.3f}, {0.4f, 0.9f, 0.2f}};
  glm::mat4 shadow(1.0f);
  shadow[1] = glm::vec4(0.1f, 0.0f, -0.1f, 0.0f);  // flattened onto y = 0 along a slant
  const glm::mat4 viewProj = c.viewProjection();
  const PixelRect r = projectedArea(box, viewProj, &shadow, area);
  ASSERT_FALSE(r.empty());
  EXPECT_GE(r.x, area.x);
  EXPECT_GE(r.y, area.y);
  EXPECT_LE(r.x + r.width, area.x + area.width);
  EXPECT_LE(r.y + r.height, area.y + area.height);
  for (int i = 0; i < 16; ++i) {
    glm::vec4 p((i & 1) ? box.max.x : box.min.x, (i & 2) ? box.max.y : box.min.y,
                (i & 4) ? box.max.z : box.min.z, 1.0f);
    if (i >= 8) p = shadow * p;
    const glm::vec4 clip = viewProj * p;
    const float x = float(area.x) + (0.5f * clip.x / clip.w + 0.5f) * float(area.width);
    const float y = float(area.y) + (0.5f * clip.y / clip.w + 0.5f) * float(area.height);
    EXPECT_GT(x, float(r.x));
    EXPECT_LT(x, float(r.x + r.width));
    EXPECT_GT(y, float(r.y));
    EXPECT_LT(y, float(r.y + r.height));
  }
  // Smaller than the viewport: the box does not fill it.
  EXPECT_LT(r.width * r.height, area.width * area.height / 2);
  // Without the shadow, no larger.
  const PixelRect alone = projectedArea(box, viewProj, nullptr, area);
  EXPECT_LE(alone.width * alone.height, r.width * r.height);
  // A box reaching behind the eye: the whole viewport; no box: nothing.
  const sim::Bounds around{c.eye() - glm::vec3(1.0f), c.eye() + glm::vec3(1.0f)};
  const PixelRect all = projectedArea(around, viewProj, nullptr, area);
  EXPECT_EQ(all.x, area.x);
  EXPECT_EQ(all.width, area.width);
  EXPECT_EQ(all.height, area.height);
  const sim::Bounds none{glm::vec3(1.0f), glm::vec3(-1.0f)};
  EXPECT_TRUE(projectedArea(none, viewProj, nullptr, area).empty());
}

}  // namespace
}  // namespace drape::render
