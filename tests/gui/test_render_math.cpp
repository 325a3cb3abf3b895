// Render code that needs no GL context: collider shapes and
// the camera's projection centre and rays.

#include <cmath>

#include <gtest/gtest.h>

#include "render/camera.hpp"
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

}  // namespace
}  // namespace drape::render
