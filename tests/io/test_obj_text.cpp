// OBJ text the fixtures do not cover: the number and index forms that
// tinyobjloader alone would misread, line endings, continuations, and what
// is ignored with a warning rather than refused.

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "io/obj_reader.hpp"

using namespace drape;

namespace {

const std::string kTriangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";

// The error for `text`, or "" when it loads.
std::string errorOf(const std::string& text) {
  auto r = io::parseObj(text, "t.obj");
  return r ? std::string() : r.error();
}

TEST(ObjText, RefusesWhatTinyobjloaderWouldMisread) {
  struct Case {
    std::string text, error;
  };
  const Case cases[] = {
      // Numbers it reads in part, as 0, or as infinity.
      {"v 0 0 0\nv 1.5abc 0 0\nv 0 1 0\nf 1 2 3\n", "t.obj:2: '1.5abc' is not a number"},
      {"v 0 0 0\nv x 0 0\nv 0 1 0\nf 1 2 3\n", "t.obj:2: 'x' is not a number"},
      {"v 0 0 0\nv -inf 0 0\nv 0 1 0\nf 1 2 3\n", "t.obj:2: non-finite coordinate '-inf'"},
      {"v 0 0 0\nv NaN 0 0\nv 0 1 0\nf 1 2 3\n", "t.obj:2: non-finite coordinate 'NaN'"},
      {"v 0 0 0\nv 1e39 0 0\nv 0 1 0\nf 1 2 3\n", "t.obj:2: coordinate '1e39' is out of range"},
      {"v 0 0 0\nv 1e999 0 0\nv 0 1 0\nf 1 2 3\n", "t.obj:2: coordinate '1e999' is out of range"},
      {"v 0 0 0\nv 0x10 0 0\nv 0 1 0\nf 1 2 3\n", "t.obj:2: '0x10' is not a number"},
      {"v 0 0\n", "t.obj:1: expected 'v x y z'"},
      {kTriangle + "vn 0 0 nan\nf 1//1 2//1 3//1\n", "t.obj:4: non-finite value 'nan'"},
      // Indices: 0, out of range either way, forward references, garbage.
      {kTriangle + "f 1 2 3x\n", "t.obj:4: bad vertex index '3x'"},
      {kTriangle + "f -4 -2 -1\n", "t.obj:4: vertex index -4 is out of range"},
      {kTriangle + "f 1 2 99999999999999999999\n", "out of range"},
      {"v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 1 0\n", "t.obj:3: vertex index 3 is out of range"},
      {kTriangle + "f 1/1 2/2 3/3\n", "t.obj:4: texture coordinate index 1 is out of range"},
      {kTriangle + "f 1/ 2/ 3/\n", "t.obj:4: missing texture coordinate index"},
      {kTriangle + "f /1 2 3\n", "t.obj:4: missing vertex index"},
      {kTriangle + "f 1/1/1/1 2 3\n", "t.obj:4: bad vertex reference '1/1/1/1'"},
      {kTriangle + "f 1 2 3 # trailing comment\n", "t.obj:4: bad vertex index '#'"},
      {kTriangle + "f\n", "t.obj:4: a face needs at least 3 vertices"},
      // Bytes that are no text.
      {kTriangle + "f 1 2 3\n\x01\x02\x03\n", "t.obj:5: binary data"},
      {kTriangle + std::string("f 1 2\0 3\n", 9), "t.obj:4: binary data"},
      {"  \n\t\n", "t.obj: no faces (the file is empty)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string e = errorOf(c.text);
    EXPECT_NE(e.find(c.error), std::string::npos) << "got: " << e;
  }
}

TEST(ObjText, NormalIndicesThatReferToNoNormalAreDroppedWithAWarning) {
  // drape makes its own normals: a face's normal index is never read.
  for (const std::string& faces :
       {std::string("f 1//1 2//1 3//1\n"), std::string("f 1// 2// 3//\n")}) {
    auto file = io::parseObj(kTriangle + faces, "t.obj");
    ASSERT_TRUE(file) << file.error();
    EXPECT_EQ(file->mesh.triangles.size(), 1u);
    ASSERT_EQ(file->warnings.size(), 1u);
    EXPECT_NE(file->warnings[0].find("ignored 3 face corners' normal indices"), std::string::npos)
        << file->warnings[0];
  }
}

TEST(ObjText, AcceptsEveryDecimalForm) {
  auto r = io::parseObj("v +1.5 -.5 1.\nv 1e1 2E-1 -3.25e+0\nv 0.0 1e-400 7\nf 1 2 3\n", "t.obj");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->mesh.positions[0], glm::vec3(1.5f, -0.5f, 1.0f));
  EXPECT_EQ(r->mesh.positions[1], glm::vec3(10.0f, 0.2f, -3.25f));
  EXPECT_EQ(r->mesh.positions[2], glm::vec3(0.0f, 0.0f, 7.0f));
}

TEST(ObjText, VertexColoursAndWeightsAreAccepted) {
  auto r = io::parseObj("v 0 0 0 1 0 0\nv 1 0 0 1.0\nv 0 1 0 0.5 0.5 0.5\nf 1 2 3\n", "t.obj");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->mesh.positions[1], glm::vec3(1, 0, 0));
}

TEST(ObjText, LineEndingsOfEveryKind) {
  for (const std::string eol : {"\n", "\r\n", "\r"}) {
    const std::string text = "# c" + eol + "v 0 0 0" + eol + "v 1 0 0" + eol + "v 0 1 0" + eol +
                             "v 1 1 0" + eol + "f 1 2 3" + eol + "f 2 4 3";  // no final newline
    auto r = io::parseObj(text, "t.obj");
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->mesh.positions.size(), 4u);
    EXPECT_EQ(r->mesh.triangles.size(), 2u);
  }
}

TEST(ObjText, ErrorLinesCountCrlfOnce) {
  EXPECT_NE(errorOf("v 0 0 0\r\nv 1 0 0\r\n\r\nf 1 2 0\r\n").find("t.obj:4:"), std::string::npos);
}

TEST(ObjText, ByteOrderMarkTabsAndContinuations) {
  auto r = io::parseObj("\xEF\xBB\xBFv\t0 0 0\nv 1 0 0\nv 0 1 \\\n 0\nf 1 \\\n2 3\n", "t.obj");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->mesh.positions.size(), 3u);
  EXPECT_EQ(r->mesh.positions[2], glm::vec3(0, 1, 0));
  ASSERT_EQ(r->mesh.triangles.size(), 1u);
  // A continued statement is reported at its first line.
  EXPECT_NE(errorOf("v 0 0 0\nv 1 0 0\nf 1 \\\n2 3\n").find("t.obj:3:"), std::string::npos);
}

TEST(ObjText, CommentsDoNotContinue) {
  // A path in a comment may end in a backslash; the vertex after it counts.
  auto r =
      io::parseObj("# exported from C:\\models\\\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "t.obj");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->mesh.positions.size(), 3u);
}

TEST(ObjText, GroupsAndObjectsInAnyOrderKeepEveryFace) {
  const std::string text = kTriangle +
                           "f 1 2 3\no A\ng B\nv 1 1 0\nf 2 4 3\ng C\ng D\nf 1 2 4\n"
                           "o E\no F\nf 1 4 3\ng\no\nf 1 3 2 4\n";
  auto r = io::parseObj(text, "t.obj");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->faces, 5u);
  EXPECT_EQ(r->mesh.triangles.size(), 6u);
  EXPECT_TRUE(r->warnings.empty());
}

TEST(ObjText, MutatedFixturesNeverCrash) {
  // Fixed-seed byte mutations of real fixtures: every outcome is a mesh whose
  // indices are in range, or a one-line error naming the file.
  std::mt19937 rng(12345);
  const char* files[] = {"blender_cube.obj", "maya_groups.obj", "hex_prism.obj", "crlf_tetra.obj"};
  const char alphabet[] = "0123456789-+./ \n\r\tvfne#\\x";
  int loaded = 0, refused = 0;
  for (const char* f : files) {
    std::ifstream in(std::string(DRAPE_TEST_DATA) + "/obj/" + f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string original = ss.str();
    ASSERT_FALSE(original.empty()) << f;
    for (int round = 0; round < 300; ++round) {
      std::string text = original;
      const int edits = 1 + int(rng() % 4);
      for (int e = 0; e < edits; ++e) {
        const std::size_t at = rng() % text.size();
        switch (rng() % 3) {
          case 0:
            text[at] = alphabet[rng() % (sizeof alphabet - 1)];
            break;
          case 1:
            text.erase(at, 1 + rng() % 8);
            break;
          default:
            text.insert(at, 1, char(rng() % 256));
            break;
        }
        if (text.empty()) text = "x";
      }
      auto r = io::parseObj(text, "m.obj");
      if (r) {
        ++loaded;
        for (const glm::uvec3& t : r->mesh.triangles)
          for (int k = 0; k < 3; ++k) ASSERT_LT(t[k], r->mesh.positions.size());
      } else {
        ++refused;
        ASSERT_EQ(r.error().rfind("m.obj", 0), 0u) << r.error();
        ASSERT_EQ(r.error().find('\n'), std::string::npos) << r.error();
      }
    }
  }
  // Both outcomes happen, or the mutations test nothing.
  EXPECT_GT(loaded, 50);
  EXPECT_GT(refused, 50);
}

TEST(ObjText, IgnoredStatementsBecomeWarnings) {
  auto r = io::parseObj(kTriangle +
                            "vp 0.5\ncstype bspline\np 1\np 3\nxyz 1 2\nt crease 2/0/0\n"
                            "s 1\nmg 1\nusemtl red\nmtllib a.mtl b.mtl\nf 1 2 3\n",
                        "t.obj");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->mesh.triangles.size(), 1u);
  ASSERT_EQ(r->warnings.size(), 3u);
  EXPECT_EQ(r->warnings[0],
            "ignored 2 line and point elements (only faces, strands and seams are simulated)");
  EXPECT_EQ(r->warnings[1], "ignored 2 lines of free-form curves and surfaces (not supported)");
  EXPECT_EQ(r->warnings[2], "ignored 2 lines of unknown statements (t, xyz)");
}

TEST(ObjText, FacesOfMixedCornerForms) {
  auto r = io::parseObj(kTriangle + "v 1 1 0\nvt 0 0\nvn 0 0 1\nf 1/1/1 2//1 3/1 -1\n", "t.obj");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->quads, 1u);
  EXPECT_EQ(r->mesh.triangles.size(), 2u);
}

TEST(ObjText, DegeneratePolygonsAreKeptForPreparationToDrop) {
  // Five corners on a line: tinyobjloader's fan gives three zero-area
  // triangles, which prepareMesh drops and reports.
  auto r = io::parseObj("v 0 0 0\nv 1 0 0\nv 2 0 0\nv 3 0 0\nv 4 0 0\nf 1 2 3 4 5\n", "t.obj");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->polygons, 1u);
  EXPECT_LE(r->mesh.triangles.size(), 3u);
}

}  // namespace
