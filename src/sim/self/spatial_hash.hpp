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

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace drape::sim {

struct Aabb {
  glm::vec3 min{0.0f}, max{0.0f};
  bool overlaps(const Aabb& o) const {
    return min.x <= o.max.x && o.min.x <= max.x && min.y <= o.max.y && o.min.y <= max.y &&
           min.z <= o.max.z && o.min.z <= max.z;
  }
};

class SpatialHash {
 public:
  // A box over more cells than this is checked by every query instead.
  static constexpr std::uint64_t kMaxCells = 512;

  // How boxes are stored. EveryCell: in every cell they overlap (for boxes
  // as large as the cells, such as triangles). Centre: a box no wider than
  // kCentreMeanWidths times the boxes' mean width (and two cells) goes only
  // into the cell of its centre, and each query is grown by the largest
  // half extent of those; for many small boxes (swept vertices), far fewer
  // entries and cells to visit. Wider boxes (a vertex that moved far) still
  // go into every cell they overlap, so that a few of them do not grow
  // every query.
  enum class Insert : std::uint8_t { EveryCell, Centre };
  // A box's width is its largest extent. Swept vertices are mostly far
  // narrower than a cell, a few far wider than the rest: stored by their
  // centres up to two cells wide, those few would grow every query.
  static constexpr float kCentreMeanWidths = 4.0f;
  // How cells are found: Auto indexes them directly when the occupied block
  // is at most max(2^16, 16 × boxes) cells, and hashes them otherwise (the
  // other two force one way; for tests).
  enum class Layout : std::uint8_t { Auto, Dense, Hashed };

  // Box i of `boxes` goes into the hash of cells of edge `cell` (m); the
  // hash keeps copies of the bounds in its own order, not `boxes`. Boxes
  // over too many cells (a vertex flung far in one step) are kept in a
  // short list that every query checks instead. With `keep`, only the
  // boxes i with keep[i] != 0.
  void build(const std::vector<Aabb>& boxes, float cell, Insert insert = Insert::EveryCell,
             Layout layout = Layout::Auto, const std::uint8_t* keep = nullptr);
  // Ids of the boxes that overlap `box`, ascending and without repeats.
  void query(const Aabb& box, std::vector<std::uint32_t>& out) const;
  // The ids of the boxes that overlap `box`, in bucket order, into
  // buffer[0, count) (it grows as needed and may be longer); returns count.
  // An id can come more than once (a box over several of the cells, or
  // cells sharing a bucket), so the caller drops repeats. Cheaper than
  // query() when the stored boxes are points. Buckets' entries lie side by
  // side in memory; they are tested four at a time (eight with AVX2,
  // hash_scan.hpp) and written without a branch each (whether an entry
  // passes is hard to predict, so a branch would mispredict often).
  // `scanned`, where given, grows by the entries compared.
  std::size_t collect(const Aabb& box, std::vector<std::uint32_t>& buffer,
                      std::size_t* scanned = nullptr) const;
  // As collect(), against two boxes at once (the two triangles of a quad):
  // each entry whose box overlaps a or b, as 4 id + 1 (it overlaps a) + 2
  // (it overlaps b), in bucket order. For a hash of fewer than 2^30 boxes.
  std::size_t collectTagged(const Aabb& a, const Aabb& b, std::vector<std::uint32_t>& buffer,
                            std::size_t* scanned = nullptr) const;
  bool dense() const { return dense_; }

 private:
  struct CellRange {
    glm::i64vec3 lo, hi;
    std::uint64_t count() const;
  };
  CellRange cellsOf(const Aabb& box) const;
  // Bits of the entries k … k + 3 that lie before `end`.
  static unsigned validMask(std::uint32_t k, std::uint32_t end) {
    return end - k < 4 ? (1u << (end - k)) - 1u : 15u;
  }
  std::size_t bucketOf(std::int64_t x, std::int64_t y, std::int64_t z) const;
  // run(begin, end) for each run of entries a query of `box` reads (its
  // cells, and the boxes over too many cells).
  template <typename Run>
  void forEachRun(const Aabb& box, Run&& run) const;
  // The runs of a query of `box` into `buffer`, each through
  // scan(begin, end, out), which writes what it keeps from `out` on (up to
  // kPadding past it) and returns the end of what it kept.
  template <typename Scan>
  std::size_t collectRuns(const Aabb& box, std::vector<std::uint32_t>& buffer, std::size_t* scanned,
                          Scan&& scan) const;
  // Bit j set when entry k + j overlaps `box` (entries past the end read the
  // padding).
  unsigned overlapMask4(std::uint32_t k, const Aabb& box) const {
#if defined(__SSE2__)
    __m128 m = _mm_castsi128_ps(_mm_set1_epi32(-1));
    for (int a = 0; a < 3; ++a) {
      m = _mm_and_ps(m, _mm_cmple_ps(_mm_loadu_ps(&bounds_[a][k]), _mm_set1_ps(box.max[a])));
      m = _mm_and_ps(m, _mm_cmple_ps(_mm_set1_ps(box.min[a]), _mm_loadu_ps(&bounds_[3 + a][k])));
    }
    return unsigned(_mm_movemask_ps(m));
#else
    unsigned mask = 0;
    for (unsigned j = 0; j < 4; ++j) {
      bool in = true;
      for (int a = 0; a < 3; ++a)
        in = in && bounds_[a][k + j] <= box.max[a] && box.min[a] <= bounds_[3 + a][k + j];
      mask |= unsigned(in) << j;
    }
    return mask;
#endif
  }
  std::size_t denseIndex(std::int64_t x, std::int64_t y, std::int64_t z) const {
    return std::size_t(((z - lo_.z) * dims_.y + (y - lo_.y)) * dims_.x + (x - lo_.x));
  }

  float inverseCell_ = 1.0f;
  std::size_t mask_ = 0;  // hashed: table size − 1 (a power of two)
  bool dense_ = false;
  glm::i64vec3 lo_{0}, dims_{0};      // dense: the occupied block of cells
  std::vector<std::uint32_t> start_;  // bucket b is items_[start_[b], start_[b + 1])
  // The cells' entries, then the boxes over too many cells (from
  // start_.back() to entryEnd_), then kPadding entries of padding.
  static constexpr std::uint32_t kPadding = 8;
  std::vector<std::uint32_t> items_;
  std::uint32_t entryEnd_ = 0;
  // The box of each entry of items_, one array per bound (min x, y, z, then
  // max x, y, z), with kPadding entries of padding at the end.
  std::vector<float> bounds_[6];
  std::vector<std::uint32_t> large_;    // build's scratch: boxes over more than kMaxCells cells
  std::vector<std::uint32_t> oneCell_;  // build's scratch: the bucket of a box in one cell
  std::vector<CellRange> ranges_;       // build's scratch: the cells of each box
  Insert insert_ = Insert::EveryCell;
  glm::vec3 reach_{0.0f};  // Centre: the largest half extent of a box stored by its centre
};

}  // namespace drape::sim
