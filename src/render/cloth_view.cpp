#include "render/cloth_view.hpp"

#include "render/strain.hpp"
#include "sim/sim.hpp"

namespace drape::render {

ClothView ClothView::create() {
  ClothView v;
  v.mesh_ = GpuMesh::create();
  return v;
}

void ClothView::update(const sim::World& world, bool topologyChanged, float foldRadius) {
  const std::vector<glm::vec3>& x = world.state.x;
  const std::vector<glm::uvec3>& triangles = world.cloth.triangles;
  const bool newLayout = topologyChanged || triangles.size() != triangleCount_ ||
                         world.cloth.topologyVersion != topologyVersion_;
  if (newLayout) layoutSurface(world.cloth, layout_);
  sim::computeVertexNormals(x, triangles, normals_);
  computeFold(x, normals_, triangles, foldRadius, fold_, scratch_);
  const std::vector<std::uint32_t>& source = layout_.source;
  vertices_.resize(source.size());
  drawnFold_.resize(source.size());
  for (std::size_t i = 0; i < source.size(); ++i) {
    vertices_[i] = {x[source[i]], normals_[source[i]]};
    drawnFold_[i] = fold_[source[i]];
  }
  mesh_.updateVertices(vertices_);
  mesh_.updateFolds(drawnFold_);
  if (newLayout) {
    mesh_.setIndices(layout_.indices.data(), layout_.indices.size());
    if (layout_.uvs.empty())
      mesh_.clearUVs();
    else
      mesh_.updateUVs(layout_.uvs);
    triangleCount_ = triangles.size();
    topologyVersion_ = world.cloth.topologyVersion;
  }
}

void ClothView::updateStrainColors(const sim::World& world, float strainMax,
                                   const std::vector<std::uint32_t>* crossed) {
  computeVertexStrain(world.state.x, world.cloth.stretch, strain_, strainCount_);
  const float scale = strainMax > 0.0f ? 1.0f / strainMax : 0.0f;
  // The corners of the crossed triangles, by simulated vertex.
  crossedCorner_.assign(strain_.size(), 0);
  const std::vector<glm::uvec3>& tris = world.cloth.triangles;
  if (crossed)
    for (const std::uint32_t t : *crossed)
      if (t < tris.size())
        for (int k = 0; k < 3; ++k)
          if (tris[t][k] < crossedCorner_.size()) crossedCorner_[tris[t][k]] = 1;
  const std::vector<std::uint32_t>& source = layout_.source;
  colors_.resize(source.size());
  for (std::size_t i = 0; i < source.size(); ++i)
    colors_[i] =
        crossedCorner_[source[i]] ? kCrossingColor : strainColor(strain_[source[i]] * scale);
  mesh_.updateColors(colors_);
}

}  // namespace drape::render
