#include "io/obj_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "io/output_path.hpp"
#include "sim/sim.hpp"

namespace drape::io {
namespace {

// Room for one formatted number: a float with six decimals below 1e12
// ("-999999999999.999999"), a float in its shortest round-trip form
// ("-1.1754944e-38") or a 32-bit index, with some to spare.
constexpr std::size_t kNumber = 24;

char* putFloat(char* p, float v) {
  return std::to_chars(p, p + kNumber, v).ptr;
}

char* putIndex(char* p, std::uint32_t i) {
  return std::to_chars(p, p + kNumber, i).ptr;
}

constexpr std::uint64_t pow10(int n) {
  return n == 0 ? 1 : 10 * pow10(n - 1);
}

// `v` rounded to `Decimals` (at most 6) fixed decimals, "-0.707107", as
// Blender's exporter writes coordinates: a micrometre for positions, far
// finer than any cloth, and far quicker to format than a shortest round-trip
// form. Magnitudes of 1e12 and more (never a cloth's) take that form. The
// decimals are a constant, so that the divisions become multiplications.
template <int Decimals>
char* putFixed(char* p, float v) {
  static_assert(Decimals >= 1 && Decimals <= 6);
  constexpr std::uint64_t kScale = pow10(Decimals);
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  const double d = double(v);
  if (!(std::fabs(d) < 1e12)) return putFloat(p, v);
  if (d < 0) *p++ = '-';
  // Rounded half away from zero, as llround, without its call.
  const std::uint64_t q = std::uint64_t(std::fabs(d) * double(kScale) + 0.5);
  const std::uint64_t whole = q / kScale;
  if (whole < 10)
    *p++ = char('0' + whole);  // a cloth's usual coordinate
  else
    p = std::to_chars(p, p + kNumber, whole).ptr;
  *p++ = '.';
  std::uint32_t f = std::uint32_t(q % kScale);
  int k = Decimals;
  for (; k >= 2; k -= 2, f /= 100) std::memcpy(p + k - 2, kPairs + 2 * (f % 100), 2);
  if (k == 1) p[0] = char('0' + f % 10);
  return p + Decimals;
}

// Appends lines to a TextBuffer through a raw pointer: room for `lines` of at most
// `width` characters, written, then kept as far as they were written.
class Lines {
 public:
  Lines(TextBuffer& text, std::size_t lines, std::size_t width) : text_(text) {
    // Growing fills with zeros; the buffer keeps its size from file to file.
    if (text_.buffer.size() < text_.size + lines * width)
      text_.buffer.resize(text_.size + lines * width);
    p_ = text_.buffer.data() + text_.size;
  }
  char*& p() { return p_; }
  ~Lines() { text_.size = std::size_t(p_ - text_.buffer.data()); }

 private:
  TextBuffer& text_;
  char* p_;
};

// Vertices per chunk of `v` and `vn` lines: a cloth formats in several
// chunks, shared out among the team's threads as they come free.
constexpr std::size_t kChunkVertices = 2048;

// One line "TAG x y z" per vector of [begin, end), `Decimals` fixed
// decimals each, after what `text` holds.
template <int Decimals>
void appendVectors(TextBuffer& text, const char* tag, const glm::vec3* begin,
                   const glm::vec3* end) {
  const std::size_t tagLength = std::strlen(tag);
  Lines out(text, std::size_t(end - begin), tagLength + 1 + 3 * kNumber);
  char*& p = out.p();
  for (const glm::vec3* v = begin; v != end; ++v) {
    p = std::copy(tag, tag + tagLength, p);
    for (int k = 0; k < 3; ++k) {
      *p++ = ' ';
      p = putFixed<Decimals>(p, (*v)[k]);
    }
    *p++ = '\n';
  }
}

// The smooth normals of vertices [begin, end) as sim::computeVertexNormals
// makes them (the renderer's) from the triangles' `faceNormals`: each
// vertex's summed in triangle order, bit for bit the same sums as its
// scatter.
void vertexNormals(const std::vector<glm::vec3>& faceNormals, const ObjTopologyText& topology,
                   std::size_t begin, std::size_t end, std::vector<glm::vec3>& normals) {
  normals.resize(end - begin);
  const std::uint32_t* start = topology.vertexTriangleStart.data();
  for (std::size_t v = begin; v < end; ++v) {
    glm::vec3 n(0.0f);
    for (std::uint32_t i = start[v]; i < start[v + 1]; ++i)
      n += faceNormals[topology.vertexTriangles[i]];
    normals[v - begin] = sim::normalizedVertexNormal(n);
  }
}

std::shared_ptr<const ObjTopologyText> formatTopology(
    std::size_t vertices, const std::vector<glm::uvec3>& triangles,
    const std::vector<glm::vec2>& cornerUVs, const std::vector<std::vector<std::uint32_t>>& lines) {
  auto text = std::make_shared<ObjTopologyText>();
  text->lines = lines;
  text->vertices = vertices;
  text->triangles = triangles;
  text->cornerUVs = cornerUVs;
  std::vector<std::uint32_t>& start = text->vertexTriangleStart;
  start.assign(vertices + 1, 0);
  for (const glm::uvec3& t : triangles)
    for (int k = 0; k < 3; ++k) ++start[t[k] + 1];
  for (std::size_t v = 0; v < vertices; ++v) start[v + 1] += start[v];
  text->vertexTriangles.resize(start[vertices]);
  std::vector<std::uint32_t> next(start.begin(), start.end() - 1);
  for (std::uint32_t i = 0; i < triangles.size(); ++i)
    for (int k = 0; k < 3; ++k) text->vertexTriangles[next[triangles[i][k]]++] = i;
  const bool uvs = cornerUVs.size() == 3 * triangles.size() && !triangles.empty();
  // Distinct UVs by their bits, numbered in order of first use.
  std::vector<std::uint32_t> uvIndex;
  if (uvs) {
    std::unordered_map<std::uint64_t, std::uint32_t> seen;
    seen.reserve(cornerUVs.size());
    uvIndex.resize(cornerUVs.size());
    Lines out(text->uvs, cornerUVs.size(), 4 + 2 * kNumber);
    for (std::size_t c = 0; c < cornerUVs.size(); ++c) {
      std::uint32_t bits[2];
      std::memcpy(bits, &cornerUVs[c], sizeof bits);
      const auto [it, fresh] =
          seen.emplace((std::uint64_t(bits[0]) << 32) | bits[1], std::uint32_t(seen.size()));
      uvIndex[c] = it->second;
      if (!fresh) continue;
      char*& p = out.p();
      *p++ = 'v';
      *p++ = 't';
      *p++ = ' ';
      p = putFloat(p, cornerUVs[c].x);
      *p++ = ' ';
      p = putFloat(p, cornerUVs[c].y);
      *p++ = '\n';
    }
  }
  {
    Lines out(text->faces, triangles.size(), 2 + 3 * (3 + 3 * kNumber));
    for (std::size_t t = 0; t < triangles.size(); ++t) {
      char*& p = out.p();
      *p++ = 'f';
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t v = triangles[t][k] + 1;
        *p++ = ' ';
        p = putIndex(p, v);
        *p++ = '/';
        if (uvs) p = putIndex(p, uvIndex[3 * t + std::size_t(k)] + 1);
        *p++ = '/';
        p = putIndex(p, v);
      }
      *p++ = '\n';
    }
  }
  for (const std::vector<std::uint32_t>& line : lines) {
    Lines out(text->faces, 1, 2 + line.size() * (1 + kNumber));
    char*& p = out.p();
    *p++ = 'l';
    for (std::uint32_t v : line) {
      *p++ = ' ';
      p = putIndex(p, v + 1);
    }
    *p++ = '\n';
  }
  return text;
}

}  // namespace

void ObjText::pieces(std::vector<std::string_view>& out) const {
  out.clear();
  out.push_back(header.view());
  for (const TextBuffer& chunk : positions) out.push_back(chunk.view());
  if (topology) out.push_back(topology->uvs.view());
  for (const TextBuffer& chunk : normals) out.push_back(chunk.view());
  if (topology) out.push_back(topology->faces.view());
}

std::string ObjText::joined() const {
  std::vector<std::string_view> all;
  pieces(all);
  std::string text;
  for (std::string_view piece : all) text += piece;
  return text;
}

Result<void> ObjWriter::format(const std::vector<glm::vec3>& x,
                               const std::vector<glm::uvec3>& triangles,
                               const std::vector<glm::vec2>& cornerUVs, ObjText& text,
                               sim::ThreadTeam* team,
                               const std::vector<std::vector<std::uint32_t>>* lines) {
  static const std::vector<std::vector<std::uint32_t>> kNoLines;
  const std::vector<std::vector<std::uint32_t>>& polylines = lines ? *lines : kNoLines;
  if (!topology_ || topology_->vertices != x.size() || topology_->triangles != triangles ||
      topology_->cornerUVs != cornerUVs || topology_->lines != polylines) {
    for (const glm::uvec3& t : triangles)
      if (t.x >= x.size() || t.y >= x.size() || t.z >= x.size())
        return fail("a triangle refers to a vertex that does not exist");
    for (const std::vector<std::uint32_t>& line : polylines)
      for (std::uint32_t v : line)
        if (v >= x.size()) return fail("a rope refers to a vertex that does not exist");
    topology_ = formatTopology(x.size(), triangles, cornerUVs, polylines);
  }
  text.topology = topology_;

  const std::string header =
      "# drape: " + std::to_string(x.size()) + " vertices, " + std::to_string(triangles.size()) +
      " triangles" + (polylines.empty() ? "" : ", " + std::to_string(polylines.size()) + " ropes") +
      "\n";
  text.header.size = 0;
  {
    Lines out(text.header, 1, header.size());
    out.p() = std::copy(header.begin(), header.end(), out.p());
  }
  const std::size_t chunks = (x.size() + kChunkVertices - 1) / kChunkVertices;
  text.positions.resize(chunks);
  text.normals.resize(chunks);
  normals_.resize(team ? std::size_t(team->capacity()) : 1);
  faceNormals_.resize(triangles.size());
  finite_.assign(chunks, 1);
  const std::size_t triangleChunks =
      (triangles.size() + 2 * kChunkVertices - 1) / (2 * kChunkVertices);
  auto faceChunk = [&](std::size_t c, int /*thread*/) {
    const std::size_t end = std::min(triangles.size(), (c + 1) * 2 * kChunkVertices);
    for (std::size_t i = c * 2 * kChunkVertices; i < end; ++i) {
      const glm::uvec3& t = triangles[i];
      faceNormals_[i] = glm::cross(x[t.y] - x[t.x], x[t.z] - x[t.x]);
    }
  };
  auto vertexChunk = [&](std::size_t c, int thread) {
    const std::size_t begin = c * kChunkVertices, end = std::min(x.size(), begin + kChunkVertices);
    for (std::size_t v = begin; v < end; ++v)
      if (!std::isfinite(x[v].x) || !std::isfinite(x[v].y) || !std::isfinite(x[v].z))
        finite_[c] = 0;
    std::vector<glm::vec3>& normals = normals_[std::size_t(thread)];
    vertexNormals(faceNormals_, *topology_, begin, end, normals);
    text.positions[c].size = text.normals[c].size = 0;
    appendVectors<6>(text.positions[c], "v", x.data() + begin, x.data() + end);
    appendVectors<4>(text.normals[c], "vn", normals.data(), normals.data() + normals.size());
  };
  if (team && chunks > 1) {
    sim::forEachChunk(*team, triangleChunks, faceChunk);
    sim::forEachChunk(*team, chunks, vertexChunk);
  } else {
    for (std::size_t c = 0; c < triangleChunks; ++c) faceChunk(c, 0);
    for (std::size_t c = 0; c < chunks; ++c) vertexChunk(c, 0);
  }
  if (std::find(finite_.begin(), finite_.end(), 0) != finite_.end())
    return fail("the simulation state is not finite");
  return {};
}

Result<const ObjText*> ObjWriter::format(const sim::World& world, sim::ThreadTeam* team) {
  ropeLines(world.cloth, lines_);
  if (auto r =
          format(world.state.x, world.cloth.triangles, world.cloth.cornerUVs, text_, team, &lines_);
      !r)
    return fail(r.error());
  return &text_;
}

Result<void> ObjWriter::write(const std::string& path, const sim::World& world,
                              sim::ThreadTeam* team) {
  auto text = format(world, team);
  if (!text) return fail("not writing " + path + ": " + text.error());
  return writeObjText(path, *text.value());
}

void ropeLines(const sim::Cloth& cloth, std::vector<std::vector<std::uint32_t>>& lines) {
  lines.resize(cloth.ropes.size());
  for (std::size_t r = 0; r < cloth.ropes.size(); ++r) {
    const sim::Rope& rope = cloth.ropes[r];
    std::vector<std::uint32_t>& line = lines[r];
    line.clear();
    for (std::uint32_t s = rope.segmentBegin; s < rope.segmentEnd; ++s) {
      if (s == rope.segmentBegin) line.push_back(cloth.ropeSegments[s].a);
      line.push_back(cloth.ropeSegments[s].b);
    }
  }
}

Result<void> writeObjText(const std::string& path, const ObjText& text) {
  std::vector<std::string_view> pieces;
  text.pieces(pieces);
  return writeFileAtomically(path, pieces.data(), pieces.size());
}

Result<void> writeObj(const std::string& path, const sim::World& world) {
  ObjWriter writer;
  return writer.write(path, world);
}

}  // namespace drape::io
