#include "render/antialias.hpp"

#include <algorithm>

namespace drape::render {

const std::vector<std::string>& Antialias::shaderFiles() {
  static const std::vector<std::string> kFiles = {"screen.vert", "fxaa.frag"};
  return kFiles;
}

Result<Antialias> Antialias::create(const ShaderSources& sources, int samples) {
  Antialias a;
  if (samples > 1) {
    GLint most = 1;
    glGetIntegerv(GL_MAX_SAMPLES, &most);
    a.samples_ = std::min(samples, int(most));
  }
  if (a.samples_ <= 1) {
    a.samples_ = 0;
    auto p = Program::build("screen.vert", sources.text("screen.vert"), "fxaa.frag",
                            sources.text("fxaa.frag"));
    if (!p) return fail(p.error());
    a.fxaa_ = std::move(p.value());
    a.emptyVao_ = makeVertexArray();
  }
  return a;
}

void Antialias::resize(int width, int height) {
  framebuffer_ = makeFramebuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get());
  if (samples_ > 1) {
    color_ = makeRenderbuffer();
    glBindRenderbuffer(GL_RENDERBUFFER, color_.get());
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples_, GL_RGBA8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_.get());
  } else {
    texture_ = makeTexture();
    glBindTexture(GL_TEXTURE_2D, texture_.get());
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_.get(), 0);
  }
  // Planar shadows darken each pixel once through the stencil (renderer.cpp).
  depthStencil_ = makeRenderbuffer();
  glBindRenderbuffer(GL_RENDERBUFFER, depthStencil_.get());
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples_, GL_DEPTH24_STENCIL8, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                            depthStencil_.get());
  width_ = width;
  height_ = height;
}

void Antialias::begin(int width, int height) {
  if (framebuffer_.get() == 0 || width != width_ || height != height_) resize(width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get());
}

void Antialias::finish(std::initializer_list<PixelRect> filtered) {
  glViewport(0, 0, width_, height_);
  // The blit resolves a multisampled target, and copies FXAA's input (a blit
  // costs little beside the filter's pass); then the filter writes over the
  // pixels where there are edges.
  glDisable(GL_SCISSOR_TEST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_.get());
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (samples_ > 1) return;
  glEnable(GL_SCISSOR_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_STENCIL_TEST);
  glDisable(GL_DEPTH_TEST);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, texture_.get());
  glBindVertexArray(emptyVao_.get());
  fxaa_.use();
  fxaa_.set("uColor", 0);
  fxaa_.set("uTexel", glm::vec2(1.0f / float(width_), 1.0f / float(height_)));
  for (const PixelRect& rect : filtered) {
    const PixelRect area = intersect(rect, {0, 0, width_, height_});
    if (area.empty()) continue;
    glScissor(area.x, area.y, area.width, area.height);
    glDrawArrays(GL_TRIANGLES, 0, 3);
  }
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glUseProgram(0);
  glDisable(GL_SCISSOR_TEST);
  glEnable(GL_DEPTH_TEST);
}

}  // namespace drape::render
