#pragma once
// Spatial hashing of boxes (Teschner et al. 2003, "Optimized spatial hashing
// for collision detection of deformable objects"; PBD §4.3): an unbounded grid
// of cubic cells. Where the stored boxes lie in a compact block of cells (a
// cloth: a few hundred thousand cells at most), the cells are indexed
// directly, so that a query reads each row of cells it covers as one
// contiguous run; otherwise the cell's integer coordinates are hashed into a
// table. Buckets are filled by counting sort in box order, so nothing depends
// on the order of a hash table's iteration (determinism).

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace drape::sim {

struct Aabb {
  glm::vec3 min{0.0f}, max{0.0f};
  bool overlaps(const Aabb& o) const {
    return min.x <= o.max.x && o.min.x <= max.x && min.y <= o.max.y && o.min.y <= max.y &&
           min.z <= o.max.z && o.min.z <= max.z;
  }
  // The same, as 0 or 1, evaluated in full.
  unsigned overlapsBranchless(const Aabb& o) const {
    return unsigned((min.x <= o.max.x) & (o.min.x <= max.x) & (min.y <= o.max.y) &
                    (o.min.y <= max.y) & (min.z <= o.max.z) & (o.min.z <= max.z));
  }
};

class SpatialHash {
 public:
  // A box over more cells than this is checked by every query instead.
  static constexpr std::uint64_t kMaxCells = 512;

  // How boxes are stored. EveryCell: in every cell they overlap (for boxes
  // as large as the cells, such as triangles). Centre: a box no wider than
  // two cells goes only into the cell of its centre, and each query is grown
  // by the largest half extent of those; for many small boxes (swept
  // vertices), far fewer entries and cells to visit. Wider boxes (a vertex
  // that moved far) still go into every cell they overlap, so that one of
  // them does not grow every query.
  enum class Insert : std::uint8_t { EveryCell, Centre };
  // How cells are found: Auto indexes them directly when the occupied block
  // is at most max(2^16, 16 × boxes) cells, and hashes them otherwise (the
  // other two force one way; for tests).
  enum class Layout : std::uint8_t { Auto, Dense, Hashed };

  // Box i of `boxes` goes into the hash of cells of edge `cell` (m). Boxes
  // over too many cells (a vertex flung far in one step) are kept in a
  // short list that every query checks instead.
  void build(const std::vector<Aabb>& boxes, float cell, Insert insert = Insert::EveryCell,
             Layout layout = Layout::Auto);
  // Ids of the boxes that overlap `box`, ascending and without repeats.
  void query(const Aabb& box, std::vector<std::uint32_t>& out) const;
  // Call f(id) for the boxes that overlap `box`, in bucket order; an id can
  // come more than once (a box over several of the cells, or cells sharing a
  // bucket), so the caller drops repeats. Cheaper than query() when the
  // stored boxes are points.
  template <typename F>
  void visit(const Aabb& box, F&& f) const {
    CellRange r =
        cellsOf(insert_ == Insert::Centre ? Aabb{box.min - reach_, box.max + reach_} : box);
    auto take = [&](std::uint32_t i) {
      if (boxes_[i].overlaps(box)) f(i);
    };
    // Buckets [first, last]: their entries' boxes lie side by side in memory.
    // Tested without a branch per entry (a few in five pass, so a branch
    // would mispredict often), in blocks whose hits are then handed on.
    auto run = [&](std::size_t first, std::size_t last) {
      std::uint32_t hits[64];
      for (std::uint32_t k = start_[first], end = start_[last + 1]; k < end;) {
        const std::uint32_t stop = end - k > 64u ? k + 64u : end;
        unsigned count = 0;
        for (; k < stop; ++k) {
          hits[count] = items_[k];
          count += itemBoxes_[k].overlapsBranchless(box);
        }
        for (unsigned j = 0; j < count; ++j) f(hits[j]);
      }
    };
    if (dense_) {
      // Cells outside the occupied block hold nothing.
      r.lo = glm::max(r.lo, lo_);
      r.hi = glm::min(r.hi, lo_ + dims_ - glm::i64vec3(1));
      for (std::int64_t z = r.lo.z; z <= r.hi.z; ++z)
        for (std::int64_t y = r.lo.y; y <= r.hi.y; ++y)
          run(denseIndex(r.lo.x, y, z), denseIndex(r.hi.x, y, z));
    } else if (r.count() > kMaxCells) {
      for (std::uint32_t i = 0; i < boxes_.size(); ++i) take(i);
      return;
    } else {
      for (std::int64_t z = r.lo.z; z <= r.hi.z; ++z)
        for (std::int64_t y = r.lo.y; y <= r.hi.y; ++y)
          for (std::int64_t x = r.lo.x; x <= r.hi.x; ++x) {
            const std::size_t b = bucketOf(x, y, z);
            run(b, b);
          }
    }
    for (std::uint32_t i : large_) take(i);
  }
  bool dense() const { return dense_; }

 private:
  struct CellRange {
    glm::i64vec3 lo, hi;
    std::uint64_t count() const;
  };
  CellRange cellsOf(const Aabb& box) const;
  std::size_t bucketOf(std::int64_t x, std::int64_t y, std::int64_t z) const;
  std::size_t denseIndex(std::int64_t x, std::int64_t y, std::int64_t z) const {
    return std::size_t(((z - lo_.z) * dims_.y + (y - lo_.y)) * dims_.x + (x - lo_.x));
  }

  float inverseCell_ = 1.0f;
  std::size_t mask_ = 0;  // hashed: table size − 1 (a power of two)
  bool dense_ = false;
  glm::i64vec3 lo_{0}, dims_{0};  // dense: the occupied block of cells
  std::vector<Aabb> boxes_;
  std::vector<std::uint32_t> start_;  // bucket b is items_[start_[b], start_[b + 1])
  std::vector<std::uint32_t> items_;
  std::vector<Aabb> itemBoxes_;       // the box of each entry of items_
  std::vector<std::uint32_t> large_;  // boxes over more than kMaxCells cells
  std::vector<std::uint32_t> fill_;   // build's scratch
  Insert insert_ = Insert::EveryCell;
  glm::vec3 reach_{0.0f};  // Centre: the largest half extent of a box stored by its centre
};

}  // namespace drape::sim
