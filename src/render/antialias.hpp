#pragma once
// Anti-aliasing for a window whose own framebuffer does not do it: one
// sample per pixel, or a software rasteriser's multisampled visual, which
// under Xvfb gives pictures as stair-stepped as none (Mesa's llvmpipe). The
// scene is drawn into an offscreen target with its own depth
// and stencil; finish() writes it into the default framebuffer:
//
//   samples 0: a colour texture copied by a blit and filtered by FXAA (Lottes
//              2009, shaders/fxaa.frag) where the views have edges (around the
//              cloth, the colliders and their shadows): pixels on a luma edge
//              are blended along it, so silhouettes show intermediate colours
//              instead of stairs.
//   samples N: an N-times multisampled target resolved by a blit: sharper, and
//              dearer on a software rasteriser (for stills).
//
// On a software rasteriser FXAA costs a frame far less than multisampling:
// FXAA is the default (docs/performance.md).
//
// What is drawn after finish() (the UI) is not filtered, and a read of the
// default framebuffer (capture.hpp) gets the anti-aliased picture.

#include <initializer_list>
#include <string>
#include <vector>

#include "render/gl_handles.hpp"
#include "render/pixel_rect.hpp"
#include "render/program.hpp"
#include "render/shader_files.hpp"
#include "sim/sim.hpp"

namespace drape::render {

class Antialias {
 public:
  static const std::vector<std::string>& shaderFiles();
  // `samples` 0: FXAA; 2 or more: a multisampled target (at most what the
  // driver offers).
  static Result<Antialias> create(const ShaderSources& sources, int samples);

  // Bind the offscreen target, (re)sized to `width` × `height` pixels; what
  // is drawn until finish() goes there.
  void begin(int width, int height);
  // Write the offscreen picture into the default framebuffer (all of it),
  // and leave the default framebuffer bound with the whole of it as viewport.
  // FXAA filters the pixels of each rectangle of `filtered` (those where
  // the views have edges: Renderer::edgeArea) and copies the others as they
  // are.
  void finish(std::initializer_list<PixelRect> filtered);

 private:
  void resize(int width, int height);

  Program fxaa_;
  VertexArray emptyVao_;
  Framebuffer framebuffer_;
  Texture texture_;     // FXAA's input
  Renderbuffer color_;  // the multisampled colour
  Renderbuffer depthStencil_;
  int samples_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace drape::render
