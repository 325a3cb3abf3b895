#pragma once
// A way back out of a cloth that has passed through itself. Contacts keep
// the cloth on the side it came from; once an edge is through a triangle
// (a crumple finer than the contacts see, an edge slipping past an edge, a
// user's drag), nothing in them undoes it. Two things do here:
//
// - Intersection contour minimisation (Volino & Magnenat-Thalmann 2006,
//   "Resolving surface collisions through intersection contour
//   minimization"): where edge e of the cloth passes through triangle t, the
//   two surfaces meet along a curve, the contour. Moving e against t along
//
//     G = Σ_i ( R_i − 2 (E·R_i) / (E·N) N ),
//
//   E = the edge's direction, N = t's normal, and for each triangle i beside
//   e with normal N_i, R_i = the unit direction of N × N_i that points from
//   e into triangle i (the contour's tangent there), shortens the contour,
//   so that it closes up and the crossing disappears. (G is the paper's
//   estimate, not the exact gradient of the contour within the two
//   triangles, which leaves crossings that G clears.)
// - Regions (after Baraff, Witkin and Kass 2003, "Untangling cloth"): the
//   crossing edges, taken out of the mesh, cut off the parts of it that lie
//   inside a contour. Contacts between vertices and triangles of two such
//   parts would hold them on the wrong sides of each other; they are left
//   out, so that the contour can shrink (self_collision.hpp).

#include <cstdint>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "sim/self/cone_tree.hpp"
#include "sim/self/rest_crossings.hpp"
#include "sim/self/spatial_hash.hpp"
#include "sim/tuning.hpp"

namespace drape::sim {

struct Cloth;
struct Points;
class ThreadTeam;

// Edge (a, b) of the cloth through the interior of triangle `triangle`
// (corners tri), sharing no vertex with it; opposite[k] the third corner of
// each triangle beside the edge (UINT32_MAX where it has only one). The
// vertices are copied from the mesh so that a projection reads one record.
struct Crossing {
  std::uint32_t edge;      // index into cloth.stretch
  std::uint32_t triangle;  // index into cloth.triangles
  std::uint32_t a, b;
  std::uint32_t opposite[2];
  std::uint32_t tri[3];
  float share = 1.0f;  // of the step (shareCrossings)
};

// What the cloth's crossings are as of the start of the frame, and what
// the searches for them have learnt: named state (World::solver), copied
// with the world, so that a copy steps bit for bit.
struct CrossingState {
  std::vector<Crossing> crossings;  // sorted by edge, then triangle; each with its share
  int cleanSearches = 0;            // searches in a row that found none
  std::uint64_t searchedTopology = UINT64_MAX;  // of the crossings found last
  std::uint64_t tooDenseTopology = UINT64_MAX;  // a search gave up on it
  // The culled search's tree (cone_tree.hpp) is built at the second culled
  // search of a topology, not for one that changes between searches (a
  // cloth tearing): the topology last asked for, and the one built for.
  std::uint64_t treeAsked = UINT64_MAX, treeBuilt = UINT64_MAX;
  // Pieces that cross at rest: their crossings are never among `crossings`.
  RestCrossings rest;
};

// A search's derived data (made again when the topology changes), its
// buffers and its result, `crossings`.
struct Tangles {
  std::vector<Crossing> crossings;
  // For the topology they were made on: per vertex, its edges (CSR), per
  // edge the third corners of the triangles beside it, and the mean rest
  // edge (the hash's cell).
  std::vector<std::uint32_t> edgeStart, edges;
  std::vector<glm::uvec2> opposite;
  std::vector<std::uint32_t> edgeTriangle;  // a triangle each edge borders (UINT32_MAX: none)
  float cell = 0.0f;
  std::uint64_t topology = UINT64_MAX;
  // Detection's buffers: the triangles' boxes, planes and their hash, each chunk's
  // crossings, each thread's triangles seen and found.
  std::vector<Aabb> boxes;
  std::vector<glm::vec4> planes;  // normal (not unit) and its dot with a corner
  SpatialHash hash;
  std::vector<std::vector<Crossing>> chunks;
  std::vector<std::vector<std::uint32_t>> seen, found;
  // The culled search's tree (cone_tree.hpp) for the topology
  // conesTopology, and its last walk.
  ConeTree cones;
  ConeSearch coneSearch;
  std::uint64_t conesTopology = UINT64_MAX;
  // Per vertex: 0, or 1 + the number of the part inside a contour it lies
  // in (findRegions). Empty when no part is cut off.
  std::vector<std::uint32_t> region;
  // findRegions' buffers: the crossing edges, and the union-find of the rest.
  std::vector<std::uint8_t> cut;
  std::vector<std::uint32_t> parent, size, largest;
  // shareCrossings' count of crossings at each vertex (zero between calls).
  std::vector<std::uint32_t> crossingsAt;
};

// The tree of tangles.cones for the cloth's topology, built when missing.
void prepareConeTree(const Cloth& cloth, Tangles& tangles);

// How a search finds the pairs to test. Every: each edge against the
// triangles whose boxes its box meets (a spatial hash); what statistics
// count. Culled: normal cones (cone_tree.hpp) rule out the smooth parts
// first (the tree built when missing); the same crossings.
enum class CrossingSearch : std::uint8_t { Every, Culled };

// Every crossing of positions x into tangles.crossings, sorted by edge and
// then triangle, on `team`'s threads (or this one, when null); the same on
// any thread count. False, with none, where the mesh is too dense to search
// in time linear in its size (thousands of triangles over one point, as at
// the hub of a fan).
bool findCrossings(const Cloth& cloth, const std::vector<glm::vec3>& x, ThreadTeam* team,
                   Tangles& tangles, CrossingSearch search = CrossingSearch::Every);

// How many of `found` are not in `known` (both as findCrossings sorts
// them).
std::size_t countFresh(const std::vector<Crossing>& known, const std::vector<Crossing>& found);

// Drops the crossings that positions x no longer have (all but the
// search's work, for the frames between searches).
void keepStillCrossing(const std::vector<glm::vec3>& x, std::vector<Crossing>& crossings);

// Into `marked`, 1 for each of the vertexCount vertices that is a corner
// of a crossing's edge or triangle, else 0; empty without crossings.
void markCrossingVertices(const std::vector<Crossing>& crossings, std::size_t vertexCount,
                          std::vector<std::uint8_t>& marked);

// tangles.region from `crossings` (empty when nothing is cut off).
void findRegions(const Cloth& cloth, const std::vector<Crossing>& crossings, Tangles& tangles);

// The contour-shortening direction G above for a crossing at positions p
// (zero where the edge no longer meets the triangle's plane).
glm::vec3 contourGradient(const Points& pts, const Crossing& c);

// Each crossing's share of the step: 1, or tuning::kUntangleCrowd over the most
// crossings any of its five vertices takes part in where that is more.
// `count` is scratch, all zero between calls.
void shareCrossings(std::size_t vertexCount, std::vector<Crossing>& crossings,
                    std::vector<std::uint32_t>& count);

// One pass over the crossings: each one still crossing moves its edge
// against its triangle by its share of tuning::kUntangleStep thicknesses along G,
// shared by inverse mass at the crossing point (the edge's vertices by
// their weights on it, the triangle's by their barycentric weights), so
// momentum is kept.
void solveCrossings(const Points& pts, const std::vector<Crossing>& crossings, float thickness);

}  // namespace drape::sim
