#pragma once
// Wavefront OBJ out: the cloth as it is now, for --export-obj and for OBJ
// sequences (one file per frame).
//
//   # drape: N vertices, M triangles
//   v x y z        every vertex, simulation order, six decimals (a micrometre)
//   vt u v         the distinct corner UVs, in order of first use, exact (if the mesh has UVs)
//   vn x y z       smooth vertex normals as the renderer draws them, four decimals
//   f a/t/n ...    1-based; `a//n` without UVs
//   l a b c ...    each rope, 1-based, in its order (if the cloth has ropes)
//
// A tear adds vertices and re-points triangles, so the counts can change
// from one frame to the next.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "sim/sim.hpp"

namespace drape::sim {
class ThreadTeam;
}

namespace drape::io {

// Text written into a buffer that keeps its size from one file to the next,
// so that formatting a file neither allocates nor clears memory.
struct TextBuffer {
  std::string buffer;    // the text, then room
  std::size_t size = 0;  // the text's length
  std::string_view view() const { return {buffer.data(), size}; }
};

// What changes only with the topology: the `vt` and `f` lines, made from
// these vertex count, triangles and corner UVs, and each vertex's triangles
// (in increasing order, from vertexTriangleStart[v] to [v + 1]), for normals
// vertex by vertex.
struct ObjTopologyText {
  std::size_t vertices = 0;
  std::vector<glm::uvec3> triangles;
  std::vector<glm::vec2> cornerUVs;
  std::vector<std::vector<std::uint32_t>> lines;  // ropes
  TextBuffer uvs, faces;                          // faces: the `f` lines, then the `l` lines
  std::vector<std::uint32_t> vertexTriangleStart, vertexTriangles;
};

// A file's text: the header, `v` and `vn` lines (formatted for every file, a
// chunk of vertices per buffer) and the topology's lines (shared by the
// files of a sequence while the cloth does not tear). Written piece after
// piece without joining them.
struct ObjText {
  TextBuffer header;
  std::vector<TextBuffer> positions, normals;  // chunk by chunk
  std::shared_ptr<const ObjTopologyText> topology;

  // The pieces in the file's order.
  void pieces(std::vector<std::string_view>& out) const;
  std::string joined() const;
};

// Formats OBJ files, keeping the topology's text from one file to the next:
// a sequence of a cloth that does not tear formats only positions and
// normals per frame, and those in chunks on a thread team when given one
// (the text is the same on any thread count).
class ObjWriter {
 public:
  // The text for these positions, triangles, corner UVs (empty, or 3 per
  // triangle) and polylines (ropes, or null) into `text`, reusing its
  // buffers; refuses non-finite positions.
  Result<void> format(const std::vector<glm::vec3>& positions,
                      const std::vector<glm::uvec3>& triangles,
                      const std::vector<glm::vec2>& cornerUVs, ObjText& text,
                      sim::ThreadTeam* team = nullptr,
                      const std::vector<std::vector<std::uint32_t>>* lines = nullptr);
  // The cloth of `world` into the writer's own text, which lives until the
  // next call.
  Result<const ObjText*> format(const sim::World& world, sim::ThreadTeam* team = nullptr);
  // format() and write to `path` atomically (a temporary beside it, renamed).
  Result<void> write(const std::string& path, const sim::World& world,
                     sim::ThreadTeam* team = nullptr);

 private:
  std::shared_ptr<const ObjTopologyText> topology_;
  std::vector<glm::vec3> faceNormals_;           // per triangle, area-weighted
  std::vector<std::vector<glm::vec3>> normals_;  // a chunk's vertices', per thread
  std::vector<char> finite_;                     // per chunk of vertices
  ObjText text_;
  std::vector<std::vector<std::uint32_t>> lines_;  // the world's ropes as polylines
};

// The ropes of `cloth` as polylines of vertices, rope by rope.
void ropeLines(const sim::Cloth& cloth, std::vector<std::vector<std::uint32_t>>& lines);

// `text` to `path` atomically.
Result<void> writeObjText(const std::string& path, const ObjText& text);

// One file, without keeping anything.
Result<void> writeObj(const std::string& path, const sim::World& world);

}  // namespace drape::io
