// Measurements on screenshots for the GUI test scripts, quick where
// ImageMagick's per-pixel -fx takes seconds per image:
//   image_probe size IMG                      → "W H"
//   image_probe stats IMG                     → "W H MEAN STDDEV" (of all channels, 0..1)
//   image_probe frac IMG REGION MASK          → fraction of the region's pixels in MASK
//   image_probe box IMG REGION MASK           → bounding box "WxH+X+Y" of MASK pixels
//                                               (window coordinates), or "none"
//   image_probe grab IMG REGION MASK          → "X Y": in the column through the middle
//                                               of the box, the middle of the longest
//                                               run of MASK pixels
//   image_probe diff IMG IMG REGION FUZZ      → pixels whose colours differ by more
//                                               than FUZZ (0..1, of the RGB diagonal)
//   image_probe grain IMG REGION MASK         → "PIXELS RMS MAX": over the region's pixels
//                                               whose 5×5 neighbourhood lies in MASK,
//                                               how much their luma departs from the
//                                               neighbourhood's mean, relative to it
//                                               (root mean square and largest)
//   image_probe edges IMG REGION MASK         → "EDGES BLENDED": the MASK's boundary
//                                               crossed along rows and columns, and
//                                               how many crossings show a blended
//                                               colour (see blended())
// REGION is WxH+X+Y (ImageMagick's geometry) or "all". MASK is one of
//   cloth   red-dominant: the cloth's front (terracotta) or back (wine red)
//   marker  the grabbed vertex's cyan marker
//   banner  the strong red of the error banner
//   pin     the pins' yellow markers
//   notice  the green of the banner saying what was done (a file saved)
//   panel   the dark grey of the side panel and the overlays over the view
//   crossing  the strain view's magenta where the cloth passes through itself
// Exit 2 on bad arguments or unreadable images.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

namespace {

struct Image {
  int w = 0, h = 0;
  unsigned char* rgb = nullptr;
  ~Image() { stbi_image_free(rgb); }
  const unsigned char* at(int x, int y) const { return rgb + 3 * (std::size_t(y) * w + x); }
};

struct Region {
  int x = 0, y = 0, w = 0, h = 0;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr, "image_probe: %s\n", why);
  std::exit(2);
}

void load(const char* path, Image& img) {
  int n = 0;
  img.rgb = stbi_load(path, &img.w, &img.h, &n, 3);
  if (!img.rgb) usage((std::string("cannot read ") + path).c_str());
}

Region region(const char* text, const Image& img) {
  Region r{0, 0, img.w, img.h};
  if (std::strcmp(text, "all") != 0 &&
      std::sscanf(text, "%dx%d+%d+%d", &r.w, &r.h, &r.x, &r.y) != 4)
    usage("bad region");
  r.x = std::clamp(r.x, 0, img.w);
  r.y = std::clamp(r.y, 0, img.h);
  r.w = std::clamp(r.w, 0, img.w - r.x);
  r.h = std::clamp(r.h, 0, img.h - r.y);
  return r;
}

using Mask = bool (*)(float r, float g, float b);
Mask mask(const char* name) {
  if (!std::strcmp(name, "cloth"))
    return [](float r, float g, float b) { return r > 0.25f && r > 1.25f * g && r > 1.25f * b; };
  if (!std::strcmp(name, "marker"))
    return [](float r, float g, float b) { return r < 0.5f && g > 0.65f && b > 0.8f; };
  if (!std::strcmp(name, "banner"))
    return [](float r, float g, float b) { return r > 0.55f && g < 0.25f && b < 0.25f; };
  if (!std::strcmp(name, "crossing"))
    return [](float r, float g, float b) { return r > 0.45f && b > 0.4f && g < 0.45f * r; };
  if (!std::strcmp(name, "pin"))
    return [](float r, float g, float b) { return r > 0.7f && g > 0.55f && b < 0.3f; };
  if (!std::strcmp(name, "notice"))
    return [](float r, float g, float b) { return g > 0.3f && g > 1.6f * r && g > 1.4f * b; };
  if (!std::strcmp(name, "panel"))  // the panels' and overlays' dark neutral grey
    return [](float r, float g, float b) {
      return std::max({r, g, b}) < 0.2f && std::max({r, g, b}) - std::min({r, g, b}) < 0.05f;
    };
  usage("unknown mask");
}

bool in(const Image& img, Mask m, int x, int y) {
  const unsigned char* p = img.at(x, y);
  return m(p[0] / 255.0f, p[1] / 255.0f, p[2] / 255.0f);
}

// Bounding box of the mask's pixels in the region; false when none.
bool box(const Image& img, const Region& r, Mask m, Region& out) {
  int x0 = img.w, y0 = img.h, x1 = -1, y1 = -1;
  for (int y = r.y; y < r.y + r.h; ++y)
    for (int x = r.x; x < r.x + r.w; ++x)
      if (in(img, m, x, y)) {
        x0 = std::min(x0, x);
        x1 = std::max(x1, x);
        y0 = std::min(y0, y);
        y1 = std::max(y1, y);
      }
  if (x1 < 0) return false;
  out = {x0, y0, x1 - x0 + 1, y1 - y0 + 1};
  return true;
}

// A crossing of the mask's boundary between pixels `a` (outside) and `a +
// step` (inside), `step` one pixel along a row or a column. The colours two
// pixels beyond each side, O outside and I inside, stand for the two
// surfaces. The crossing counts (true in `edge`) when both are clear of it
// (O outside the mask, I inside) and differ by a tenth of the RGB diagonal or
// more. It is blended when one of the four pixels around the boundary lies
// on the segment from O to I, strictly between: its projection t in [0.2,
// 0.8] and its distance from the segment within a quarter of |I − O|. Edges
// drawn without anti-aliasing jump from one surface's colour to the other's.
bool blended(const Image& img, Mask m, int ax, int ay, int dx, int dy, bool& edge) {
  edge = false;
  const int ox = ax - 2 * dx, oy = ay - 2 * dy, ix = ax + 3 * dx, iy = ay + 3 * dy;
  if (ox < 0 || oy < 0 || ix < 0 || iy < 0 || ox >= img.w || ix >= img.w || oy >= img.h ||
      iy >= img.h)
    return false;
  if (in(img, m, ox, oy) || !in(img, m, ix, iy)) return false;
  double o[3], d[3], dd = 0.0;
  for (int c = 0; c < 3; ++c) {
    o[c] = img.at(ox, oy)[c] / 255.0;
    d[c] = img.at(ix, iy)[c] / 255.0 - o[c];
    dd += d[c] * d[c];
  }
  if (dd < 0.01 * 3.0) return false;
  edge = true;
  for (int k = -1; k <= 2; ++k) {
    const unsigned char* p = img.at(ax + k * dx, ay + k * dy);
    double v[3], t = 0.0;
    for (int c = 0; c < 3; ++c) {
      v[c] = p[c] / 255.0 - o[c];
      t += v[c] * d[c];
    }
    t /= dd;
    double off = 0.0;
    for (int c = 0; c < 3; ++c) off += (v[c] - t * d[c]) * (v[c] - t * d[c]);
    if (t >= 0.2 && t <= 0.8 && off <= 0.0625 * dd) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) usage("usage: image_probe size|stats|frac|box|grab|diff IMG ...");
  const std::string cmd = argv[1];
  Image img;
  load(argv[2], img);
  if (cmd == "size") {
    std::printf("%d %d\n", img.w, img.h);
  } else if (cmd == "stats") {
    double sum = 0.0, sum2 = 0.0;
    const std::size_t n = std::size_t(img.w) * img.h * 3;
    for (std::size_t i = 0; i < n; ++i) {
      const double v = img.rgb[i] / 255.0;
      sum += v;
      sum2 += v * v;
    }
    const double mean = sum / double(n);
    std::printf("%d %d %.6f %.6f\n", img.w, img.h, mean,
                std::sqrt(std::max(0.0, sum2 / double(n) - mean * mean)));
  } else if (cmd == "frac" && argc == 5) {
    const Region r = region(argv[3], img);
    const Mask m = mask(argv[4]);
    std::size_t count = 0;
    for (int y = r.y; y < r.y + r.h; ++y)
      for (int x = r.x; x < r.x + r.w; ++x) count += in(img, m, x, y);
    std::printf("%.6f\n", r.w * r.h > 0 ? double(count) / (double(r.w) * r.h) : 0.0);
  } else if ((cmd == "box" || cmd == "grab") && argc == 5) {
    const Region r = region(argv[3], img);
    const Mask m = mask(argv[4]);
    Region b;
    if (!box(img, r, m, b)) {
      std::printf("none\n");
      return 0;
    }
    if (cmd == "box") {
      std::printf("%dx%d+%d+%d\n", b.w, b.h, b.x, b.y);
      return 0;
    }
    const int x = b.x + b.w / 2;
    int best = 0, bestMid = -1, run = 0;
    for (int y = r.y; y < r.y + r.h; ++y) {
      run = in(img, m, x, y) ? run + 1 : 0;
      if (run > best) {
        best = run;
        bestMid = y - run / 2;
      }
    }
    std::printf("%d %d\n", x, bestMid);
  } else if (cmd == "diff" && argc == 6) {
    Image other;
    load(argv[3], other);
    if (other.w != img.w || other.h != img.h) usage("images differ in size");
    const Region r = region(argv[4], img);
    const double fuzz = std::atof(argv[5]) * 255.0 * std::sqrt(3.0);
    std::size_t count = 0;
    for (int y = r.y; y < r.y + r.h; ++y)
      for (int x = r.x; x < r.x + r.w; ++x) {
        const unsigned char *a = img.at(x, y), *b = other.at(x, y);
        const double d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2];
        count += std::sqrt(d0 * d0 + d1 * d1 + d2 * d2) > fuzz;
      }
    std::printf("%zu\n", count);
  } else if (cmd == "grain" && argc == 5) {
    const Region r = region(argv[3], img);
    const Mask m = mask(argv[4]);
    auto luma = [&](int x, int y) {
      const unsigned char* p = img.at(x, y);
      return (0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]) / 255.0;
    };
    std::size_t pixels = 0;
    double sum2 = 0.0, most = 0.0;
    for (int y = std::max(r.y, 2); y < std::min(r.y + r.h, img.h - 2); ++y)
      for (int x = std::max(r.x, 2); x < std::min(r.x + r.w, img.w - 2); ++x) {
        double mean = 0.0;
        bool inside = true;
        for (int dy = -2; dy <= 2 && inside; ++dy)
          for (int dx = -2; dx <= 2 && inside; ++dx) {
            inside = in(img, m, x + dx, y + dy);
            mean += luma(x + dx, y + dy);
          }
        if (!inside || mean <= 0.0) continue;
        mean /= 25.0;
        const double d = (luma(x, y) - mean) / mean;
        sum2 += d * d;
        most = std::max(most, std::abs(d));
        ++pixels;
      }
    std::printf("%zu %.6f %.6f\n", pixels, pixels ? std::sqrt(sum2 / double(pixels)) : 0.0, most);
  } else if (cmd == "edges" && argc == 5) {
    const Region r = region(argv[3], img);
    const Mask m = mask(argv[4]);
    std::size_t edges = 0, mixed = 0;
    for (int y = r.y; y + 1 < r.y + r.h; ++y)
      for (int x = r.x; x + 1 < r.x + r.w; ++x)
        for (const auto& [dx, dy] : {std::pair{1, 0}, std::pair{0, 1}}) {
          const bool here = in(img, m, x, y), next = in(img, m, x + dx, y + dy);
          if (here == next) continue;
          // Outside first, stepping inwards.
          const int ax = here ? x + dx : x, ay = here ? y + dy : y;
          bool edge = false;
          const bool b = blended(img, m, ax, ay, here ? -dx : dx, here ? -dy : dy, edge);
          edges += edge;
          mixed += b;
        }
    std::printf("%zu %zu\n", edges, mixed);
  } else {
    usage("bad arguments");
  }
  return 0;
}
