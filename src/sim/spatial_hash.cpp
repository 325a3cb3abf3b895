#include "sim/spatial_hash.hpp"

#include <algorithm>
#include <cmath>

namespace drape::sim {
namespace {

std::int64_t cellCoord(float x, float inverseCell) {
  // Clamp: a far-flung vertex must not overflow the integer cell index.
  double c = std::floor(double(x) * double(inverseCell));
  if (!(c >= -1e15)) c = -1e15;  // NaN too
  if (!(c <= 1e15)) c = 1e15;
  return std::int64_t(c);
}

}  // namespace

std::uint64_t SpatialHash::CellRange::count() const {
  const glm::i64vec3 d = hi - lo + glm::i64vec3(1);
  if (d.x > std::int64_t(kMaxCells) || d.y > std::int64_t(kMaxCells) ||
      d.z > std::int64_t(kMaxCells))
    return kMaxCells + 1;
  return std::uint64_t(d.x) * std::uint64_t(d.y) * std::uint64_t(d.z);
}

SpatialHash::CellRange SpatialHash::cellsOf(const Aabb& b) const {
  return {{cellCoord(b.min.x, inverseCell_), cellCoord(b.min.y, inverseCell_),
           cellCoord(b.min.z, inverseCell_)},
          {cellCoord(b.max.x, inverseCell_), cellCoord(b.max.y, inverseCell_),
           cellCoord(b.max.z, inverseCell_)}};
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

void SpatialHash::build(const std::vector<Aabb>& boxes, float cell, Insert insert) {
  inverseCell_ = 1.0f / std::max(cell, 1e-6f);
  insert_ = insert;
  boxes_ = boxes;
  large_.clear();
  reach_ = glm::vec3(0.0f);
  std::uint64_t entries = 0;
  for (const Aabb& b : boxes_) {
    const std::uint64_t c = cellsOf(b).count();
    if (c > kMaxCells) continue;
    entries += insert == Insert::Centre ? 1 : c;
    reach_ = glm::max(reach_, 0.5f * (b.max - b.min));
  }
  std::size_t size = 64;
  while (size < 2 * entries) size *= 2;
  mask_ = size - 1;
  start_.assign(size + 1, 0);
  auto forCells = [&](const CellRange& r, auto&& f) {
    for (std::int64_t z = r.lo.z; z <= r.hi.z; ++z)
      for (std::int64_t y = r.lo.y; y <= r.hi.y; ++y)
        for (std::int64_t x = r.lo.x; x <= r.hi.x; ++x) f(bucketOf(x, y, z));
  };
  // The cells a box goes into: all it overlaps, or its centre's.
  auto cellsFor = [&](const Aabb& b) {
    if (insert == Insert::EveryCell) return cellsOf(b);
    const glm::vec3 c = 0.5f * (b.min + b.max);
    return cellsOf({c, c});
  };
  // Counting sort: sizes, offsets, then fill in box order.
  for (std::uint32_t i = 0; i < boxes_.size(); ++i) {
    if (cellsOf(boxes_[i]).count() > kMaxCells) {
      large_.push_back(i);
      continue;
    }
    forCells(cellsFor(boxes_[i]), [&](std::size_t b) { ++start_[b + 1]; });
  }
  for (std::size_t b = 0; b < size; ++b) start_[b + 1] += start_[b];
  items_.resize(start_[size]);
  fill_.assign(start_.begin(), start_.end() - 1);
  for (std::uint32_t i = 0; i < boxes_.size(); ++i) {
    if (cellsOf(boxes_[i]).count() > kMaxCells) continue;
    forCells(cellsFor(boxes_[i]), [&](std::size_t b) { items_[fill_[b]++] = i; });
  }
}

void SpatialHash::query(const Aabb& box, std::vector<std::uint32_t>& out) const {
  out.clear();
  visit(box, [&](std::uint32_t i) { out.push_back(i); });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

}  // namespace drape::sim
