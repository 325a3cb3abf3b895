#pragma once
// Self contacts where the cloth is not smooth: the crossing search's
// normal-cone tree (cone_tree.hpp) walked once more per sub-step, with
// bounds of its own, to rule out the parts of the cloth that cannot come
// near themselves (self_collision.hpp looks up only the rest).

#include <cstdint>

#include <glm/glm.hpp>

#include "sim/self/self_collision.hpp"
#include "sim/self/spatial_hash.hpp"
#include "sim/state.hpp"

namespace drape::sim {

class ThreadTeam;

// The box around vertices v[0..count) over the step, seen from a frame that
// moves by `shift` over it (x → p − shift), grown by `by`. Whether a vertex
// comes near a triangle depends only on their relative motion, so any
// common shift gives the same pairs; the cloth's mean motion keeps the
// boxes of a falling or carried cloth small. Inline: the lookups call it
// for every triangle and vertex of every sub-step, with a count of 3 or 1.
inline Aabb sweptBox(const State& s, const std::uint32_t* v, int count, const glm::vec3& shift,
                     float by) {
  Aabb b{s.x[v[0]], s.x[v[0]]};
  for (int k = 0; k < count; ++k) {
    const glm::vec3 to = s.p[v[k]] - shift;
    b.min = glm::min(b.min, glm::min(s.x[v[k]], to));
    b.max = glm::max(b.max, glm::max(s.x[v[k]], to));
  }
  b.min -= glm::vec3(by);
  b.max += glm::vec3(by);
  return b;
}

// Into self.exposed the triangles of the leaves the walk leaves, and into
// self.exposedVertices their vertices (both empty: every triangle is looked
// up). Needs the crossing search's tree (in.tree) and this sub-step's
// travel (prepareSelfContacts). False,
// with both empty, where the walk gives up: a pile leaves so many pairs
// that it would cost more than it saves. A leaf's box holds its triangles' lookups (their swept
// boxes grown by the reach and the corners' travel), and so its vertices' boxes too. A triangle's
// normal over the step, N(t) = (a + t da) × (b + t db), is a Bézier curve of degree 2 whose control
// points B0 = a × b, B1 = B0 + (a × db + da × b)/2 and B2 = (a + da) × (b + db) span it (Tang et
// al. 2009, "Interactive continuous collision detection between deformable models using
// connectivity-based culling"): the leaf's cone holds all three of each triangle.
bool exposeUnsmoothParts(SelfCollision& self, const SelfSearch& in, ThreadTeam& team);

}  // namespace drape::sim
