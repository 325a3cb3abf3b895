#include "sim/self/spatial_hash.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/cpu.hpp"
#include "sim/self/hash_scan.hpp"

namespace drape::sim {
namespace {

// floor(x / cell), clamped: a far-flung vertex must not overflow the
// integer cell index (cells beyond ±2^30 share the last one). Without a
// call to floor (not inlined without SSE4.1).
constexpr double kFarthestCell = double(1 << 30);
inline std::int64_t cellCoord(float x, float inverseCell) {
  double c = double(x) * double(inverseCell);
  if (!(c >= -kFarthestCell)) c = -kFarthestCell;  // NaN too
  if (!(c <= kFarthestCell)) c = kFarthestCell;
  const std::int64_t i = std::int64_t(c);  // rounds towards zero
  return i - std::int64_t(double(i) > c);
}

#if defined(__SSE2__)
// cellCoord of a and b, two at a time: the same operations on each lane.
inline void cellCoords(float a, float b, double inverseCell, std::int64_t& i, std::int64_t& j) {
  __m128d c = _mm_mul_pd(_mm_set_pd(double(b), double(a)), _mm_set1_pd(inverseCell));
  // max and min take their second operand where the first is NaN.
  c = _mm_max_pd(c, _mm_set1_pd(-kFarthestCell));
  c = _mm_min_pd(c, _mm_set1_pd(kFarthestCell));
  const __m128i t = _mm_cvttpd_epi32(c);  // rounds towards zero
  const __m128i below = _mm_castpd_si128(_mm_cmpgt_pd(_mm_cvtepi32_pd(t), c));
  // The comparison's lanes are 64 bits wide; the integers sit in the low 32
  // bits of the first two 32-bit lanes.
  const __m128i floor = _mm_add_epi32(t, _mm_shuffle_epi32(below, _MM_SHUFFLE(3, 3, 2, 0)));
  i = _mm_cvtsi128_si32(floor);
  j = _mm_cvtsi128_si32(_mm_shuffle_epi32(floor, _MM_SHUFFLE(1, 1, 1, 1)));
}
#endif

}  // namespace

std::uint64_t SpatialHash::CellRange::count() const {
  const glm::i64vec3 d = hi - lo + glm::i64vec3(1);
  if (d.x > std::int64_t(kMaxCells) || d.y > std::int64_t(kMaxCells) ||
      d.z > std::int64_t(kMaxCells))
    return kMaxCells + 1;
  return std::uint64_t(d.x) * std::uint64_t(d.y) * std::uint64_t(d.z);
}

SpatialHash::CellRange SpatialHash::cellsOf(const Aabb& b) const {
  CellRange r;
#if defined(__SSE2__)
  const double inverse = double(inverseCell_);
  for (int a = 0; a < 3; ++a) cellCoords(b.min[a], b.max[a], inverse, r.lo[a], r.hi[a]);
#else
  for (int a = 0; a < 3; ++a) {
    r.lo[a] = cellCoord(b.min[a], inverseCell_);
    r.hi[a] = cellCoord(b.max[a], inverseCell_);
  }
#endif
  return r;
}

std::size_t SpatialHash::bucketOf(std::int64_t x, std::int64_t y, std::int64_t z) const {
  // Teschner et al.'s hash of the cell coordinates, then mixed (a splitmix64
  // finaliser) so that the table can keep the low bits of a power of two.
  std::uint64_t h = (std::uint64_t(x) * 73856093ull) ^ (std::uint64_t(y) * 19349663ull) ^
                    (std::uint64_t(z) * 83492791ull);
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  return std::size_t((h ^ (h >> 31)) & mask_);
}

void SpatialHash::build(const std::vector<Aabb>& boxes, float cell, Insert insert, Layout layout,
                        const std::uint8_t* keep) {
  const float size = std::max(cell, 1e-6f);
  inverseCell_ = 1.0f / size;
  insert_ = insert;
  large_.clear();
  // Stored by its centre: Centre mode and at most kCentreMeanWidths times
  // the mean width of the boxes stored (and two cells) wide.
  float widest = 0.0f;
  if (insert == Insert::Centre) {
    double sum = 0.0;
    std::size_t count = 0;
    for (std::size_t i = 0; i < boxes.size(); ++i)
      if (!keep || keep[i]) {
        const glm::vec3 e = boxes[i].max - boxes[i].min;
        sum += double(std::max({e.x, e.y, e.z}));
        ++count;
      }
    const double mean = count > 0 ? sum / double(count) : 0.0;
    widest = float(std::min(2.0 * double(size), double(kCentreMeanWidths) * mean));
  }
  auto byCentre = [&](const Aabb& b) {
    if (insert != Insert::Centre) return false;
    const glm::vec3 e = b.max - b.min;
    return e.x <= widest && e.y <= widest && e.z <= widest;
  };
  // The cells of each box, the entries, and the block of cells they occupy:
  // a box stored by its centre goes into the cell of its centre; another
  // into all the cells it overlaps, or, past kMaxCells, on the list every
  // query checks (with an empty range).
  ranges_.resize(boxes.size());
  std::uint64_t entries = 0;
  glm::vec3 reach(0.0f);  // reach_, in a register while the boxes are read
  glm::i64vec3 lo(std::numeric_limits<std::int64_t>::max());
  glm::i64vec3 hi(std::numeric_limits<std::int64_t>::min());
  for (std::uint32_t i = 0; i < boxes.size(); ++i) {
    // Made here and then stored: read back from ranges_, the range would
    // wait for its own stores.
    const Aabb& b = boxes[i];
    CellRange r;
    if (keep && !keep[i]) {
      ranges_[i] = {glm::i64vec3(0), glm::i64vec3(-1)};  // no cells
      continue;
    }
    if (byCentre(b)) {
      const glm::vec3 c = 0.5f * (b.min + b.max);
      r.lo = r.hi = {cellCoord(c.x, inverseCell_), cellCoord(c.y, inverseCell_),
                     cellCoord(c.z, inverseCell_)};
      reach = glm::max(reach, 0.5f * (b.max - b.min));
      ++entries;
    } else {
      r = cellsOf(b);
      const std::uint64_t count = r.count();
      if (count > kMaxCells) {
        large_.push_back(i);
        ranges_[i] = {glm::i64vec3(0), glm::i64vec3(-1)};
        continue;
      }
      entries += count;
    }
    ranges_[i] = r;
    lo = glm::min(lo, r.lo);
    hi = glm::max(hi, r.hi);
  }
  reach_ = reach;
  // Indexed directly when the block is small enough (Auto), or up to 2^26
  // cells when asked to.
  const double limit = layout == Layout::Dense
                           ? double(1u << 26)
                           : double(std::max<std::uint64_t>(1u << 16, 16 * boxes.size()));
  // (Each coordinate lies within ±2^30, so hi − lo cannot overflow; with no
  // entries lo > hi and there is no block.)
  const glm::dvec3 span =
      entries > 0 ? glm::dvec3(hi) - glm::dvec3(lo) + glm::dvec3(1.0) : glm::dvec3(0.0);
  dense_ = entries > 0 && layout != Layout::Hashed && span.x * span.y * span.z <= limit;
  std::size_t tableSize;
  if (dense_) {
    lo_ = lo;
    dims_ = hi - lo + glm::i64vec3(1);
    tableSize = std::size_t(dims_.x * dims_.y * dims_.z);
  } else {
    tableSize = 64;
    while (tableSize < 2 * entries) tableSize *= 2;
    mask_ = tableSize - 1;
  }
  start_.assign(tableSize + 1, 0);
  auto forCells = [&](const CellRange& r, auto&& f) {
    for (std::int64_t z = r.lo.z; z <= r.hi.z; ++z)
      for (std::int64_t y = r.lo.y; y <= r.hi.y; ++y)
        for (std::int64_t x = r.lo.x; x <= r.hi.x; ++x)
          f(dense_ ? denseIndex(x, y, z) : bucketOf(x, y, z));
  };
  // Counting sort: sizes (start_[b] counts bucket b), their running sums
  // (start_[b] is then where bucket b ends), then the boxes from the last
  // to the first, each put just before what its buckets already hold (so
  // that each bucket holds its boxes in ascending order, and start_[b] ends
  // where bucket b begins). A box in one cell (most) keeps its bucket from
  // the first pass for the last.
  oneCell_.resize(boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const CellRange& r = ranges_[i];
    if (r.lo == r.hi) {
      const std::size_t b =
          dense_ ? denseIndex(r.lo.x, r.lo.y, r.lo.z) : bucketOf(r.lo.x, r.lo.y, r.lo.z);
      oneCell_[i] = std::uint32_t(b);
      ++start_[b];
    } else {
      oneCell_[i] = UINT32_MAX;
      forCells(r, [&](std::size_t b) { ++start_[b]; });
    }
  }
  for (std::size_t b = 1; b < tableSize; ++b) start_[b] += start_[b - 1];
  // The boxes over too many cells follow the cells' entries, and kPadding
  // entries of padding follow them (read by the tests of four or eight
  // entries at a time, and never kept).
  const std::size_t entryCount = start_[tableSize - 1];
  start_[tableSize] = std::uint32_t(entryCount);
  entryEnd_ = std::uint32_t(entryCount + large_.size());
  items_.resize(entryEnd_ + kPadding);
  std::copy(large_.begin(), large_.end(), items_.begin() + std::ptrdiff_t(entryCount));
  for (std::size_t i = boxes.size(); i-- > 0;) {
    if (oneCell_[i] != UINT32_MAX)
      items_[--start_[oneCell_[i]]] = std::uint32_t(i);
    else
      forCells(ranges_[i], [&](std::size_t b) { items_[--start_[b]] = std::uint32_t(i); });
  }
  // The bounds in entry order: written in sequence, read from the boxes.
  for (std::vector<float>& b : bounds_) b.resize(entryEnd_ + kPadding);
  for (std::size_t k = 0; k < entryEnd_; ++k) {
    const Aabb& b = boxes[items_[k]];
    for (int a = 0; a < 3; ++a) {
      bounds_[a][k] = b.min[a];
      bounds_[3 + a][k] = b.max[a];
    }
  }
}

template <typename Run>
void SpatialHash::forEachRun(const Aabb& box, Run&& run) const {
  CellRange r = cellsOf(insert_ == Insert::Centre ? Aabb{box.min - reach_, box.max + reach_} : box);
  if (dense_) {
    // Cells outside the occupied block hold nothing; a row of cells is one
    // run of entries.
    r.lo = glm::max(r.lo, lo_);
    r.hi = glm::min(r.hi, lo_ + dims_ - glm::i64vec3(1));
    // A box beside the block on some axis (lo > hi there) meets no cell.
    if (r.lo.x > r.hi.x) r.hi.z = r.lo.z - 1;
    for (std::int64_t z = r.lo.z; z <= r.hi.z; ++z)
      for (std::int64_t y = r.lo.y; y <= r.hi.y; ++y)
        run(start_[denseIndex(r.lo.x, y, z)], start_[denseIndex(r.hi.x, y, z) + 1]);
  } else if (r.count() > kMaxCells) {
    run(0, entryEnd_);  // every entry: each box at least once
    return;
  } else {
    for (std::int64_t z = r.lo.z; z <= r.hi.z; ++z)
      for (std::int64_t y = r.lo.y; y <= r.hi.y; ++y)
        for (std::int64_t x = r.lo.x; x <= r.hi.x; ++x) {
          const std::size_t b = bucketOf(x, y, z);
          run(start_[b], start_[b + 1]);
        }
  }
  run(start_.back(), entryEnd_);  // the boxes over too many cells
}

template <typename Scan>
std::size_t SpatialHash::collectRuns(const Aabb& box, std::vector<std::uint32_t>& buffer,
                                     std::size_t* scanned, Scan&& scan) const {
  std::size_t count = 0;
  forEachRun(box, [&](std::uint32_t begin, std::uint32_t end) {
    if (end <= begin) return;
    if (scanned) *scanned += end - begin;
    if (buffer.size() < count + end - begin + kPadding)
      buffer.resize(2 * (count + end - begin + kPadding));
    count = std::size_t(scan(begin, end, buffer.data() + count) - buffer.data());
  });
  return count;
}

std::size_t SpatialHash::collect(const Aabb& box, std::vector<std::uint32_t>& buffer,
                                 std::size_t* scanned) const {
  // Entries begin … end − 1: each is written, and the end moves past it
  // when it overlaps.
#if defined(DRAPE_HAVE_AVX2_KERNELS)
  const bool eight = avx2Available();
  const float* const bounds[6] = {bounds_[0].data(), bounds_[1].data(), bounds_[2].data(),
                                  bounds_[3].data(), bounds_[4].data(), bounds_[5].data()};
  const float lo[3] = {box.min.x, box.min.y, box.min.z}, hi[3] = {box.max.x, box.max.y, box.max.z};
#endif
  return collectRuns(box, buffer, scanned,
                     [&](std::uint32_t begin, std::uint32_t end, std::uint32_t* out) {
#if defined(DRAPE_HAVE_AVX2_KERNELS)
                       if (eight)
                         return scanOverlapsAvx2(bounds, items_.data(), begin, end, lo, hi, out);
#endif
                       for (std::uint32_t k = begin; k < end; k += 4) {
                         const unsigned hits = overlapMask4(k, box) & validMask(k, end);
                         for (unsigned j = 0; j < 4; ++j) {
                           *out = items_[k + j];
                           out += (hits >> j) & 1u;
                         }
                       }
                       return out;
                     });
}

std::size_t SpatialHash::collectTagged(const Aabb& a, const Aabb& b,
                                       std::vector<std::uint32_t>& buffer,
                                       std::size_t* scanned) const {
#if defined(DRAPE_HAVE_AVX2_KERNELS)
  const bool eight = avx2Available();
  const float* const bounds[6] = {bounds_[0].data(), bounds_[1].data(), bounds_[2].data(),
                                  bounds_[3].data(), bounds_[4].data(), bounds_[5].data()};
  const float lo[2][3] = {{a.min.x, a.min.y, a.min.z}, {b.min.x, b.min.y, b.min.z}};
  const float hi[2][3] = {{a.max.x, a.max.y, a.max.z}, {b.max.x, b.max.y, b.max.z}};
#endif
  const Aabb joint{glm::min(a.min, b.min), glm::max(a.max, b.max)};
  return collectRuns(joint, buffer, scanned,
                     [&](std::uint32_t begin, std::uint32_t end, std::uint32_t* out) {
#if defined(DRAPE_HAVE_AVX2_KERNELS)
                       if (eight)
                         return scanTaggedAvx2(bounds, items_.data(), begin, end, lo, hi, out);
#endif
                       for (std::uint32_t k = begin; k < end; k += 4) {
                         const unsigned valid = validMask(k, end);
                         const unsigned first = overlapMask4(k, a) & valid;
                         const unsigned second = overlapMask4(k, b) & valid;
                         for (unsigned j = 0; j < 4; ++j) {
                           const unsigned tag = ((first >> j) & 1u) | (((second >> j) & 1u) << 1);
                           *out = 4 * items_[k + j] + tag;
                           out += tag != 0 ? 1 : 0;
                         }
                       }
                       return out;
                     });
}

void SpatialHash::query(const Aabb& box, std::vector<std::uint32_t>& out) const {
  out.resize(collect(box, out));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

}  // namespace drape::sim
