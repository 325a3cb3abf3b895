#pragma once
// Wavefront OBJ in: the faces of every object in a file, merged into one
// triangle mesh, its `l` polylines whose vertices are on no face, as
// strands (ropes), and its two-vertex `l` lines between face vertices, as
// seams (sewing). The mesh comes back raw (one vertex per `v` line); welding
// and repairs are sim::prepareMesh's job.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "sim/sim.hpp"

namespace drape::io {

struct ObjFile {
  // positions[i] is the file's (i+1)-th `v` line; triangles index positions
  // by position index only, so a UV seam (one `v`, two `vt`) stays one vertex.
  // mesh.cornerUVs holds each corner's `vt` when every face corner names one.
  sim::TriMesh mesh;
  std::size_t faces = 0;      // `f` statements
  std::size_t triangles = 0;  // faces with three corners
  std::size_t quads = 0;      // faces with four corners
  std::size_t polygons = 0;   // faces with five or more corners (triangulated)
  std::size_t texcoords = 0;  // `vt` lines
  std::size_t normals = 0;    // `vn` lines
  std::size_t objects = 0;    // `o` and `g` statements
  bool fromBlender = false;   // the first line is Blender's "# Blender ..." header
  std::size_t strands = 0;    // `l` polylines on no face (mesh.strands)
  std::size_t seams = 0;      // two-vertex `l` lines between face vertices (mesh.seams)
  // Things the reader ignored or could not keep, one line each, without the
  // file name (the caller adds it).
  std::vector<std::string> warnings;

  bool hasTexcoords() const { return texcoords > 0; }
  bool hasNormals() const { return normals > 0; }
};

// Reads an OBJ file. A material library (`mtllib`) is never opened, so a
// missing .mtl costs nothing. Errors name the file, and the line when there
// is one ("cube.obj:12: vertex index 9 is out of range ...").
Result<ObjFile> readObj(const std::string& path);

// The same from text already in memory; `name` stands for the file in messages.
Result<ObjFile> parseObj(const std::string& text, const std::string& name);

// A mesh collider's shape from an OBJ file: its coordinates × scale, welded
// and repaired, with its bounding-box tree. Errors name the file.
Result<std::shared_ptr<const sim::MeshShape>> readMeshShape(const std::string& path, float scale);

}  // namespace drape::io
