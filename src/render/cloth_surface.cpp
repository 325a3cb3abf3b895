#include "render/cloth_surface.hpp"

#include <algorithm>

namespace drape::render {

void layoutSurface(const sim::Cloth& cloth, SurfaceLayout& out) {
  const std::vector<glm::uvec3>& triangles = cloth.triangles;
  const std::size_t n = cloth.restPositions.size();
  out.source.resize(n);
  for (std::size_t i = 0; i < n; ++i) out.source[i] = std::uint32_t(i);
  out.indices.resize(3 * triangles.size());
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) out.indices[3 * t + std::size_t(k)] = triangles[t][k];
  out.uvs.clear();
  out.metresPerUV = 0.0f;
  if (cloth.cornerUVs.size() != 3 * triangles.size() || triangles.empty()) return;

  // The first corner of a vertex gives it its UV; a corner with another UV
  // gets a new drawn vertex, shared with later corners of the same vertex
  // and UV (a vertex lies on few seams: its copies are searched in turn).
  out.uvs.assign(n, glm::vec2(0.0f));
  std::vector<bool> seen(n, false);
  std::vector<std::uint32_t> nextCopy(n, UINT32_MAX);  // chain of a vertex's copies
  for (std::size_t c = 0; c < out.indices.size(); ++c) {
    const std::uint32_t v = out.indices[c];
    const glm::vec2 uv = cloth.cornerUVs[c];
    if (!seen[v]) {
      seen[v] = true;
      out.uvs[v] = uv;
      continue;
    }
    std::uint32_t d = v, last = v;
    while (d != UINT32_MAX && out.uvs[d] != uv) {
      last = d;
      d = nextCopy[d];
    }
    if (d == UINT32_MAX) {
      d = std::uint32_t(out.source.size());
      out.source.push_back(v);
      out.uvs.push_back(uv);
      nextCopy.push_back(UINT32_MAX);
      nextCopy[last] = d;
    }
    out.indices[c] = d;
  }

  double metres = 0.0, uvLength = 0.0;
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const int j = (k + 1) % 3;
      metres += double(
          glm::length(cloth.restPositions[triangles[t][k]] - cloth.restPositions[triangles[t][j]]));
      uvLength += double(glm::length(cloth.cornerUVs[3 * t + std::size_t(k)] -
                                     cloth.cornerUVs[3 * t + std::size_t(j)]));
    }
  if (uvLength > 1e-12 * metres && uvLength > 0.0) out.metresPerUV = float(metres / uvLength);
}

void computeFold(const std::vector<glm::vec3>& positions, const std::vector<glm::vec3>& normals,
                 const std::vector<glm::uvec3>& triangles, float radius, std::vector<float>& fold,
                 std::vector<glm::vec4>& scratch) {
  const std::size_t n = positions.size();
  // One pass over the triangles: per vertex the sum of its neighbours (xyz)
  // and of their squared distances (w), each neighbour once per triangle it
  // shares; their count goes to `fold` for now.
  scratch.assign(n, glm::vec4(0.0f));
  fold.assign(n, 0.0f);
  for (const glm::uvec3& t : triangles)
    for (int k = 0; k < 3; ++k) {
      const glm::vec3& a = positions[t[k]];
      const glm::vec3& b = positions[t[(k + 1) % 3]];
      const glm::vec3& c = positions[t[(k + 2) % 3]];
      scratch[t[k]] += glm::vec4(b + c, glm::dot(b - a, b - a) + glm::dot(c - a, c - a));
      fold[t[k]] += 2.0f;
    }
  // H = 2 u·n / h² with u = sum / count − x and h² = w / count.
  for (std::size_t i = 0; i < n; ++i) {
    const float count = fold[i], d2 = scratch[i].w;
    const float un = glm::dot(glm::vec3(scratch[i]) - count * positions[i], normals[i]);
    fold[i] = d2 > 0.0f ? std::clamp(2.0f * un / d2 * radius, -1.0f, 1.0f) : 0.0f;
  }
  // One pass of averaging with the neighbours (each weighted as above).
  for (std::size_t i = 0; i < n; ++i) scratch[i] = glm::vec4(2.0f * fold[i], 2.0f, 0.0f, 0.0f);
  for (const glm::uvec3& t : triangles)
    for (int k = 0; k < 3; ++k)
      scratch[t[k]] += glm::vec4(fold[t[(k + 1) % 3]] + fold[t[(k + 2) % 3]], 2.0f, 0.0f, 0.0f);
  for (std::size_t i = 0; i < n; ++i) fold[i] = scratch[i].x / scratch[i].y;
}

}  // namespace drape::render
