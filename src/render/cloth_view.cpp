#include "render/cloth_view.hpp"

#include "render/strain.hpp"
#include "sim/mesh.hpp"

namespace drape::render {

ClothView ClothView::create() {
  ClothView v;
  v.mesh_ = GpuMesh::create();
  return v;
}

void ClothView::update(const sim::World& world, bool topologyChanged) {
  const std::vector<glm::vec3>& x = world.state.x;
  const std::vector<glm::uvec3>& triangles = world.cloth.triangles;
  sim::computeVertexNormals(x, triangles, normals_);
  vertices_.resize(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) vertices_[i] = {x[i], normals_[i]};
  mesh_.updateVertices(vertices_);
  if (topologyChanged || triangles.size() != triangleCount_ ||
      world.cloth.topologyVersion != topologyVersion_) {
    static_assert(sizeof(glm::uvec3) == 3 * sizeof(std::uint32_t), "triangles are packed");
    mesh_.setIndices(reinterpret_cast<const std::uint32_t*>(triangles.data()),
                     3 * triangles.size());
    triangleCount_ = triangles.size();
    topologyVersion_ = world.cloth.topologyVersion;
  }
}

void ClothView::updateStrainColors(const sim::World& world, float strainMax,
                                   const std::vector<std::uint32_t>* crossed) {
  computeVertexStrain(world.state.x, world.cloth.stretch, strain_, strainCount_);
  const float scale = strainMax > 0.0f ? 1.0f / strainMax : 0.0f;
  colors_.resize(strain_.size());
  for (std::size_t i = 0; i < strain_.size(); ++i) colors_[i] = strainColor(strain_[i] * scale);
  const std::vector<glm::uvec3>& tris = world.cloth.triangles;
  if (crossed)
    for (const std::uint32_t t : *crossed)
      if (t < tris.size())
        for (int k = 0; k < 3; ++k)
          if (tris[t][k] < colors_.size()) colors_[tris[t][k]] = kCrossingColor;
  mesh_.updateColors(colors_);
}

}  // namespace drape::render
