#include "io/obj_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <string_view>

#include <tiny_obj_loader.h>

#include "sim/sim.hpp"

// Two passes. tinyobjloader reads numbers and indices with atoi-like parsers
// that turn garbage into 0 or a prefix without a word ("1.5abc" is 1.5, "x"
// is 0), and its triangulation skips faces whose indices are out of range. So
// a first pass here checks every statement the mesh is built from, and hands
// tinyobjloader only those statements (v, vt, vn, f, o, g): what it parses is
// then exactly what was checked, and it never sees materials, tags or
// anything else it could stumble over.

namespace drape::io {
namespace {

using std::string_view;

// A token as a one-line message can show it, cut after a few characters.
std::string printable(string_view s) {
  return drape::printable(s, 24);
}

// The most corners of one face: more are refused, not triangulated.
constexpr std::size_t kMostCorners = 1024;

std::vector<string_view> splitTokens(string_view line) {
  std::vector<string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

bool isDigit(char c) {
  return c >= '0' && c <= '9';
}

// The number form tinyobjloader reads in full:
//   [+-] (digits [. digits] | . digits) [(e|E) [+-] digits]
bool isDecimal(string_view s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  std::size_t mantissaDigits = 0;
  while (i < s.size() && isDigit(s[i])) ++i, ++mantissaDigits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && isDigit(s[i])) ++i, ++mantissaDigits;
  }
  if (mantissaDigits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t expDigits = 0;
    while (i < s.size() && isDigit(s[i])) ++i, ++expDigits;
    if (expDigits == 0) return false;
  }
  return i == s.size();
}

bool isNonFiniteWord(string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  std::string lower;
  for (char c : s) lower += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return lower == "nan" || lower == "inf" || lower == "infinity" || lower.rfind("nan(", 0) == 0;
}

// Empty when `token` is a number that fits a float; otherwise why not.
std::string checkNumber(string_view token, const char* noun) {
  if (isNonFiniteWord(token))
    return std::string("non-finite ") + noun + " '" + printable(token) + "'";
  if (!isDecimal(token)) return "'" + printable(token) + "' is not a number";
  const char* begin = token.data() + (token[0] == '+' ? 1 : 0);  // from_chars refuses '+'
  double value = 0.0;
  if (std::from_chars(begin, token.data() + token.size(), value).ec ==
      std::errc::result_out_of_range) {
    // Too small reads as 0 (harmless); too large does not read at all.
    const std::size_t e = token.find_first_of("eE");
    if (e != string_view::npos && token.find('-', e) != string_view::npos) return {};
    return std::string(noun) + " '" + printable(token) + "' is out of range";
  }
  if (std::fabs(value) > double(std::numeric_limits<float>::max()))
    return std::string(noun) + " '" + printable(token) + "' is out of range";
  return {};
}

// One index of a face corner: 1-based, or negative = relative to the last
// element defined so far. `defined` is how many of that kind exist by now.
std::string checkIndex(string_view s, std::size_t defined, const char* what, const char* plural) {
  std::size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
  if (i == s.size()) return std::string("missing ") + what + " index";
  for (std::size_t k = i; k < s.size(); ++k)
    if (!isDigit(s[k])) return std::string("bad ") + what + " index '" + printable(s) + "'";
  const std::string digits(s.substr(i));
  const std::size_t significant =
      digits.size() - std::min(digits.find_first_not_of('0'), digits.size());
  const long long magnitude = significant > 12 ? -1 : std::stoll(digits);
  if (magnitude == 0) return std::string(what) + " index 0 is not valid (OBJ counts from 1)";
  if (magnitude < 0 || std::size_t(magnitude) > defined)
    return std::string(what) + " index " + printable(s) +
           " is out of range: " + std::to_string(defined) + " " + plural +
           " defined before this line";
  return {};
}

// A corner reference: v, v/vt, v//vn or v/vt/vn.
// The normal index is never used (drape makes its own normals): one that
// refers to no normal is counted in `badNormals`, not refused.
std::string checkCorner(string_view ref, std::size_t vertices, std::size_t texcoords,
                        std::size_t normals, std::size_t& badNormals) {
  std::vector<string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= ref.size(); ++i)
    if (i == ref.size() || ref[i] == '/') {
      parts.push_back(ref.substr(start, i - start));
      start = i + 1;
    }
  if (parts.size() > 3) return "bad vertex reference '" + printable(ref) + "'";
  if (auto e = checkIndex(parts[0], vertices, "vertex", "vertices"); !e.empty()) return e;
  if (parts.size() >= 2 && !(parts.size() == 3 && parts[1].empty()))
    if (auto e = checkIndex(parts[1], texcoords, "texture coordinate", "texture coordinates");
        !e.empty())
      return e;
  if (parts.size() == 3 && !checkIndex(parts[2], normals, "normal", "normals").empty())
    ++badNormals;
  return {};
}

// A corner reference without its normal: "v", "v/vt".
string_view withoutNormal(string_view ref) {
  const std::size_t first = ref.find('/');
  if (first == string_view::npos) return ref;
  const std::size_t second = ref.find('/', first + 1);
  if (second == string_view::npos) return ref;
  return ref.substr(0, second == first + 1 ? first : second);
}

bool isIdentifier(string_view s) {
  for (char c : s)
    if (!(isDigit(c) || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  return !s.empty() && !isDigit(s[0]);
}

bool isOneOf(string_view s, std::initializer_list<string_view> words) {
  for (string_view w : words)
    if (s == w) return true;
  return false;
}

struct Scan {
  ObjFile info;
  std::size_t vertices = 0;
  std::size_t expectedTriangles = 0;  // Σ (corners − 2) over faces
  std::size_t lineElements = 0, pointElements = 0, freeForm = 0;
  // Each `l`: its vertices (0-based) and the line of the file it is on.
  std::vector<std::vector<std::uint32_t>> lines;
  std::vector<std::size_t> lineAt;
  std::map<std::string, std::size_t> unknown;
  std::size_t badNormals = 0;  // corners whose normal index refers to no normal
  bool blank = true;
  std::string forLoader;  // the checked statements, one per line
};

Result<void> scanStatement(Scan& s, string_view line, std::size_t number, const std::string& name) {
  auto at = [&](const std::string& message) {
    return fail(name + ":" + std::to_string(number) + ": " + message);
  };
  for (char c : line) {
    const unsigned char u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t') || u == 0x7f) return at("binary data, not an OBJ text file");
  }
  const std::vector<string_view> tok = splitTokens(line);
  if (tok.empty()) return {};
  s.blank = false;
  const string_view key = tok[0];
  if (key[0] == '#') return {};
  const std::size_t args = tok.size() - 1;
  auto numbers = [&](std::size_t lo, std::size_t hi, const char* form) -> Result<void> {
    if (args < lo || args > hi) return at(std::string("expected '") + form + "'");
    for (std::size_t i = 1; i < tok.size(); ++i)
      if (auto e = checkNumber(tok[i], key == "v" ? "coordinate" : "value"); !e.empty())
        return at(e);
    return {};
  };
  auto corners = [&](std::size_t least, const char* what) -> Result<void> {
    if (args < least)
      return at(std::string(what) + " needs at least " + std::to_string(least) + " vertices");
    for (std::size_t i = 1; i < tok.size(); ++i)
      if (auto e = checkCorner(tok[i], s.vertices, s.info.texcoords, s.info.normals, s.badNormals);
          !e.empty())
        return at(e);
    return {};
  };

  bool keep = false;  // hand this statement to tinyobjloader
  if (key == "v") {
    if (auto r = numbers(3, 7, "v x y z"); !r) return r;
    ++s.vertices;
    keep = true;
  } else if (key == "vt") {
    if (auto r = numbers(1, 3, "vt u v"); !r) return r;
    ++s.info.texcoords;
    keep = true;
  } else if (key == "vn") {
    if (auto r = numbers(3, 3, "vn x y z"); !r) return r;
    ++s.info.normals;
    keep = true;
  } else if (key == "f") {
    if (auto r = corners(3, "a face"); !r) return r;
    // Ear clipping takes time cubic in the corners.
    if (args > kMostCorners)
      return at("a face with " + std::to_string(args) + " corners; at most " +
                std::to_string(kMostCorners) +
                " are supported (triangulate it in the modelling tool)");
    ++s.info.faces;
    s.expectedTriangles += args - 2;
    if (args == 3)
      ++s.info.triangles;
    else if (args == 4)
      ++s.info.quads;
    else
      ++s.info.polygons;
    // Handed over without normal indices: they are never used, and one that
    // refers to no normal would stop tinyobjloader.
    s.forLoader += 'f';
    for (std::size_t i = 1; i < tok.size(); ++i) {
      s.forLoader += ' ';
      const string_view corner = withoutNormal(tok[i]);
      s.forLoader.append(corner.data(), corner.size());
    }
    s.forLoader += '\n';
  } else if (key == "l" || key == "p") {
    if (auto r = corners(key == "l" ? 2 : 1, key == "l" ? "a line" : "a point"); !r) return r;
    ++(key == "l" ? s.lineElements : s.pointElements);
    if (key == "l") {
      std::vector<std::uint32_t> line;
      for (std::size_t i = 1; i < tok.size(); ++i) {
        const string_view ref = tok[i].substr(0, tok[i].find('/'));
        const long long k = std::stoll(std::string(ref));
        const std::uint32_t v = std::uint32_t(k < 0 ? (long long)(s.vertices) + k : k - 1);
        if (std::find(line.begin(), line.end(), v) != line.end())
          return at("a line repeats vertex " + std::to_string(v + 1) +
                    (tok.size() == 3 ? " (a seam joins two different vertices)"
                                     : " (a rope's vertices must differ)"));
        line.push_back(v);
      }
      s.lines.push_back(std::move(line));
      s.lineAt.push_back(number);
    }
  } else if (key == "o" || key == "g") {
    ++s.info.objects;
    keep = true;
  } else if (isOneOf(key, {"s", "mg", "usemtl", "mtllib", "bevel", "c_interp", "d_interp", "lod",
                           "shadow_obj", "trace_obj"})) {
    // Smoothing, materials and display attributes: nothing a cloth needs.
  } else if (isOneOf(key, {"vp", "cstype", "deg", "bmat", "step", "curv", "curv2", "surf", "parm",
                           "trim", "hole", "scrv", "sp", "end", "con"})) {
    ++s.freeForm;
  } else if (isIdentifier(key)) {
    ++s.unknown[std::string(key)];
  } else {
    return at("'" + printable(key) + "' is not an OBJ statement");
  }
  if (keep) {
    s.forLoader.append(line.data(), line.size());
    s.forLoader += '\n';
  }
  return {};
}

// Lines end in \n, \r\n or a lone \r (as tinyobjloader splits them); a
// backslash at the end of a line continues the statement on the next one.
Result<Scan> scan(string_view text, const std::string& name) {
  Scan s;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 byte order mark
  std::string statement;
  std::size_t number = 0, first = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = i;
    while (end < text.size() && text[end] != '\n' && text[end] != '\r') ++end;
    string_view line = text.substr(i, end - i);
    i = end;
    if (i < text.size() && text[i] == '\r') ++i;
    if (i < text.size() && text[i] == '\n') ++i;
    ++number;
    if (statement.empty()) first = number;
    // Comments never continue: "# exported from C:\models\" must not swallow
    // the statement after it.
    const std::size_t lead = line.find_first_not_of(" \t");
    const bool comment = statement.empty() && lead != string_view::npos && line[lead] == '#';
    const bool continues = !comment && !line.empty() && line.back() == '\\';
    statement.append(line.data(), line.size() - (continues ? 1 : 0));
    if (continues && i < text.size()) {
      statement += ' ';
      continue;
    }
    if (auto r = scanStatement(s, statement, first, name); !r) return fail(r.error());
    statement.clear();
  }
  return s;
}

std::string firstLine(const std::string& s) {
  const std::size_t nl = s.find_first_of("\r\n");
  return nl == std::string::npos ? s : s.substr(0, nl);
}

std::string noFacesDetail(const Scan& s) {
  if (s.lineElements > 0 && s.pointElements > 0) return " (only lines and points)";
  if (s.lineElements > 0) return " (only lines)";
  if (s.pointElements > 0) return " (only points)";
  if (s.vertices > 0) return " (only vertices)";
  return "";
}

void addWarnings(const Scan& s, std::size_t kept, std::vector<std::string>& w) {
  if (s.badNormals > 0)
    w.push_back("ignored " + std::to_string(s.badNormals) +
                " face corners' normal indices that refer to no normal (drape makes its own "
                "normals)");
  const std::size_t ignored = s.lineElements + s.pointElements - kept;
  if (ignored > 0)
    w.push_back("ignored " + std::to_string(ignored) +
                " line and point elements (only faces, strands and seams are simulated)");
  if (s.freeForm > 0)
    w.push_back("ignored " + std::to_string(s.freeForm) +
                " lines of free-form curves and surfaces (not supported)");
  if (!s.unknown.empty()) {
    std::size_t count = 0;
    std::string names;
    for (const auto& [key, n] : s.unknown) {
      count += n;
      names += (names.empty() ? "" : ", ") + printable(key);
    }
    w.push_back("ignored " + std::to_string(count) + " lines of unknown statements (" + names +
                ")");
  }
}

// Each `l` is a seam (two vertices, both on faces: sewn together), a
// strand (no vertex on a face) or neither, which is refused: a line that
// runs along faces for more than one edge, or from a face out into the
// open, has no one meaning.
Result<void> sortLines(const Scan& s, ObjFile& out, const std::string& name) {
  std::vector<char> onFace(s.vertices, 0);
  for (const glm::uvec3& t : out.mesh.triangles)
    for (int k = 0; k < 3; ++k) onFace[t[k]] = 1;
  for (std::size_t j = 0; j < s.lines.size(); ++j) {
    const std::vector<std::uint32_t>& line = s.lines[j];
    std::size_t on = 0;
    for (std::uint32_t v : line) on += onFace[v] ? 1 : 0;
    const std::string at = name + ":" + std::to_string(s.lineAt[j]) + ": ";
    if (on == 0) {
      out.mesh.strands.push_back(line);
    } else if (on < line.size()) {
      return fail(at +
                  "a line joins vertices of faces and vertices of no face "
                  "(neither a seam nor a strand)");
    } else if (line.size() > 2) {
      return fail(at + "a line of " + std::to_string(line.size()) +
                  " vertices along faces (neither a seam, of two vertices, nor a strand, "
                  "whose vertices are on no face)");
    } else {
      out.mesh.seams.emplace_back(line[0], line[1]);
    }
  }
  out.strands = out.mesh.strands.size();
  out.seams = out.mesh.seams.size();
  return {};
}

}  // namespace

Result<ObjFile> parseObj(const std::string& text, const std::string& name) {
  auto scanned = scan(text, name);
  if (!scanned) return fail(scanned.error());
  Scan& s = scanned.value();
  if (s.blank) return fail(name + ": no faces (the file is empty)");
  if (s.info.faces == 0 && s.lines.empty()) return fail(name + ": no faces" + noFacesDetail(s));

  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  // From the checked text with an empty material library: no .mtl is opened.
  if (!reader.ParseFromString(s.forLoader, std::string(), config))
    return fail(name + ": " + firstLine(reader.Error()));

  const std::vector<tinyobj::real_t>& v = reader.GetAttrib().vertices;
  if (v.size() != 3 * s.vertices)
    return fail(name + ": read " + std::to_string(v.size() / 3) + " vertices, expected " +
                std::to_string(s.vertices));
  ObjFile out = std::move(s.info);
  out.fromBlender = text.rfind("# Blender", 0) == 0;
  out.mesh.positions.reserve(s.vertices);
  for (std::size_t i = 0; i < s.vertices; ++i)
    out.mesh.positions.emplace_back(float(v[3 * i]), float(v[3 * i + 1]), float(v[3 * i + 2]));
  out.mesh.triangles.reserve(s.expectedTriangles);
  // Texture coordinates per corner; kept only when every corner has one.
  const std::vector<tinyobj::real_t>& vt = reader.GetAttrib().texcoords;
  const std::size_t texcoords = vt.size() / 2;
  std::size_t cornersWithoutUV = 0;
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    const std::vector<tinyobj::index_t>& idx = shape.mesh.indices;
    for (std::size_t k = 0; k + 2 < idx.size(); k += 3) {
      glm::uvec3 t;
      for (int c = 0; c < 3; ++c) {
        const tinyobj::index_t& corner = idx[k + std::size_t(c)];
        const int vi = corner.vertex_index;
        if (vi < 0 || std::size_t(vi) >= s.vertices)
          return fail(name + ": a face refers to vertex " + std::to_string(vi + 1) + " of " +
                      std::to_string(s.vertices));
        t[c] = std::uint32_t(vi);
        const int ti = corner.texcoord_index;
        if (ti >= 0 && std::size_t(ti) < texcoords)
          out.mesh.cornerUVs.emplace_back(float(vt[2 * std::size_t(ti)]),
                                          float(vt[2 * std::size_t(ti) + 1]));
        else
          ++cornersWithoutUV;
      }
      out.mesh.triangles.push_back(t);
    }
  }
  if (auto r = sortLines(s, out, name); !r) return fail(r.error());
  std::vector<std::string> scanWarnings;
  addWarnings(s, out.strands + out.seams, scanWarnings);
  out.warnings.insert(out.warnings.begin(), scanWarnings.begin(), scanWarnings.end());
  if (cornersWithoutUV > 0) {
    if (!out.mesh.cornerUVs.empty())
      out.warnings.push_back(
          "dropped the texture coordinates: " + std::to_string(cornersWithoutUV) +
          " face corners have none (the mesh is kept without UVs)");
    out.mesh.cornerUVs.clear();
  }
  // tinyobjloader's ear clipping gives up on polygons it cannot project
  // (all corners on a line, say): say so rather than lose faces quietly.
  if (out.mesh.triangles.size() < s.expectedTriangles)
    out.warnings.push_back(std::to_string(s.expectedTriangles - out.mesh.triangles.size()) +
                           " triangles of polygon faces could not be made (degenerate polygons)");
  return out;
}

Result<ObjFile> readObj(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) return fail("cannot read " + path + ": no such file");
  if (fs::is_directory(status)) return fail(path + " is a folder, not an OBJ file");
  // Devices and pipes could block or never end.
  if (!fs::is_regular_file(status)) return fail(path + " is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot read " + path + ": " + std::strerror(errno));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return fail("cannot read " + path + ": " + std::strerror(errno));
  return parseObj(text, path);
}

Result<std::shared_ptr<const sim::MeshShape>> readMeshShape(const std::string& path, float scale) {
  auto file = readObj(path);
  if (!file) return fail(file.error());
  if (file->mesh.triangles.empty()) return fail(path + ": has no faces, cannot be a collider");
  for (glm::vec3& p : file->mesh.positions) p *= scale;
  auto shape = sim::makeMeshShape(file->mesh, path, scale);
  if (!shape) return fail(path + ": " + shape.error());
  return shape;
}

}  // namespace drape::io
