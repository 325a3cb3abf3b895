#pragma once
// A rectangle of the framebuffer in pixels, origin at the bottom left (as
// glViewport).

#include <algorithm>

namespace drape::render {

struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;
  bool empty() const { return width <= 0 || height <= 0; }
};

// What the two have in common (empty when nothing).
inline PixelRect intersect(const PixelRect& a, const PixelRect& b) {
  const int x = std::max(a.x, b.x), y = std::max(a.y, b.y);
  const int right = std::min(a.x + a.width, b.x + b.width);
  const int top = std::min(a.y + a.height, b.y + b.height);
  if (right <= x || top <= y) return {};
  return {x, y, right - x, top - y};
}

}  // namespace drape::render
