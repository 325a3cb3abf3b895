#include "render/renderer.hpp"
#include "render/rope_tubes.hpp"

#include <algorithm>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "render/framing.hpp"
#include "sim/tuning.hpp"

namespace drape::render {
namespace {

constexpr float kFloorExtent = 40.0f;  // m, half side of the floor quad
constexpr float kNoFloorDrop = 1.0f;   // m below the cloth when no plane gives a floor

Result<Program> buildProgram(const ShaderSources& s, const std::string& vert,
                             const std::string& frag) {
  return Program::build(vert, s.text(vert), frag, s.text(frag));
}

glm::mat4 poseMatrix(const sim::Pose& pose) {
  return glm::translate(glm::mat4(1.0f), pose.position) * glm::mat4_cast(pose.rotation);
}

// Flatten onto the plane y = h along the direction l (towards the light,
// l.y > 0): p' = p − ((p.y − h) / l.y) · l. Column-major, as GL reads it.
glm::mat4 shadowMatrix(float h, const glm::vec3& l) {
  glm::mat4 m(1.0f);
  m[1] = glm::vec4(-l.x / l.y, 0.0f, -l.z / l.y, 0.0f);
  m[3] = glm::vec4(h * l.x / l.y, h, h * l.z / l.y, 1.0f);
  return m;
}

}  // namespace

const std::vector<std::string>& Renderer::shaderFiles() {
  static const std::vector<std::string> kFiles = {
      "mesh.vert", "mesh.frag", "shadow.frag",     "floor.vert",      "floor.frag",
      "pin.vert",  "pin.frag",  "background.vert", "background.frag", "wire.frag"};
  return kFiles;
}

Result<Renderer> Renderer::create(const ShaderSources& sources) {
  Renderer r;
  struct Build {
    Program* program;
    const char* vert;
    const char* frag;
  };
  for (const Build& b :
       {Build{&r.mesh_, "mesh.vert", "mesh.frag"}, Build{&r.shadow_, "mesh.vert", "shadow.frag"},
        Build{&r.floor_, "floor.vert", "floor.frag"},
        Build{&r.background_, "background.vert", "background.frag"},
        Build{&r.pin_, "pin.vert", "pin.frag"}, Build{&r.wire_, "mesh.vert", "wire.frag"}}) {
    auto p = buildProgram(sources, b.vert, b.frag);
    if (!p) return fail(p.error());
    *b.program = std::move(p.value());
  }
  r.cloth_ = ClothView::create();
  r.ropes_ = GpuMesh::create();
  r.seams_ = GpuMesh::create();
  r.emptyVao_ = makeVertexArray();
  r.markerVao_ = makeVertexArray();
  r.markerBuffer_ = makeBuffer();
  glBindVertexArray(r.markerVao_.get());
  glBindBuffer(GL_ARRAY_BUFFER, r.markerBuffer_.get());
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return r;
}

void Renderer::setScene(const sim::World& world) {
  colliders_.clear();
  floorFromPlane_ = false;
  floorHeight_ = std::numeric_limits<float>::max();
  for (std::size_t i = 0; i < world.colliders.size(); ++i) {
    const sim::Collider& c = world.colliders[i];
    switch (c.kind) {
      case sim::ColliderKind::Plane: {
        // Only planes facing up make a floor; the lowest one is the ground.
        const sim::Pose pose = sim::poseAt(c, world.time);
        if ((pose.rotation * glm::vec3(0, 1, 0)).y > 0.9f) {
          floorHeight_ = std::min(floorHeight_, pose.position.y);
          floorFromPlane_ = true;
        }
        break;
      }
      case sim::ColliderKind::Sphere:
        colliders_.push_back({i, GpuMesh::fromPrimitive(makeSphereMesh(c.size.x))});
        break;
      case sim::ColliderKind::Box:
        colliders_.push_back({i, GpuMesh::fromPrimitive(makeBoxMesh(c.size))});
        break;
      case sim::ColliderKind::Capsule:
        colliders_.push_back({i, GpuMesh::fromPrimitive(makeCapsuleMesh(c.size.x, c.size.y))});
        break;
      case sim::ColliderKind::Mesh:
        if (c.mesh) colliders_.push_back({i, GpuMesh::fromPrimitive(makeShapeMesh(*c.mesh))});
        break;
    }
  }
  if (!floorFromPlane_) {
    float lowest = 0.0f;
    if (!world.state.x.empty()) {
      lowest = world.state.x.front().y;
      for (const glm::vec3& p : world.state.x) lowest = std::min(lowest, p.y);
    }
    floorHeight_ = lowest - kNoFloorDrop;
  }
  newTopology_ = true;
}

void Renderer::updateDeforming(const sim::World& world) {
  for (ColliderMesh& c : colliders_) {
    if (c.collider >= world.colliders.size()) continue;
    const sim::Collider& collider = world.colliders[c.collider];
    if (!collider.sequence || c.shownTime == world.time) continue;
    collider.sequence->shapeAt(world.time, deformed_);
    c.mesh.updateVertices(makeShapeMesh(deformed_).vertices);
    c.shownTime = world.time;
  }
}

void Renderer::drawLitMeshes(const sim::World& world, const Program& program, bool clothColors) {
  program.set("uModel", glm::mat4(1.0f));
  program.set("uVertexColor", clothColors ? 1.0f : 0.0f);
  program.set("uFront", look.clothFront);
  program.set("uBack", look.clothBack);
  program.set("uShininess", 24.0f);
  program.set("uSpecular", 0.12f);
  // The fabric on the lit cloth alone (the strain view shows strain), the
  // weave only where it has UVs.
  const bool weave = !clothColors && cloth_.metresPerUV() > 0.0f && look.weaveCell > 0.0f;
  program.set("uWeave", weave ? look.weave : 0.0f);
  program.set("uWeaveScale", weave ? cloth_.metresPerUV() / look.weaveCell : 0.0f);
  program.set("uFold", clothColors ? 0.0f : look.foldShade);
  cloth_.draw();
  program.set("uWeave", 0.0f);
  program.set("uFold", 0.0f);
  program.set("uVertexColor", 0.0f);
  if (!world.cloth.ropes.empty()) {
    program.set("uFront", look.rope);
    program.set("uBack", look.rope);
    program.set("uShininess", 16.0f);
    program.set("uSpecular", 0.08f);
    ropes_.draw();
  }
  if (!seamIndices_.empty()) {
    program.set("uFront", look.seam);
    program.set("uBack", look.seam);
    seams_.draw();
  }
  program.set("uFront", look.collider);
  program.set("uBack", look.collider);
  program.set("uShininess", 48.0f);
  program.set("uSpecular", 0.25f);
  for (const ColliderMesh& c : colliders_) {
    if (c.collider >= world.colliders.size()) continue;
    program.set("uModel", poseMatrix(sim::poseAt(world.colliders[c.collider], world.time)));
    c.mesh.draw();
  }
}

void Renderer::drawWireframe(const glm::mat4& viewProj) {
  // The cloth's triangles again as lines, pulled towards the eye so that
  // they win the depth test against the cloth's own surface.
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDepthMask(GL_FALSE);
  glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
  glEnable(GL_POLYGON_OFFSET_LINE);
  glPolygonOffset(-1.0f, -1.0f);
  wire_.use();
  wire_.set("uViewProj", viewProj);
  wire_.set("uModel", glm::mat4(1.0f));
  wire_.set("uColor", look.wire);
  cloth_.draw();
  glDisable(GL_POLYGON_OFFSET_LINE);
  glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

void Renderer::drawMarkerRange(std::size_t first, std::size_t count, const glm::vec3& color,
                               float radius, float minPixels, bool ring) const {
  pin_.set("uRadius", radius);
  pin_.set("uMinPixels", minPixels);
  pin_.set("uColor", color);
  pin_.set("uRing", ring ? 1.0f : 0.0f);
  glDrawArrays(GL_POINTS, GLint(first), GLsizei(count));
}

void Renderer::drawMarkers(const sim::World& world, const Camera& camera, int fbHeight,
                           std::uint32_t hoveredVertex) {
  const std::vector<glm::vec3>& x = world.state.x;
  markers_.clear();
  for (const sim::Pin& p : world.pins)
    if (p.vertex < x.size()) markers_.push_back(x[p.vertex]);
  const std::size_t pins = markers_.size();
  const bool grabbed = world.grab.active && world.grab.vertex < x.size();
  // A soft grab's cloth lags behind the hand where it is taut: the marker
  // shows the hand; a hard grab's vertex is the hand.
  if (grabbed) markers_.push_back(world.grab.soft ? world.grab.target : x[world.grab.vertex]);
  const bool hovered = hoveredVertex < x.size() && !grabbed;
  if (hovered) markers_.push_back(x[hoveredVertex]);
  if (markers_.empty()) return;
  glBindBuffer(GL_ARRAY_BUFFER, markerBuffer_.get());
  const auto bytes = GLsizeiptr(markers_.size() * sizeof(glm::vec3));
  if (markers_.size() > markerCapacity_) {
    glBufferData(GL_ARRAY_BUFFER, bytes, markers_.data(), GL_DYNAMIC_DRAW);
    markerCapacity_ = markers_.size();
  } else {
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, markers_.data());
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);

  pin_.use();
  pin_.set("uViewProj", camera.viewProjection());
  pin_.set("uEye", camera.eye());
  // Pixels per metre at depth 1: the projection's y scale times half the
  // framebuffer height.
  pin_.set("uPixelsPerUnit", camera.projection()[1][1] * 0.5f * float(fbHeight));
  glBindVertexArray(markerVao_.get());
  drawMarkerRange(0, pins, look.pin, look.pinRadius, look.pinMinPixels, false);
  // The hand's vertex and the one under the cursor are interface, not
  // scene: drawn over everything, so the cloth never hides them.
  glDisable(GL_DEPTH_TEST);
  if (grabbed) drawMarkerRange(pins, 1, look.grabbed, 1.4f * look.pinRadius, 14.0f, false);
  if (hovered) drawMarkerRange(pins, 1, look.hovered, 1.6f * look.pinRadius, 16.0f, true);
  glEnable(GL_DEPTH_TEST);
  glBindVertexArray(0);
}

void Renderer::draw(const sim::World& world, const Camera& camera, int fbWidth, int fbHeight,
                    const ViewOptions& view, std::uint32_t hoveredVertex, PixelRect area) {
  // Order: opaque meshes first, then the floor, its shadows and the
  // background, so that the depth test spares the big backdrops every pixel
  // already covered (software rasterisers shade per pixel).
  if (area.empty()) area = {0, 0, fbWidth, fbHeight};
  glViewport(area.x, area.y, area.width, area.height);
  glScissor(area.x, area.y, area.width, area.height);
  glEnable(GL_SCISSOR_TEST);
  glClearDepth(1.0);
  glClearStencil(0);
  // The background covers every pixel left, so colour needs no clear.
  glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glDisable(GL_CULL_FACE);  // the cloth is seen from both sides
  glEnable(GL_MULTISAMPLE);
  glEnable(GL_PROGRAM_POINT_SIZE);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_TRUE);

  cloth_.update(world, newTopology_, look.foldRadius);
  updateDeforming(world);
  if (!world.cloth.ropes.empty()) {
    const bool fresh = newTopology_ || ropeTopology_ != world.cloth.topologyVersion;
    if (fresh) ropeIndices_.clear();
    makeRopeTubes(world, look.ropeRadius, ropeVertices_, ropeIndices_);
    ropes_.updateVertices(ropeVertices_);
    if (fresh) ropes_.setIndices(ropeIndices_.data(), ropeIndices_.size());
    ropeTopology_ = world.cloth.topologyVersion;
  }
  seamIndices_.clear();
  if (!world.cloth.seams.empty()) {
    makeSeamTubes(world, look.seamRadius, sim::tuning::kSeamOpenGap, seamVertices_, seamIndices_);
    seams_.updateVertices(seamVertices_);
    seams_.setIndices(seamIndices_.data(), seamIndices_.size());
  }
  newTopology_ = false;
  if (view.shading == Shading::Strain)
    cloth_.updateStrainColors(world, view.strainMax, view.crossed);
  else
    cloth_.clearColors();
  const glm::mat4 viewProj = camera.viewProjection();
  const glm::vec3 eye = camera.eye();
  const bool floorVisible = eye.y > floorHeight_;
  const bool shadows = floorVisible && look.shadowDir.y > 0.05f;
  const glm::mat4 shadow = shadowMatrix(floorHeight_, look.shadowDir);
  edgeArea_ = projectedArea(geometryBounds(world), viewProj, shadows ? &shadow : nullptr, area);

  mesh_.use();
  mesh_.set("uViewProj", viewProj);
  mesh_.set("uEye", eye);
  // View space to world: the inverse of the view's rotation is its transpose.
  mesh_.set("uLightDir", glm::transpose(glm::mat3(camera.view())) * look.keyLightInView);
  drawLitMeshes(world, mesh_, view.shading == Shading::Strain);
  if (view.wireframe) drawWireframe(viewProj);

  // Seen from below, the floor would hide the whole scene: it and its
  // shadows are drawn only from above.
  glBindVertexArray(emptyVao_.get());
  floor_.use();
  floor_.set("uViewProj", viewProj);
  floor_.set("uHeight", floorHeight_);
  floor_.set("uExtent", kFloorExtent);
  floor_.set("uEye", eye);
  floor_.set("uFogColor", look.skyBottom);
  floor_.set("uFogStart", 0.25f * kFloorExtent);
  floor_.set("uFogEnd", 0.9f * kFloorExtent);
  if (floorVisible) glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);

  // Shadows on the floor: blended, no depth writes, pulled towards the eye
  // to win against the floor, and each pixel darkened once (stencil).
  if (shadows) {
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_EQUAL, 0, 0xFF);
    glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(-1.0f, -4.0f);
    shadow_.use();
    shadow_.set("uViewProj", viewProj * shadow);
    shadow_.set("uShadowColor", look.shadow);
    drawLitMeshes(world, shadow_, false);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glDisable(GL_STENCIL_TEST);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
  }

  // Background at the far plane: only where the depth is still the cleared 1.
  glDepthMask(GL_FALSE);
  background_.use();
  background_.set("uInvViewProj", glm::inverse(viewProj));
  background_.set("uEye", eye);
  background_.set("uZenith", look.skyTop);
  background_.set("uHorizon", look.skyBottom);
  glBindVertexArray(emptyVao_.get());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glDepthMask(GL_TRUE);

  drawMarkers(world, camera, area.height, hoveredVertex);
  glUseProgram(0);
  glDisable(GL_SCISSOR_TEST);
  glViewport(0, 0, fbWidth, fbHeight);
}

}  // namespace drape::render
