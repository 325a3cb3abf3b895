#pragma once
// Triangle meshes as rigid colliders: the surface in the collider's local
// frame, an axis-aligned bounding-box tree over its triangles, and the
// angle-weighted pseudo-normals (Bærentzen & Aanæs 2005) that give the
// inside/outside of a closed mesh from its closest surface feature.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "sim/mesh.hpp"
#include "sim/result.hpp"

namespace drape::sim {

// A bounding-box tree over triangles, built top down: each node splits its
// triangles at the median of their centroids along the longest axis of the
// centroids' box, down to leaves of at most kLeafSize triangles. Deterministic
// (the same mesh gives the same tree).
struct TriangleBvh {
  static constexpr std::uint32_t kLeafSize = 4;
  struct Node {
    glm::vec3 lo{0.0f}, hi{0.0f};
    // Inner node: `first` is the left child's index, the right child follows
    // the left's subtree at `second`; count = 0. Leaf: triangles
    // order[first, first + count).
    std::uint32_t first = 0, second = 0, count = 0;
  };
  std::vector<Node> nodes;           // nodes[0] is the root (empty for an empty mesh)
  std::vector<std::uint32_t> order;  // triangle indices, leaf by leaf

  void build(const std::vector<glm::vec3>& vertices, const std::vector<glm::uvec3>& triangles);
  // visit(item) for every item (an index into the triangles it was built
  // on) in a leaf whose box overlaps [lo, hi].
  template <typename F>
  void overlapping(const glm::vec3& lo, const glm::vec3& hi, F&& visit) const {
    if (nodes.empty()) return;
    std::uint32_t stack[64];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const Node& node = nodes[stack[--top]];
      if (glm::any(glm::lessThan(node.hi, lo)) || glm::any(glm::greaterThan(node.lo, hi))) continue;
      if (node.count > 0) {
        for (std::uint32_t i = node.first; i < node.first + node.count; ++i) visit(order[i]);
      } else if (top + 2 <= 64) {
        stack[top++] = node.second;
        stack[top++] = node.first;
      }
    }
  }
};

// Which part of a triangle a closest point lies on.
enum class TriangleFeature : std::uint8_t {
  Face,
  Edge01,
  Edge12,
  Edge20,
  Vertex0,
  Vertex1,
  Vertex2
};

struct ClosestPoint {
  glm::vec3 point{0.0f};
  float distance2 = 0.0f;  // squared distance to the query point
  std::uint32_t triangle = 0;
  TriangleFeature feature = TriangleFeature::Face;
};

struct MeshShape {
  std::vector<glm::vec3> vertices;  // local frame (the file's coordinates × scale)
  std::vector<glm::uvec3> triangles;
  std::vector<glm::vec3> faceNormals;    // unit, from the winding
  std::vector<glm::vec3> edgeNormals;    // 3 per triangle (edges 01, 12, 20): sum of the faces'
  std::vector<glm::vec3> vertexNormals;  // angle-weighted sum of the faces' normals
  TriangleBvh bvh;
  // Sharp convex edges, where the two faces' normals are more than
  // kSharpDegrees apart and the edge bulges out (a box's edges, a table's
  // rim), with both faces' normals, and a tree over them (built on the edges
  // as triangles (a, b, b)): what a cloth edge can meet between its
  // vertices (feature_contacts.hpp).
  static constexpr float kSharpDegrees = 45.0f;
  struct SharpEdge {
    std::uint32_t a, b;
    glm::vec3 normalA, normalB;
  };
  std::vector<SharpEdge> sharpEdges;
  TriangleBvh sharpTree;
  // The sharp edges' ends, each once, and a tree over them (as triangles
  // (c, c, c)): the corners a cloth triangle can meet over its interior.
  std::vector<std::uint32_t> sharpCorners;
  TriangleBvh cornerTree;
  // Every edge shared by exactly two triangles that run it in opposite
  // directions, enclosing a positive volume: a solid. Otherwise a two-sided
  // sheet.
  bool closed = false;
  float radius = 0.0f;  // of a ball about the local origin holding the mesh
  // Closed meshes: the signed distance at the centres of a grid of kGrid³
  // cells over the bounding box. A signed distance changes no faster than
  // the point moves, so a cell's value bounds the distance of every point in
  // it and tells most points far from the surface which side they are on.
  static constexpr int kGrid = 24;
  std::vector<float> cellDistance;
  glm::vec3 gridLo{0.0f}, gridCell{0.0f};
  // How far the surface may have moved since the grid was measured (a
  // deforming collider's, mesh_sequence.hpp): each cell's distance is known
  // to within it. 0 for a rigid shape.
  float gridSlack = 0.0f;
  // Where it came from, for scene files: the OBJ's path and its scale.
  std::string source;
  float scale = 1.0f;
  // What preparation dropped or changed, one line each (for warnings).
  std::vector<std::string> repairs;

  // The closest surface point to `p` within `maxDistance`; false when there
  // is none that close.
  bool closest(const glm::vec3& p, float maxDistance, ClosestPoint& out) const;
  // The outward pseudo-normal at a closest point (unit).
  glm::vec3 pseudoNormal(const ClosestPoint& c) const;
  // The first crossing of the segment a → b with the surface, as a fraction
  // of the segment, and the triangle crossed; false when it crosses none.
  bool firstHit(const glm::vec3& a, const glm::vec3& b, float& t, std::uint32_t& triangle) const;
  // +1 where p is surely outside a closed mesh, −1 surely inside, 0 when
  // only a search can tell (always 0 for an open mesh). `bound` is at least
  // p's distance to the surface (infinite where the grid does not say).
  int side(const glm::vec3& p, float& bound) const;
  // Signed distance (closed: negative inside) or unsigned distance (open),
  // with the unit direction away from the surface, or the pseudo-normal on it.
  float distance(const glm::vec3& p, glm::vec3& normal) const;
};

// A solid's contact at b, from b's closest surface point cb: the plane at
// `thickness` outside the surface (through q, normal n), when b is inside
// or within `margin` of it.
bool solidContact(const MeshShape& m, const glm::vec3& b, const ClosestPoint& cb, float thickness,
                  float margin, glm::vec3& q, glm::vec3& n);

// A mesh collider's shape from a triangle mesh in the collider's local frame:
// welded and repaired as a cloth mesh is (prepareMesh), triangles too thin to
// have a normal dropped, the tree built. Fails when no triangle is left or
// the input is not finite.
Result<std::shared_ptr<const MeshShape>> makeMeshShape(const TriMesh& mesh, std::string source,
                                                       float scale);

}  // namespace drape::sim
