#include "io/obj_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "io/output_path.hpp"
#include "sim/mesh.hpp"

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
// finer than any cloth, in a third of the time of a shortest round-trip
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

// One line "TAG x y z" per vector, `Decimals` fixed decimals each.
template <int Decimals>
void appendVectors(TextBuffer& text, const char* tag, const std::vector<glm::vec3>& vectors) {
  const std::size_t tagLength = std::strlen(tag);
  Lines out(text, vectors.size(), tagLength + 1 + 3 * kNumber);
  char*& p = out.p();
  for (const glm::vec3& v : vectors) {
    p = std::copy(tag, tag + tagLength, p);
    for (int k = 0; k < 3; ++k) {
      *p++ = ' ';
      p = putFixed<Decimals>(p, v[k]);
    }
    *p++ = '\n';
  }
}

}  // namespace

void ObjWriter::formatTopology(const std::vector<glm::uvec3>& triangles,
                               const std::vector<glm::vec2>& cornerUVs) {
  triangles_ = triangles;
  cornerUVs_ = cornerUVs;
  uvText_.size = faceText_.size = 0;
  const bool uvs = cornerUVs_.size() == 3 * triangles_.size() && !triangles_.empty();
  // Distinct UVs by their bits, numbered in order of first use.
  std::vector<std::uint32_t> uvIndex;
  if (uvs) {
    std::unordered_map<std::uint64_t, std::uint32_t> seen;
    seen.reserve(cornerUVs_.size());
    uvIndex.resize(cornerUVs_.size());
    Lines out(uvText_, cornerUVs_.size(), 4 + 2 * kNumber);
    for (std::size_t c = 0; c < cornerUVs_.size(); ++c) {
      std::uint32_t bits[2];
      std::memcpy(bits, &cornerUVs_[c], sizeof bits);
      const auto [it, fresh] =
          seen.emplace((std::uint64_t(bits[0]) << 32) | bits[1], std::uint32_t(seen.size()));
      uvIndex[c] = it->second;
      if (!fresh) continue;
      char*& p = out.p();
      *p++ = 'v';
      *p++ = 't';
      *p++ = ' ';
      p = putFloat(p, cornerUVs_[c].x);
      *p++ = ' ';
      p = putFloat(p, cornerUVs_[c].y);
      *p++ = '\n';
    }
  }
  Lines out(faceText_, triangles_.size(), 2 + 3 * (3 + 3 * kNumber));
  for (std::size_t t = 0; t < triangles_.size(); ++t) {
    char*& p = out.p();
    *p++ = 'f';
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t v = triangles_[t][k] + 1;
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

std::string ObjText::joined() const {
  std::string text;
  for (std::string_view piece : pieces) text += piece;
  return text;
}

Result<ObjText> ObjWriter::format(const std::vector<glm::vec3>& x,
                                  const std::vector<glm::uvec3>& triangles,
                                  const std::vector<glm::vec2>& cornerUVs) {
  for (const glm::vec3& v : x)
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
      return fail("the simulation state is not finite");
  if (triangles != triangles_ || cornerUVs != cornerUVs_ || faceText_.size == 0)
    formatTopology(triangles, cornerUVs);
  sim::computeVertexNormals(x, triangles, normals_);

  const std::string header = "# drape: " + std::to_string(x.size()) + " vertices, " +
                             std::to_string(triangles.size()) + " triangles\n";
  positionText_.size = 0;
  {
    Lines out(positionText_, 1, header.size());
    out.p() = std::copy(header.begin(), header.end(), out.p());
  }
  appendVectors<6>(positionText_, "v", x);
  normalText_.size = 0;
  appendVectors<4>(normalText_, "vn", normals_);
  return ObjText{{positionText_.view(), uvText_.view(), normalText_.view(), faceText_.view()}};
}

Result<void> ObjWriter::write(const std::string& path, const sim::World& world) {
  auto text = format(world);
  if (!text) return fail("not writing " + path + ": " + text.error());
  return writeFileAtomically(path, text.value().pieces.data(), text.value().pieces.size());
}

Result<void> writeObj(const std::string& path, const sim::World& world) {
  ObjWriter writer;
  return writer.write(path, world);
}

}  // namespace drape::io
