#pragma once
// Wavefront OBJ out: the cloth as it is now, for --export-obj and for OBJ
// sequences (one file per frame).
//
//   # drape: N vertices, M triangles
//   v x y z        every vertex, simulation order, six decimals (a micrometre)
//   vt u v         the distinct corner UVs, in order of first use, exact (if the mesh has UVs)
//   vn x y z       smooth vertex normals as the renderer draws them, four decimals
//   f a/t/n ...    1-based; `a//n` without UVs
//
// A tear adds vertices and re-points triangles, so the counts can change
// from one frame to the next.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "sim/result.hpp"
#include "sim/world.hpp"

namespace drape::io {

// A file's text in the pieces it is made of (the header and `v` lines,
// `vt`, `vn`, `f`), written one after the other without joining them.
struct ObjText {
  std::array<std::string_view, 4> pieces;
  std::string joined() const;
};

// Text written into a buffer that keeps its size from one file to the next,
// so that formatting a file neither allocates nor clears memory.
struct TextBuffer {
  std::string buffer;    // the text, then room
  std::size_t size = 0;  // the text's length
  std::string_view view() const { return {buffer.data(), size}; }
};

// Writes OBJ files, keeping the text that changes only with the topology
// (`vt` and `f` lines) from one file to the next: a sequence of a cloth
// that does not tear formats only positions and normals per frame.
class ObjWriter {
 public:
  // The file's text for these positions, triangles and corner UVs (empty,
  // or 3 per triangle); refuses non-finite positions. The text lives until
  // the next call.
  Result<ObjText> format(const std::vector<glm::vec3>& positions,
                         const std::vector<glm::uvec3>& triangles,
                         const std::vector<glm::vec2>& cornerUVs);
  // The same for the cloth of `world`.
  Result<ObjText> format(const sim::World& world) {
    return format(world.state.x, world.cloth.triangles, world.cloth.cornerUVs);
  }
  // format() and write to `path` atomically (a temporary beside it, renamed).
  Result<void> write(const std::string& path, const sim::World& world);

 private:
  void formatTopology(const std::vector<glm::uvec3>& triangles,
                      const std::vector<glm::vec2>& cornerUVs);

  std::vector<glm::uvec3> triangles_;  // what the cached text was made from
  std::vector<glm::vec2> cornerUVs_;
  TextBuffer uvText_, faceText_;
  std::vector<glm::vec3> normals_;
  TextBuffer positionText_, normalText_;
};

// One file, without keeping anything.
Result<void> writeObj(const std::string& path, const sim::World& world);

}  // namespace drape::io
