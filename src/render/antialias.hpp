#pragma once
// Anti-aliasing for a window whose own framebuffer does not do it: one
// sample per pixel, or a software rasteriser's multisampled visual, which
// under Xvfb gives pictures as stair-stepped as none (Mesa's llvmpipe,
// measured). The scene is drawn into an offscreen target with its own depth
// and stencil; finish() writes it into the default framebuffer:
//
//   samples 0: a colour texture filtered by FXAA (Lottes 2009, shaders/fxaa.frag):
//              pixels on a luma edge are blended along it, so silhouettes show
//              intermediate colours instead of stairs.
//   samples N: an N-times multisampled target resolved by a blit: sharper, and
//              dearer on a software rasteriser (for stills).
//
// On llvmpipe with 2 cores at 1280 × 720, FXAA takes a frame of the hang
// scene from 13 to 21 ms (18 to 35 ms of processor time), 4× multisampling to
// 27 ms (46): FXAA is the default (docs/performance.md).
//
// What is drawn after finish() (the UI) is not filtered, and a read of the
// default framebuffer (capture.hpp) gets the anti-aliased picture.

#include <string>
#include <vector>

#include "render/gl_handles.hpp"
#include "render/program.hpp"
#include "render/shader_files.hpp"
#include "sim/result.hpp"

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
  // FXAA spares the columns left of `plainLeft` (pixels), which the side
  // panel covers: they are copied as they are.
  void finish(int plainLeft = 0);

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
