// OBJ reading: the fixtures in tests/data/obj are shaped like real exporters'
// output; each must load to an exact welded vertex and triangle count. Broken
// files must be refused with a one-line message that names the file.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "io/obj_reader.hpp"
#include "sim/mesh.hpp"

using namespace drape;

namespace {

std::string fixture(const std::string& name) {
  return std::string(DRAPE_TEST_DATA) + "/obj/" + name;
}

float area(const sim::TriMesh& m) {
  float sum = 0.0f;
  for (const glm::uvec3& t : m.triangles)
    sum += 0.5f * glm::length(glm::cross(m.positions[t[1]] - m.positions[t[0]],
                                         m.positions[t[2]] - m.positions[t[0]]));
  return sum;
}

struct Good {
  const char* file;
  std::size_t rawVertices;  // `v` lines
  std::size_t vertices;     // after welding
  std::size_t triangles;
  bool closed;
  std::size_t pieces;
  std::size_t welded;
};

void PrintTo(const Good& g, std::ostream* os) {
  *os << g.file;
}

class ObjFixture : public testing::TestWithParam<Good> {};

TEST_P(ObjFixture, WeldsToExactCounts) {
  const Good& g = GetParam();
  auto file = io::readObj(fixture(g.file));
  ASSERT_TRUE(file) << file.error();
  EXPECT_EQ(file->mesh.positions.size(), g.rawVertices);
  EXPECT_TRUE(file->warnings.empty()) << file->warnings.front();
  auto prepared = sim::prepareMesh(file->mesh);
  ASSERT_TRUE(prepared) << prepared.error();
  EXPECT_EQ(prepared->mesh.positions.size(), g.vertices);
  EXPECT_EQ(prepared->mesh.triangles.size(), g.triangles);
  EXPECT_EQ(prepared->report.closed, g.closed);
  EXPECT_EQ(prepared->report.pieces, g.pieces);
  EXPECT_EQ(prepared->report.weldedVertices, g.welded);
  EXPECT_EQ(prepared->report.degenerateTriangles, 0u);
  EXPECT_TRUE(prepared->report.orientable);
  if (g.closed) {  // oriented outward: positive enclosed volume
    EXPECT_GT(sim::sixVolume(prepared->mesh.positions, prepared->mesh.triangles), 0.0f);
  }
}

INSTANTIATE_TEST_SUITE_P(Exporters, ObjFixture,
                         testing::Values(Good{"blender_cube.obj", 8, 8, 12, true, 1, 0},
                                         Good{"blender_grid.obj", 16, 16, 18, false, 1, 0},
                                         Good{"maya_groups.obj", 18, 18, 16, false, 2, 0},
                                         Good{"crlf_tetra.obj", 4, 4, 4, true, 1, 0},
                                         Good{"negative_indices.obj", 6, 6, 8, true, 1, 0},
                                         Good{"hex_prism.obj", 12, 12, 20, true, 1, 0},
                                         Good{"pentagon.obj", 11, 11, 7, false, 2, 0},
                                         Good{"uv_seam_cube.obj", 8, 8, 12, true, 1, 0},
                                         Good{"split_cube.obj", 24, 8, 12, true, 1, 16},
                                         Good{"missing_mtl.obj", 4, 4, 2, false, 1, 0}),
                         [](const testing::TestParamInfo<Good>& info) {
                           std::string name = info.param.file;
                           return name.substr(0, name.find('.'));
                         });

TEST(ObjReader, BlenderCubeCountsFacesAndAttributes) {
  auto file = io::readObj(fixture("blender_cube.obj"));
  ASSERT_TRUE(file) << file.error();
  EXPECT_EQ(file->faces, 6u);
  EXPECT_EQ(file->quads, 6u);
  EXPECT_EQ(file->triangles, 0u);
  EXPECT_EQ(file->texcoords, 14u);
  EXPECT_EQ(file->normals, 6u);
  EXPECT_TRUE(file->hasTexcoords());
  EXPECT_TRUE(file->hasNormals());
  EXPECT_EQ(file->objects, 1u);
  // A 2 m cube: 6 V = 48.
  auto prepared = sim::prepareMesh(file->mesh);
  ASSERT_TRUE(prepared);
  EXPECT_NEAR(sim::sixVolume(prepared->mesh.positions, prepared->mesh.triangles), 48.0f, 1e-4f);
}

TEST(ObjReader, UvSeamsStayOneVertex) {
  // 14 texture coordinates but 8 positions: triangles index positions only.
  auto file = io::readObj(fixture("uv_seam_cube.obj"));
  ASSERT_TRUE(file) << file.error();
  EXPECT_EQ(file->texcoords, 14u);
  EXPECT_FALSE(file->hasNormals());
  EXPECT_EQ(file->triangles, 12u);
  EXPECT_EQ(file->mesh.positions.size(), 8u);
  for (const glm::uvec3& t : file->mesh.triangles)
    for (int k = 0; k < 3; ++k) EXPECT_LT(t[k], 8u);
  // ... and each corner keeps its own texture coordinate: some vertex has
  // two different ones (the seam).
  ASSERT_EQ(file->mesh.cornerUVs.size(), 36u);
  bool seam = false;
  for (std::size_t i = 0; i < 36; ++i)
    for (std::size_t j = 0; j < 36; ++j)
      seam = seam ||
             (file->mesh.triangles[i / 3][int(i % 3)] == file->mesh.triangles[j / 3][int(j % 3)] &&
              file->mesh.cornerUVs[i] != file->mesh.cornerUVs[j]);
  EXPECT_TRUE(seam);
}

TEST(ObjReader, CornerUVsFollowTheFaceThroughTriangulation) {
  // Blender's first quad "f 1/1/1 5/2/1 7/3/1 3/4/1", cut along its 1–7 or
  // its 5–3 diagonal: every corner keeps the vt its vertex had in the face.
  auto file = io::readObj(fixture("blender_cube.obj"));
  ASSERT_TRUE(file) << file.error();
  ASSERT_EQ(file->mesh.cornerUVs.size(), 36u);
  const std::map<std::uint32_t, glm::vec2> faceUV = {
      {0, {0.625f, 0.5f}}, {4, {0.875f, 0.5f}}, {6, {0.875f, 0.75f}}, {2, {0.625f, 0.75f}}};
  for (std::size_t c = 0; c < 6; ++c) {
    const std::uint32_t v = file->mesh.triangles[c / 3][int(c % 3)];
    ASSERT_EQ(faceUV.count(v), 1u) << "corner " << c << " is vertex " << v;
    EXPECT_EQ(file->mesh.cornerUVs[c], faceUV.at(v)) << "corner " << c;
  }
}

TEST(ObjReader, NegativeTextureIndicesCountBack) {
  auto file = io::parseObj(
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0.1 0.2\nvt 0.3 0.4\nvt 0.5 0.6\n"
      "f -3/-1 -2/-2 -1/-3\n",
      "neg.obj");
  ASSERT_TRUE(file) << file.error();
  ASSERT_EQ(file->mesh.cornerUVs.size(), 3u);
  EXPECT_EQ(file->mesh.cornerUVs[0], glm::vec2(0.5f, 0.6f));
  EXPECT_EQ(file->mesh.cornerUVs[2], glm::vec2(0.1f, 0.2f));
}

TEST(ObjReader, FacesWithoutUVsDropThemWithAWarning) {
  auto file = io::parseObj(
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n"
      "f 1/1 2/2 3/3\nf 2 4 3\n",
      "mixed.obj");
  ASSERT_TRUE(file) << file.error();
  EXPECT_EQ(file->mesh.triangles.size(), 2u);
  EXPECT_TRUE(file->mesh.cornerUVs.empty());
  ASSERT_EQ(file->warnings.size(), 1u);
  EXPECT_NE(file->warnings[0].find("3 face corners have none"), std::string::npos)
      << file->warnings[0];
}

TEST(ObjReader, PolygonsOfTooManyCornersAreRefusedNotTriangulatedForever) {
  // Ear clipping is cubic in the corners: a 100,000-corner polygon took 70 s.
  auto polygon = [](int corners) {
    std::string text;
    for (int i = 0; i < corners; ++i) {
      const double a = 6.283185307179586 * i / corners;
      text += "v " + std::to_string(std::cos(a)) + " 0 " + std::to_string(std::sin(a)) + "\n";
    }
    text += "f";
    for (int i = 1; i <= corners; ++i) text += " " + std::to_string(i);
    return text + "\n";
  };
  auto ok = io::parseObj(polygon(1024), "disc.obj");
  ASSERT_TRUE(ok) << ok.error();
  EXPECT_EQ(ok->mesh.triangles.size(), 1022u);
  auto refused = io::parseObj(polygon(100000), "disc.obj");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("disc.obj:100001: a face with 100000 corners; at most 1024"),
            std::string::npos)
      << refused.error();
}

TEST(ObjReader, MayaGroupsMergeIntoOneMesh) {
  auto file = io::readObj(fixture("maya_groups.obj"));
  ASSERT_TRUE(file) << file.error();
  EXPECT_EQ(file->objects, 4u);  // g default, g pPlane1, g default, g pPlane2
  EXPECT_EQ(file->quads, 8u);
  EXPECT_EQ(file->normals, 18u);
  EXPECT_NEAR(area(file->mesh), 2.0f, 1e-5f);  // two 1 m × 1 m planes
}

TEST(ObjReader, CrlfLineEndingsReadCleanly) {
  auto file = io::readObj(fixture("crlf_tetra.obj"));
  ASSERT_TRUE(file) << file.error();
  EXPECT_EQ(file->normals, 4u);
  ASSERT_EQ(file->mesh.positions.size(), 4u);
  EXPECT_EQ(file->mesh.positions[0], glm::vec3(1, 1, 1));
  EXPECT_EQ(file->mesh.positions[3], glm::vec3(1, -1, -1));
}

TEST(ObjReader, NegativeIndicesCountBack) {
  auto file = io::readObj(fixture("negative_indices.obj"));
  ASSERT_TRUE(file) << file.error();
  ASSERT_EQ(file->mesh.triangles.size(), 8u);
  // "f -6 -4 -2" after six vertices: the 1st, 3rd and 5th.
  EXPECT_EQ(file->mesh.triangles[0], glm::uvec3(0, 2, 4));
  EXPECT_EQ(file->mesh.triangles[7], glm::uvec3(0, 3, 5));
}

TEST(ObjReader, PolygonsTriangulateWithoutGapsOrOverlaps) {
  auto prism = io::readObj(fixture("hex_prism.obj"));
  ASSERT_TRUE(prism) << prism.error();
  EXPECT_EQ(prism->polygons, 2u);
  EXPECT_EQ(prism->quads, 6u);
  // Two hexagons of circumradius 1 (3√3/2 each, to the file's 3 decimals)
  // and six 1 m × 1 m sides.
  EXPECT_NEAR(area(prism->mesh), 2.0f * 1.5f * 1.732f + 6.0f, 1e-2f);

  auto flat = io::readObj(fixture("pentagon.obj"));
  ASSERT_TRUE(flat) << flat.error();
  EXPECT_EQ(flat->polygons, 2u);
  // Regular pentagon of circumradius 1 (5/2 sin 72°) plus a concave L of area 3.
  EXPECT_NEAR(area(flat->mesh), 2.5f * std::sin(1.2566371f) + 3.0f, 1e-2f);
}

TEST(ObjReader, MissingMaterialLibraryIsNotAnError) {
  auto file = io::readObj(fixture("missing_mtl.obj"));
  ASSERT_TRUE(file) << file.error();
  EXPECT_TRUE(file->warnings.empty());
  EXPECT_EQ(file->mesh.triangles.size(), 2u);
}

struct Bad {
  const char* file;
  const char* where;  // ":line:" or "" when the problem is the whole file
  const char* what;
};

void PrintTo(const Bad& b, std::ostream* os) {
  *os << b.file;
}

class ObjBroken : public testing::TestWithParam<Bad> {};

TEST_P(ObjBroken, RefusedWithOneLineNamingTheFile) {
  const Bad& b = GetParam();
  const std::string path = fixture(std::string("broken/") + b.file);
  auto file = io::readObj(path);
  ASSERT_FALSE(file) << b.file << " loaded";
  const std::string& e = file.error();
  EXPECT_EQ(e.rfind(path + b.where, 0), 0u) << e;
  EXPECT_NE(e.find(b.what), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

INSTANTIATE_TEST_SUITE_P(
    Files, ObjBroken,
    testing::Values(Bad{"empty.obj", ":", "no faces (the file is empty)"},
                    Bad{"comments_only.obj", ":", "no faces"},
                    Bad{"vertices_only.obj", ":", "no faces (only vertices)"},
                    Bad{"points_only.obj", ":", "no faces (only points)"},
                    Bad{"line_one_vertex.obj", ":5:", "a line needs at least 2 vertices"},
                    Bad{"line_repeats.obj", ":5:", "a line repeats vertex 1"},
                    Bad{"line_ambiguous.obj", ":7:", "neither a seam nor a strand"},
                    Bad{"seam_same_vertex.obj",
                        ":6:", "a line repeats vertex 2 (a seam joins two different vertices)"},
                    Bad{"seam_out_of_range.obj", ":6:", "vertex index 9 is out of range"},
                    Bad{"index_zero.obj", ":4:", "vertex index 0 is not valid"},
                    Bad{"index_out_of_range.obj", ":5:", "vertex index 4 is out of range"},
                    Bad{"nan_coordinate.obj", ":2:", "non-finite coordinate 'nan'"},
                    Bad{"garbage.obj", ":1:", "not an OBJ statement"},
                    Bad{"truncated_face.obj", ":6:", "a face needs at least 3 vertices"},
                    Bad{"bad_number.obj", ":2:", "'0,5' is not a number"}),
    [](const testing::TestParamInfo<Bad>& info) {
      std::string name = info.param.file;
      return name.substr(0, name.find('.'));
    });

TEST(ObjReader, LinesOnNoFaceAreStrands) {
  auto file = io::readObj(fixture("lines_only.obj"));
  ASSERT_TRUE(file) << file.error();
  EXPECT_TRUE(file->mesh.triangles.empty());
  ASSERT_EQ(file->mesh.strands.size(), 1u);
  EXPECT_EQ(file->mesh.strands[0], (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(file->strands, 1u);
}

TEST(ObjReader, LinesAlongFacesAreSeamsBesideStrands) {
  auto file = io::readObj(fixture("face_and_strand.obj"));
  ASSERT_TRUE(file) << file.error();
  EXPECT_EQ(file->mesh.triangles.size(), 1u);
  ASSERT_EQ(file->mesh.strands.size(), 1u);
  EXPECT_EQ(file->mesh.strands[0], (std::vector<std::uint32_t>{3, 4, 5}));
  EXPECT_EQ(file->mesh.seams, (std::vector<glm::uvec2>{{0, 1}}));
  EXPECT_EQ(file->seams, 1u);
  EXPECT_TRUE(file->warnings.empty()) << file->warnings[0];
}

// Quads, CRLF and seams counted back from the last vertex, as exporters
// write them: each `l` of two face vertices is one seam, in file order.
TEST(ObjReader, SeamsBetweenPanelsOfQuads) {
  auto file = io::readObj(fixture("sewn_panels.obj"));
  ASSERT_TRUE(file) << file.error();
  EXPECT_EQ(file->quads, 8u);
  EXPECT_EQ(file->mesh.triangles.size(), 16u);
  EXPECT_TRUE(file->mesh.strands.empty());
  EXPECT_EQ(file->mesh.seams, (std::vector<glm::uvec2>{{0, 9}, {3, 12}, {6, 15}}));
  EXPECT_TRUE(file->warnings.empty()) << file->warnings[0];
  auto prepared = sim::prepareMesh(file->mesh);
  ASSERT_TRUE(prepared) << prepared.error();
  EXPECT_EQ(prepared->mesh.seams.size(), 3u);
}

TEST(ObjReader, MissingFileIsNamed) {
  const std::string path = fixture("no_such_file.obj");
  auto file = io::readObj(path);
  ASSERT_FALSE(file);
  EXPECT_NE(file.error().find(path), std::string::npos);
  EXPECT_NE(file.error().find("no such file"), std::string::npos);
}

TEST(ObjReader, FolderIsRefused) {
  const std::string path = std::string(DRAPE_TEST_DATA) + "/obj";
  auto file = io::readObj(path);
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error(), path + " is a folder, not an OBJ file");
}

TEST(ObjReader, DeviceIsRefusedWithoutReading) {
  auto file = io::readObj("/dev/zero");  // would never end
  ASSERT_FALSE(file);
  EXPECT_NE(file.error().find("not a regular file"), std::string::npos);
}

}  // namespace
