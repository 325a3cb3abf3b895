#include "scene/shirt_pattern.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace drape::scene {
namespace {

int segments(float length, float spacing) {
  return std::max(1, int(std::lround(length / spacing)));
}

}  // namespace

ShirtPanels makeShirtPanels(const MannequinSize& size, float spacing, float gap) {
  // The pattern in the xy plane. The body is 18 % wider than the chest's
  // girth; the sleeve's opening is 40 % wider than the arm's and runs along
  // the arm at rest.
  const float girth = 2.0f * 3.14159265f *
                      std::sqrt(0.5f * (size.chestRadii.x * size.chestRadii.x +
                                        size.chestRadii.z * size.chestRadii.z));
  const float halfWidth = 1.18f * girth / 4.0f;
  const float hem = size.hipY - 0.07f;
  const float shoulder = size.shoulderY + size.shoulderRadius + 0.025f;
  const glm::vec3 arm = armDirection(size.armDegrees, 1.0f);
  const float opening = 1.4f * 3.14159265f * size.armRadius / std::abs(arm.x);
  const float armpit = shoulder - opening;
  const float sleeve = 0.22f;
  const float neckHalfWidth = 0.085f, neckDepth = 0.07f;

  const int nx = 2 * segments(halfWidth, spacing);
  const int lower = segments(armpit - hem, spacing), upper = segments(opening, spacing);
  const int ny = lower + upper, ns = segments(sleeve, spacing);
  const auto rowY = [&](int j) {
    return j <= lower ? hem + (armpit - hem) * float(j) / float(lower)
                      : armpit + opening * float(j - lower) / float(upper);
  };

  // Vertex ids before compaction: the body's grid, then each sleeve's rows
  // (column 0 of a sleeve is the body's side).
  const int bodyCount = (nx + 1) * (ny + 1);
  const auto body = [&](int i, int j) { return j * (nx + 1) + i; };
  const auto sleeveVertex = [&](int side, int r, int c) {
    if (c == 0) return body(side > 0 ? nx : 0, lower + r);
    return bodyCount + (side > 0 ? 0 : (upper + 1) * ns) + r * ns + (c - 1);
  };
  const int total = bodyCount + 2 * (upper + 1) * ns;
  std::vector<glm::vec2> at(std::size_t(total), glm::vec2(0.0f));
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i)
      at[std::size_t(body(i, j))] = {-halfWidth + 2.0f * halfWidth * float(i) / float(nx), rowY(j)};
  for (int side : {1, -1})
    for (int r = 0; r <= upper; ++r)
      for (int c = 1; c <= ns; ++c)
        at[std::size_t(sleeveVertex(side, r, c))] =
            glm::vec2(float(side) * halfWidth, rowY(lower + r)) +
            (sleeve * float(c) / float(ns)) * glm::vec2(float(side) * arm.x, arm.y);

  // Quads counter-clockwise seen from the front (+z).
  std::vector<std::array<int, 4>> quads;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const float cx = -halfWidth + 2.0f * halfWidth * (float(i) + 0.5f) / float(nx);
      const float cy = 0.5f * (rowY(j) + rowY(j + 1));
      if (std::abs(cx) < neckHalfWidth && cy > shoulder - neckDepth) continue;
      quads.push_back({body(i, j), body(i + 1, j), body(i + 1, j + 1), body(i, j + 1)});
    }
  for (int side : {1, -1})
    for (int r = 0; r < upper; ++r)
      for (int c = 0; c < ns; ++c) {
        std::array<int, 4> q = {sleeveVertex(side, r, c), sleeveVertex(side, r, c + 1),
                                sleeveVertex(side, r + 1, c + 1), sleeveVertex(side, r + 1, c)};
        if (side < 0) std::swap(q[1], q[3]);  // the left sleeve runs towards −x
        quads.push_back(q);
      }

  // Keep the vertices some quad uses, in id order.
  std::vector<std::int32_t> index(std::size_t(total), -1);
  for (const auto& q : quads)
    for (int id : q) index[std::size_t(id)] = 0;
  std::vector<glm::vec2> kept;
  for (int id = 0; id < total; ++id)
    if (index[std::size_t(id)] == 0) {
      index[std::size_t(id)] = std::int32_t(kept.size());
      kept.push_back(at[std::size_t(id)]);
    }

  ShirtPanels shirt;
  const std::uint32_t n = std::uint32_t(kept.size());
  shirt.frontVertices = n;
  const float z = size.chestRadii.z + gap;
  for (const glm::vec2& p : kept) shirt.mesh.positions.emplace_back(p.x, p.y, z);
  for (const glm::vec2& p : kept) shirt.mesh.positions.emplace_back(p.x, p.y, -z);
  std::size_t parity = 0;
  for (const auto& q : quads) {
    std::uint32_t v[4];
    for (int k = 0; k < 4; ++k) v[k] = std::uint32_t(index[std::size_t(q[std::size_t(k)])]);
    // Alternate the diagonals so that neither panel leans one way.
    const bool flip = (parity++ % 2) == 1;
    const glm::uvec3 t0 = flip ? glm::uvec3(v[0], v[1], v[3]) : glm::uvec3(v[0], v[1], v[2]);
    const glm::uvec3 t1 = flip ? glm::uvec3(v[1], v[2], v[3]) : glm::uvec3(v[0], v[2], v[3]);
    shirt.mesh.triangles.push_back(t0);
    shirt.mesh.triangles.push_back(t1);
    // The back faces −z: the same triangles, turned.
    shirt.mesh.triangles.push_back({t0.x + n, t0.z + n, t0.y + n});
    shirt.mesh.triangles.push_back({t1.x + n, t1.z + n, t1.y + n});
  }

  // Seams: the shoulders and the sleeves' tops, the sleeves' undersides,
  // and the sides from the hem to the armpit.
  std::vector<int> sewn;
  for (int i = 0; i <= nx; ++i) sewn.push_back(body(i, ny));
  for (int side : {1, -1})
    for (int c = 1; c <= ns; ++c) {
      sewn.push_back(sleeveVertex(side, upper, c));
      sewn.push_back(sleeveVertex(side, 0, c));
    }
  for (int j = 0; j <= lower; ++j) {
    sewn.push_back(body(0, j));
    sewn.push_back(body(nx, j));
  }
  std::sort(sewn.begin(), sewn.end());
  sewn.erase(std::unique(sewn.begin(), sewn.end()), sewn.end());
  for (int id : sewn)
    if (index[std::size_t(id)] >= 0)
      shirt.seams.push_back(
          {std::uint32_t(index[std::size_t(id)]), std::uint32_t(index[std::size_t(id)]) + n});
  return shirt;
}

}  // namespace drape::scene
