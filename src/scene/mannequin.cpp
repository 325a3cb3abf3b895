#include "scene/mannequin.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "scene/distance_fields.hpp"

namespace drape::scene {
namespace {

constexpr float kPi = 3.14159265358979f;

float radians(float degrees) {
  return degrees * kPi / 180.0f;
}

// C¹ ramp from 0 at a to 1 at b.
float ramp(float a, float b, float x) {
  const float u = glm::clamp((x - a) / (b - a), 0.0f, 1.0f);
  return u * u * (3.0f - 2.0f * u);
}

const glm::vec3 kHipRadii{0.17f, 0.13f, 0.11f};
constexpr float kLegRadius = 0.065f;
constexpr float kBlend = 0.04f;  // smooth-minimum width between parts

// The parts at rest, blended.
float mannequinDistance(const MannequinSize& s, const glm::vec3& p) {
  float d = ellipsoidDistance(p - glm::vec3(0.0f, s.chestY, 0.0f), s.chestRadii);
  d = smoothMin(d, ellipsoidDistance(p - glm::vec3(0.0f, s.hipY, 0.0f), kHipRadii), kBlend);
  d = smoothMin(d,
                capsuleDistance(p, {-s.shoulderHalfWidth, s.shoulderY, 0.0f},
                                {s.shoulderHalfWidth, s.shoulderY, 0.0f}, s.shoulderRadius),
                kBlend);
  const float neckTop = s.shoulderY + 0.16f;
  d = smoothMin(d, capsuleDistance(p, {0.0f, s.shoulderY, 0.0f}, {0.0f, neckTop, 0.0f}, 0.05f),
                kBlend);
  d = smoothMin(
      d, ellipsoidDistance(p - glm::vec3(0.0f, neckTop + 0.09f, 0.01f), {0.08f, 0.11f, 0.095f}),
      0.03f);
  for (float side : {-1.0f, 1.0f}) {
    const glm::vec3 a = shoulderPivot(s, side);
    d = smoothMin(
        d, capsuleDistance(p, a, a + s.armLength * armDirection(s.armDegrees, side), s.armRadius),
        kBlend);
    d = smoothMin(
        d,
        capsuleDistance(p, {side * 0.09f, s.hipY, 0.0f}, {side * 0.10f, 0.07f, 0.0f}, kLegRadius),
        kBlend);
  }
  return d;
}

glm::vec3 distanceGradient(const MannequinSize& s, const glm::vec3& p) {
  const float e = 1e-4f;
  glm::vec3 g;
  for (int a = 0; a < 3; ++a) {
    glm::vec3 step(0.0f);
    step[a] = e;
    g[a] = (mannequinDistance(s, p + step) - mannequinDistance(s, p - step)) / (2.0f * e);
  }
  return g;
}

// The point's turn about +z through `pivot` by `angle` radians.
glm::vec3 turnAboutZ(const glm::vec3& p, const glm::vec3& pivot, float angle) {
  const glm::vec3 d = p - pivot;
  const float c = std::cos(angle), s = std::sin(angle);
  return pivot + glm::vec3(c * d.x - s * d.y, s * d.x + c * d.y, d.z);
}

glm::vec3 turnAboutY(const glm::vec3& p, float angle) {
  const float c = std::cos(angle), s = std::sin(angle);
  return {c * p.x + s * p.z, p.y, -s * p.x + c * p.z};
}

// How much a rest vertex follows arm `side`: along the arm past its root,
// and no farther from its axis than the arm's blend with the shoulder.
float armWeight(const MannequinSize& size, const glm::vec3& p, float side) {
  if (side * p.x <= 0.0f) return 0.0f;
  const glm::vec3 pivot = shoulderPivot(size, side);
  const glm::vec3 d = armDirection(size.armDegrees, side);
  const float along = glm::dot(p - pivot, d);
  const float radial = glm::length(p - pivot - along * d);
  return ramp(-0.03f, 0.07f, along) *
         (1.0f - ramp(size.armRadius + 0.015f, size.armRadius + 0.045f, radial));
}

}  // namespace

glm::vec3 shoulderPivot(const MannequinSize& size, float side) {
  return {side * (size.shoulderHalfWidth + 0.02f), size.shoulderY - 0.01f, 0.0f};
}

glm::vec3 armDirection(float degrees, float side) {
  const float a = radians(degrees);
  return {side * std::cos(a), -std::sin(a), 0.0f};
}

MannequinPose mannequinPoseAt(double t) {
  // Still while a garment closes on it, then the arms rise and the torso turns.
  const float s = float(t);
  return {25.0f * ramp(1.2f, 2.7f, s), 20.0f * ramp(2.2f, 4.2f, s)};
}

sim::TriMesh makeMannequin(const MannequinSize& size, float cell) {
  const glm::vec3 lo(-0.85f, -0.06f, -0.2f), hi(0.85f, 1.86f, 0.2f);
  const glm::ivec3 cells = glm::ivec3(glm::ceil((hi - lo) / cell));
  const glm::ivec3 points = cells + 1;
  auto pointIndex = [&](const glm::ivec3& q) {
    return (std::size_t(q.z) * std::size_t(points.y) + std::size_t(q.y)) * std::size_t(points.x) +
           std::size_t(q.x);
  };
  auto cellIndex = [&](const glm::ivec3& q) {
    return (std::size_t(q.z) * std::size_t(cells.y) + std::size_t(q.y)) * std::size_t(cells.x) +
           std::size_t(q.x);
  };
  auto at = [&](const glm::ivec3& q) { return lo + cell * glm::vec3(q); };

  std::vector<float> field(std::size_t(points.x) * std::size_t(points.y) * std::size_t(points.z));
  for (int z = 0; z < points.z; ++z)
    for (int y = 0; y < points.y; ++y)
      for (int x = 0; x < points.x; ++x)
        field[pointIndex({x, y, z})] = mannequinDistance(size, at({x, y, z}));

  // One vertex per cell the surface crosses: the mean of the crossings on
  // the cell's edges, then moved onto the surface.
  sim::TriMesh mesh;
  std::vector<std::int32_t> vertexOf(
      std::size_t(cells.x) * std::size_t(cells.y) * std::size_t(cells.z), -1);
  static const std::array<glm::ivec3, 8> kCorner = {glm::ivec3{0, 0, 0}, {1, 0, 0}, {0, 1, 0},
                                                    {1, 1, 0},           {0, 0, 1}, {1, 0, 1},
                                                    {0, 1, 1},           {1, 1, 1}};
  for (int z = 0; z < cells.z; ++z)
    for (int y = 0; y < cells.y; ++y)
      for (int x = 0; x < cells.x; ++x) {
        const glm::ivec3 c(x, y, z);
        glm::vec3 sum(0.0f);
        int crossings = 0;
        for (int a = 0; a < 8; ++a)
          for (int b = a + 1; b < 8; ++b) {
            const glm::ivec3 step = kCorner[std::size_t(b)] - kCorner[std::size_t(a)];
            if (step.x + step.y + step.z != 1) continue;  // not an edge
            const float fa = field[pointIndex(c + kCorner[std::size_t(a)])];
            const float fb = field[pointIndex(c + kCorner[std::size_t(b)])];
            if ((fa < 0.0f) == (fb < 0.0f)) continue;
            const float u = fa / (fa - fb);
            sum += glm::mix(at(c + kCorner[std::size_t(a)]), at(c + kCorner[std::size_t(b)]), u);
            ++crossings;
          }
        if (crossings == 0) continue;
        glm::vec3 p = sum / float(crossings);
        for (int i = 0; i < 2; ++i) {
          const glm::vec3 g = distanceGradient(size, p);
          const float g2 = glm::dot(g, g);
          if (!(g2 > 1e-12f)) break;
          glm::vec3 move = -(mannequinDistance(size, p) / g2) * g;
          const float length = glm::length(move);
          if (length > 0.3f * cell) move *= 0.3f * cell / length;
          p += move;
        }
        vertexOf[cellIndex(c)] = std::int32_t(mesh.positions.size());
        mesh.positions.push_back(p);
      }

  // One quad per grid edge the surface crosses, joining the four cells
  // around it, turned so that its normal points to the outside end.
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    for (int z = 0; z < cells.z + (axis == 2 ? 0 : 1); ++z)
      for (int y = 0; y < cells.y + (axis == 1 ? 0 : 1); ++y)
        for (int x = 0; x < cells.x + (axis == 0 ? 0 : 1); ++x) {
          const glm::ivec3 q(x, y, z);
          if (q[u] == 0 || q[v] == 0 || q[u] == cells[u] || q[v] == cells[v]) continue;
          glm::ivec3 next = q;
          next[axis] += 1;
          const bool insideFirst = field[pointIndex(q)] < 0.0f;
          if (insideFirst == (field[pointIndex(next)] < 0.0f)) continue;
          std::array<std::int32_t, 4> quad{};
          const int du[4] = {-1, 0, 0, -1}, dv[4] = {-1, -1, 0, 0};
          for (int k = 0; k < 4; ++k) {
            glm::ivec3 c = q;
            c[u] += du[k];
            c[v] += dv[k];
            quad[std::size_t(k)] = vertexOf[cellIndex(c)];
          }
          if (!insideFirst) std::swap(quad[1], quad[3]);
          const auto p = [&](int k) { return mesh.positions[std::size_t(quad[std::size_t(k)])]; };
          const auto t = [&](int a, int b, int c) {
            mesh.triangles.push_back({std::uint32_t(quad[std::size_t(a)]),
                                      std::uint32_t(quad[std::size_t(b)]),
                                      std::uint32_t(quad[std::size_t(c)])});
          };
          // Split along the shorter diagonal.
          if (glm::length(p(0) - p(2)) <= glm::length(p(1) - p(3))) {
            t(0, 1, 2);
            t(0, 2, 3);
          } else {
            t(0, 1, 3);
            t(1, 2, 3);
          }
        }
  }
  return mesh;
}

sim::TriMesh poseMannequin(const sim::TriMesh& rest, const MannequinSize& size,
                           const MannequinPose& pose) {
  sim::TriMesh out = rest;
  const float lift = radians(pose.armLift), turn = radians(pose.torsoTurn);
  for (glm::vec3& p : out.positions) {
    const glm::vec3 r = p;
    float arms = 0.0f;
    for (float side : {-1.0f, 1.0f}) {
      const float w = armWeight(size, r, side);
      if (w > 0.0f && lift != 0.0f)
        p = glm::mix(p, turnAboutZ(p, shoulderPivot(size, side), side * lift), w);
      arms = std::max(arms, w);
    }
    // The arms turn with the chest; the torso's turn fades out over the hips.
    const float torso = arms + (1.0f - arms) * ramp(size.hipY, size.chestY + 0.05f, r.y);
    if (turn != 0.0f) p = turnAboutY(p, turn * torso);
  }
  return out;
}

std::vector<sim::TriMesh> mannequinFrames(const sim::TriMesh& rest, const MannequinSize& size,
                                          float fps, float seconds) {
  std::vector<sim::TriMesh> frames;
  const int count = int(std::floor(seconds * fps)) + 1;
  frames.reserve(std::size_t(count));
  for (int i = 0; i < count; ++i)
    frames.push_back(poseMannequin(rest, size, mannequinPoseAt(double(i) / double(fps))));
  return frames;
}

}  // namespace drape::scene
