#include "sim/self/self_contact.hpp"

#include <algorithm>

namespace drape::sim {

void solveSelfContacts(const Points& pts, SelfContact* contacts, std::size_t count,
                       float thickness) {
  const float skipAbove = (1.0f + 1e-4f) * thickness * thickness;
  for (std::size_t j = 0; j < count; ++j) {
    SelfContact& c = contacts[j];
    const glm::vec3 &q = pts.p(c.v[0]), &p1 = pts.p(c.v[1]);
    const glm::vec3 &p2 = pts.p(c.v[2]), &p3 = pts.p(c.v[3]);
    // Most constraints hold in a given iteration (most never act during the
    // step). (q − p1)·N > h |N|, squared, skips them without a square root or
    // the gradients; the margin, far above the rounding of either form, keeps
    // it from skipping one that the full evaluation would project.
    const glm::vec3 N = glm::cross(p2 - p1, p3 - p1);
    const float dN = glm::dot(q - p1, N);
    if (dN > 0.0f && dN * dN > skipAbove * glm::dot(N, N)) continue;
    ConstraintEval<4, float> e = evalVertexTriangle(q, p1, p2, p3, thickness);
    if (!e.valid || e.C >= 0.0f) continue;
    // At most c.deepest per projection: the thickness, plus the way the
    // vertex itself came towards the plane in the step (a fast vertex that
    // passed through is put back at once). A vertex pushed deeper than that
    // by the solve (layers pressed together, each pushed into the next) is
    // moved out over several iterations instead of flung out in one, as
    // rigid-body solvers bound their speed of depenetration. Flung out,
    // those moves feed back: the contacts of a piled-up cloth multiply
    // frame after frame.
    e.C = std::max(e.C, -c.deepest);
    float w[4];
    for (int k = 0; k < 4; ++k) w[k] = pts.invMass(c.v[k]);
    float scale;
    if (!pbdScale(e, w, scale)) continue;
    for (int k = 0; k < 4; ++k) pts.p(c.v[k]) -= (scale * w[k]) * e.grad[k];
    c.touched = true;
  }
}

void partitionSelfContacts(std::vector<SelfContact>& contacts, std::size_t vertexCount,
                           SelfContactBlocks& blocks) {
  // Block g begins at the least v with v·K/n ≥ g: a vertex's block is the
  // number of those beginnings at or below it (no division per vertex).
  std::uint32_t begins[kSelfBlocks];
  for (std::size_t g = 0; g < kSelfBlocks; ++g)
    begins[g] = std::uint32_t((g * vertexCount + kSelfBlocks - 1) / kSelfBlocks);
  auto block = [&](std::uint32_t v) {
    std::uint32_t b = 0;
    for (std::size_t g = 1; g < kSelfBlocks; ++g) b += v >= begins[g] ? 1 : 0;
    return b;
  };
  std::vector<std::uint8_t>& group = blocks.group;
  group.resize(contacts.size());
  std::vector<std::uint32_t>& start = blocks.start;
  start.assign(kSelfBlocks + 2, 0);
  for (std::size_t j = 0; j < contacts.size(); ++j) {
    const std::uint32_t* v = contacts[j].v;
    const std::uint32_t b = block(v[0]);
    const bool inside = block(v[1]) == b && block(v[2]) == b && block(v[3]) == b;
    group[j] = std::uint8_t(inside ? b : kSelfBlocks);
    ++start[group[j] + 1];
  }
  for (std::size_t g = 0; g <= kSelfBlocks; ++g) start[g + 1] += start[g];
  std::uint32_t fill[kSelfBlocks + 1];
  std::copy(start.begin(), start.end() - 1, fill);
  blocks.sorted.resize(contacts.size());
  for (std::size_t j = 0; j < contacts.size(); ++j) blocks.sorted[fill[group[j]]++] = contacts[j];
  contacts.swap(blocks.sorted);
}

}  // namespace drape::sim
