#include "render/capture.hpp"

#include <algorithm>

#include <glad/gl.h>

namespace drape::render {

void captureFramebuffer(int left, int width, int height, int fbHeight,
                        std::vector<std::uint8_t>& rgb) {
  const std::size_t row = std::size_t(width) * 3;
  rgb.resize(row * std::size_t(height));
  if (rgb.empty()) return;
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);  // rows of 3·width bytes, no padding
  glReadPixels(left, fbHeight - height, width, height, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
  for (int top = 0, bottom = height - 1; top < bottom; ++top, --bottom)
    std::swap_ranges(rgb.begin() + std::ptrdiff_t(row * std::size_t(top)),
                     rgb.begin() + std::ptrdiff_t(row * std::size_t(top + 1)),
                     rgb.begin() + std::ptrdiff_t(row * std::size_t(bottom)));
}

}  // namespace drape::render
