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

// `v` rounded to `decimals` (at most 6) fixed decimals, "-0.707107", as
// Blender's exporter writes coordinates: a micrometre for positions, far
// finer than any cloth, in a third of the time of a shortest round-trip
// form. Magnitudes of 1e12 and more (never a cloth's) take that form.
char* putFixed(char* p, float v, int decimals) {
  static constexpr std::int64_t kScale[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
  const double d = double(v);
  if (!(std::fabs(d) < 1e12)) return putFloat(p, v);
  std::int64_t q = std::llround(d * double(kScale[decimals]));
  if (q < 0) {
    *p++ = '-';
    q = -q;
  }
  p = std::to_chars(p, p + kNumber, q / kScale[decimals]).ptr;
  *p++ = '.';
  std::int64_t f = q % kScale[decimals];
  for (int k = decimals - 1; k >= 0; --k) {
    p[k] = char('0' + f % 10);
    f /= 10;
  }
  return p + decimals;
}

// A growing text written through a raw pointer: reserve room for `lines` of
// at most `width` characters, write, then commit what was written.
class Lines {
 public:
  Lines(std::string& text, std::size_t lines, std::size_t width) : text_(text), at_(text.size()) {
    text_.resize(at_ + lines * width);
    p_ = &text_[at_];
  }
  char*& p() { return p_; }
  ~Lines() { text_.resize(std::size_t(p_ - text_.data())); }

 private:
  std::string& text_;
  std::size_t at_;
  char* p_;
};

// One line "TAG x y z" per vector, `decimals` fixed decimals each.
void appendVectors(std::string& text, const char* tag, const std::vector<glm::vec3>& vectors,
                   int decimals) {
  const std::size_t tagLength = std::strlen(tag);
  Lines out(text, vectors.size(), tagLength + 1 + 3 * kNumber);
  for (const glm::vec3& v : vectors) {
    char*& p = out.p();
    p = std::copy(tag, tag + tagLength, p);
    for (int k = 0; k < 3; ++k) {
      *p++ = ' ';
      p = putFixed(p, v[k], decimals);
    }
    *p++ = '\n';
  }
}

}  // namespace

void ObjWriter::formatTopology(const std::vector<glm::uvec3>& triangles,
                               const std::vector<glm::vec2>& cornerUVs) {
  triangles_ = triangles;
  cornerUVs_ = cornerUVs;
  uvText_.clear();
  faceText_.clear();
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

Result<const std::string*> ObjWriter::format(const std::vector<glm::vec3>& x,
                                             const std::vector<glm::uvec3>& triangles,
                                             const std::vector<glm::vec2>& cornerUVs) {
  for (const glm::vec3& v : x)
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
      return fail("the simulation state is not finite");
  if (triangles != triangles_ || cornerUVs != cornerUVs_ || faceText_.empty())
    formatTopology(triangles, cornerUVs);
  sim::computeVertexNormals(x, triangles, normals_);

  text_.clear();
  text_ += "# drape: " + std::to_string(x.size()) + " vertices, " +
           std::to_string(triangles.size()) + " triangles\n";
  appendVectors(text_, "v", x, 6);
  text_ += uvText_;
  appendVectors(text_, "vn", normals_, 4);
  text_ += faceText_;
  return &text_;
}

Result<void> ObjWriter::write(const std::string& path, const sim::World& world) {
  auto text = format(world);
  if (!text) return fail("not writing " + path + ": " + text.error());
  return writeFileAtomically(path, text.value()->data(), text.value()->size());
}

Result<void> writeObj(const std::string& path, const sim::World& world) {
  ObjWriter writer;
  return writer.write(path, world);
}

}  // namespace drape::io
