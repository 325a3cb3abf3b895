#include "sim/self/outline.hpp"

#include <algorithm>
#include <cmath>

namespace drape::sim {
namespace {

// Every side turns counter-clockwise round `centre` by more than a margin
// (sin 1e-6, for the rounding), and the sides go round it once.
bool starAbout(const std::vector<OutlineSide>& sides, const glm::dvec2& centre) {
  int turns = 0;  // sides across the half-line from the centre along +x
  for (const OutlineSide& s : sides) {
    const glm::dvec2 p = s.p - centre, q = s.q - centre;
    const double cross = p.x * q.y - p.y * q.x;
    if (!(cross > 0.0) || cross * cross <= 1e-12 * glm::dot(p, p) * glm::dot(q, q)) return false;
    // Turning counter-clockwise, a side crosses the half-line upwards.
    turns += p.y < 0.0 && q.y >= 0.0;
  }
  return turns == 1;
}

// The sides make one loop: each vertex starts one side, and following the
// sides from the first comes back to it after all of them. `start[v]`: the
// side vertex v starts, valid where `stamp[v]` is this call's.
bool oneLoop(const std::vector<OutlineSide>& sides, OutlineScratch& scratch) {
  const std::uint32_t count = std::uint32_t(sides.size());
  std::uint32_t top = 0;
  for (const OutlineSide& s : sides) top = std::max({top, s.from + 1, s.to + 1});
  if (scratch.stamp.size() < top) {
    scratch.stamp.resize(top, 0);
    scratch.start.resize(top);
  }
  if (++scratch.call == 0) {  // the stamps wrapped round
    std::fill(scratch.stamp.begin(), scratch.stamp.end(), 0);
    scratch.call = 1;
  }
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::uint32_t v = sides[k].from;
    if (scratch.stamp[v] == scratch.call) return false;
    scratch.stamp[v] = scratch.call;
    scratch.start[v] = k;
  }
  std::uint32_t at = 0, steps = 0;
  do {
    const std::uint32_t to = sides[at].to;
    if (scratch.stamp[to] != scratch.call) return false;
    at = scratch.start[to];
    ++steps;
  } while (at != 0 && steps <= count);
  return steps == count;
}

double orient(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

// Closed segments ab and cd meet (touching counts).
bool meet(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& c, const glm::dvec2& d) {
  // Their boxes first: most sides sharing a cell are apart.
  if (std::max(a.x, b.x) < std::min(c.x, d.x) || std::max(c.x, d.x) < std::min(a.x, b.x) ||
      std::max(a.y, b.y) < std::min(c.y, d.y) || std::max(c.y, d.y) < std::min(a.y, b.y))
    return false;
  const double abc = orient(a, b, c), abd = orient(a, b, d);
  const double cda = orient(c, d, a), cdb = orient(c, d, b);
  // Either one's ends strictly on one side of the other (collinear and
  // with boxes that overlap, they meet).
  return !((abc > 0 && abd > 0) || (abc < 0 && abd < 0) || (cda > 0 && cdb > 0) ||
           (cda < 0 && cdb < 0));
}

}  // namespace

bool simpleOutline(const std::vector<OutlineSide>& sides, OutlineScratch& scratch) {
  const std::size_t count = sides.size();
  if (count < 3) return false;
  glm::dvec2 mean(0.0), lo = sides[0].p, hi = lo;
  for (const OutlineSide& s : sides) {
    mean += s.p;
    lo = glm::min(lo, s.p);
    hi = glm::max(hi, s.p);
  }
  // Star-shaped about the mean: one simple loop (outline.hpp).
  if (starAbout(sides, mean / double(count))) return true;
  // One loop, running counter-clockwise (twice its area, shoelace).
  if (!oneLoop(sides, scratch)) return false;
  double area = 0.0;
  for (const OutlineSide& s : sides)
    area += (s.p.x - lo.x) * (s.q.y - lo.y) - (s.q.x - lo.x) * (s.p.y - lo.y);
  if (!(area > 0.0)) return false;
  // A grid of about one cell per side over the outline's box; each side in
  // the cells its box covers.
  const int n = std::max(1, int(std::sqrt(double(count))));
  const glm::dvec2 size = hi - lo;
  const glm::dvec2 scale(size.x > 0.0 ? n / size.x : 0.0, size.y > 0.0 ? n / size.y : 0.0);
  auto cellOf = [&](double v, double low, double by) {
    return std::min(n - 1, int((v - low) * by));
  };
  scratch.span.resize(count);
  const std::size_t cells = std::size_t(n) * std::size_t(n);
  scratch.cellStart.assign(cells + 1, 0);
  for (std::size_t k = 0; k < count; ++k) {
    const OutlineSide& s = sides[k];
    const glm::ivec4 span(cellOf(std::min(s.p.x, s.q.x), lo.x, scale.x),
                          cellOf(std::min(s.p.y, s.q.y), lo.y, scale.y),
                          cellOf(std::max(s.p.x, s.q.x), lo.x, scale.x),
                          cellOf(std::max(s.p.y, s.q.y), lo.y, scale.y));
    scratch.span[k] = span;
    for (int y = span.y; y <= span.w; ++y)
      for (int x = span.x; x <= span.z; ++x) ++scratch.cellStart[std::size_t(y * n + x) + 1];
  }
  for (std::size_t c = 0; c < cells; ++c) scratch.cellStart[c + 1] += scratch.cellStart[c];
  scratch.cell.resize(scratch.cellStart[cells]);
  scratch.fill.assign(scratch.cellStart.begin(), scratch.cellStart.end() - 1);
  for (std::uint32_t k = 0; k < count; ++k) {
    const glm::ivec4 span = scratch.span[k];
    for (int y = span.y; y <= span.w; ++y)
      for (int x = span.x; x <= span.z; ++x)
        scratch.cell[scratch.fill[std::size_t(y * n + x)]++] = k;
  }
  for (std::size_t c = 0; c < cells; ++c)
    for (std::uint32_t i = scratch.cellStart[c]; i < scratch.cellStart[c + 1]; ++i)
      for (std::uint32_t j = i + 1; j < scratch.cellStart[c + 1]; ++j) {
        const OutlineSide &s = sides[scratch.cell[i]], &t = sides[scratch.cell[j]];
        if (s.to == t.from || t.to == s.from) continue;  // one follows the other
        if (meet(s.p, s.q, t.p, t.q)) return false;
      }
  return true;
}

}  // namespace drape::sim
