#pragma once
// Reading back what was drawn, for recording: the default framebuffer's back
// buffer (before the swap), as the frame writers want it.

#include <cstdint>
#include <vector>

namespace drape::render {

// Read the `width` × `height` pixels at the top of the default framebuffer
// (whose height is `fbHeight`), from column `left` on, into `rgb`: tightly packed RGB,
// 8 bits each, top row first (GL counts rows from the bottom, image files
// from the top, so the rows are flipped here). `rgb` is resized and its
// storage reused. A multisampled window is resolved by the read itself.
void captureFramebuffer(int left, int width, int height, int fbHeight,
                        std::vector<std::uint8_t>& rgb);

}  // namespace drape::render
