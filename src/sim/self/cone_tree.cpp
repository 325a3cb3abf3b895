#include "sim/self/cone_tree.hpp"

#include <algorithm>
#include <cmath>

#include "sim/self/outline.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

using Node = ConeTree::Node;

// Jobs the walk's top leaves for the threads (walkConeTree).
constexpr std::size_t kWalkJobs = 64;

// A cone at least this wide is taken as covering every direction (a
// margin under 90° for the rounding of the merges).
constexpr float kWide = kCrossingWalk.narrowBelow;  // π/2 − 0.01

bool narrow(const glm::vec4& cone, float below = kWide) {
  return cone.w < below;
}

// The smallest cone (in this construction) holding cones a and b.
glm::vec4 mergeCones(const glm::vec4& a, const glm::vec4& b) {
  if (!narrow(a) || !narrow(b)) return glm::vec4(0.0f, 0.0f, 0.0f, kWide);
  const glm::vec3 u(a), v(b);
  const float phi = std::acos(std::clamp(glm::dot(u, v), -1.0f, 1.0f));
  if (phi + b.w <= a.w) return a;
  if (phi + a.w <= b.w) return b;
  const float angle = 0.5f * (phi + a.w + b.w) + 1e-5f;
  if (angle >= kWide) return glm::vec4(0.0f, 0.0f, 0.0f, kWide);
  if (phi < 1e-6f) return glm::vec4(u, angle);
  // The axis turned from u towards v by angle − a.w (slerp).
  const float t = angle - a.w;
  const glm::vec3 axis = (std::sin(phi - t) * u + std::sin(t) * v) / std::sin(phi);
  return glm::vec4(glm::normalize(axis), angle);
}

Aabb unite(const Aabb& a, const Aabb& b) {
  return {glm::min(a.min, b.min), glm::max(a.max, b.max)};
}

// Whether the outline of node a (with b ≠ a: of a and b together, the
// sides between them dropped), seen along `axis` at positions x, is one
// simple closed curve (outline.hpp). Projected in double about a corner of
// the outline, so that the test does not depend on where the cloth is.
bool nodesOutlineSimple(const ConeTree& tree, std::uint32_t a, std::uint32_t b,
                        const glm::vec3& axis, const glm::vec3* x, ConeSearch::Walker& walker) {
  const Node &na = tree.nodes[a], &nb = tree.nodes[b];
  if (tree.outlineStart[a] == tree.outlineStart[a + 1]) return false;  // closed: no outline
  // A frame (e1, e2, axis), right-handed: the triangles, facing along the
  // axis, run counter-clockwise in it.
  const glm::dvec3 n(axis);
  const glm::dvec3 helper = std::abs(n.x) < 0.6 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
  const glm::dvec3 e1 = glm::normalize(glm::cross(n, helper)), e2 = glm::cross(n, e1);
  const glm::dvec3 origin(x[tree.outline[tree.outlineStart[a]].from]);
  auto project = [&](std::uint32_t v) {
    const glm::dvec3 d = glm::dvec3(x[v]) - origin;
    return glm::dvec2(glm::dot(d, e1), glm::dot(d, e2));
  };
  walker.sides.clear();
  auto gather = [&](std::uint32_t node, const Node& other) {
    for (std::uint32_t k = tree.outlineStart[node]; k < tree.outlineStart[node + 1]; ++k) {
      const ConeTree::Side& side = tree.outline[k];
      if (a != b && side.across >= other.leafBegin && side.across < other.leafEnd) continue;
      walker.sides.push_back({project(side.from), project(side.to), side.from, side.to});
    }
  };
  gather(a, nb);
  if (a != b) gather(b, na);
  return simpleOutline(walker.sides, walker.outline);
}

}  // namespace

glm::vec4 coneAround(const glm::vec3* normals, std::size_t count) {
  // The axis is their sum (weighted by their lengths, which any axis
  // allows); the widest angle from the signed squares of the cosines
  // (without a square root each).
  glm::vec3 sum(0.0f);
  for (std::size_t k = 0; k < count; ++k) sum += normals[k];
  const float sumLength = glm::length(sum);
  if (!(sumLength > 0.0f) || !std::isfinite(sumLength)) return glm::vec4(0.0f, 0.0f, 0.0f, kWide);
  const glm::vec3 axis = sum / sumLength;
  float least = 1.0f;  // the signed square of the cosine of the widest angle to the axis
  for (std::size_t k = 0; k < count; ++k) {
    const float length2 = glm::dot(normals[k], normals[k]);
    if (!(length2 > 0.0f) || !std::isfinite(length2)) return glm::vec4(0.0f, 0.0f, 0.0f, kWide);
    const float cosine = glm::dot(axis, normals[k]);
    least = std::min(least, cosine * std::abs(cosine) / length2);
  }
  // Widened by more than the rounding of a square near 1 (2.4e-4 at 0°).
  const float cosine = std::copysign(std::sqrt(std::abs(least)), least);
  const float angle = std::acos(std::clamp(cosine, -1.0f, 1.0f));
  return glm::vec4(axis, std::min(angle + 5e-4f, kWide));
}

void boundLeaves(const ConeTree& tree, const std::vector<Aabb>& triangleBoxes,
                 const std::vector<glm::vec4>& normals, ConeSearch& search) {
  search.box.resize(tree.nodes.size());
  search.cone.resize(tree.nodes.size());
  glm::vec3 leafNormals[kConeLeaf];
  for (const std::uint32_t n : tree.leafNode) {
    const Node& node = tree.nodes[n];
    Aabb box = triangleBoxes[tree.triangles[node.triBegin]];
    for (std::uint32_t k = node.triBegin; k < node.triEnd; ++k) {
      const std::uint32_t t = tree.triangles[k];
      box = unite(box, triangleBoxes[t]);
      leafNormals[k - node.triBegin] = glm::vec3(normals[t]);
    }
    search.box[n] = box;
    search.cone[n] = coneAround(leafNormals, node.triEnd - node.triBegin);
  }
}

bool walkConeTree(const ConeTree& tree, const ConeWalk& walk, std::size_t budget,
                  ConeSearch& search, const glm::vec3* x, ThreadTeam* team) {
  search.pairs.clear();
  for (std::size_t n = tree.nodes.size(); n-- > 0;) {
    const Node& node = tree.nodes[n];
    if (node.child[0] == ConeTree::kNoChild) continue;
    search.box[n] = unite(search.box[node.child[0]], search.box[node.child[1]]);
    search.cone[n] = mergeCones(search.cone[node.child[0]], search.cone[node.child[1]]);
  }
  // The tests a pair of leaves leaves.
  auto tests = [&](std::uint32_t a, std::uint32_t b) {
    const Node &na = tree.nodes[a], &nb = tree.nodes[b];
    std::size_t work = std::size_t(na.edgeEnd - na.edgeBegin) * (nb.triEnd - nb.triBegin);
    if (a != b) work += std::size_t(nb.edgeEnd - nb.edgeBegin) * (na.triEnd - na.triBegin);
    return work;
  };
  // One job: (a, a) within node a, (a, b) between them. Ruled out, or a
  // pair of leaves emitted, or the jobs it splits into pushed.
  auto step = [&](const glm::uvec2 job, ConeSearch::Walker& walker, auto&& push, auto&& emit) {
    const Node &a = tree.nodes[job.x], &b = tree.nodes[job.y];
    const bool leafA = a.child[0] == ConeTree::kNoChild, leafB = b.child[0] == ConeTree::kNoChild;
    if (job.x == job.y) {
      // With everyLeaf (crossings), a leaf the walk reaches is tested
      // within, narrow or not: crushed in a tangle, a few triangles can pass
      // through each other with their normals within 82° of one direction
      // (their outline, seen along it, crosses itself), and testing one
      // costs little.
      bool smooth = a.connected && narrow(search.cone[job.x], walk.narrowBelow);
      if (leafA && (walk.everyLeaf || !smooth)) {
        emit(job);
        return;
      }
      if (smooth && walk.outline && !leafA)
        smooth = nodesOutlineSimple(tree, job.x, job.x, glm::vec3(search.cone[job.x]), x, walker);
      if (smooth || leafA) return;
      push({a.child[0], a.child[1]});
      push({a.child[1], a.child[1]});
      push({a.child[0], a.child[0]});
      return;
    }
    if (!search.box[job.x].overlaps(search.box[job.y])) return;
    if (a.connected && b.connected) {
      const glm::vec4 cone = mergeCones(search.cone[job.x], search.cone[job.y]);
      if (narrow(cone, walk.narrowBelow) && tree.joined(a, b) &&
          (!walk.outline || nodesOutlineSimple(tree, job.x, job.y, glm::vec3(cone), x, walker)))
        return;
    }
    if (leafA && leafB) {
      emit(job);
      return;
    }
    // Split the larger (or the one that is not a leaf).
    const bool splitA = leafB || (!leafA && a.triEnd - a.triBegin >= b.triEnd - b.triBegin);
    if (splitA) {
      push({a.child[1], job.y});
      push({a.child[0], job.y});
    } else {
      push({job.x, b.child[1]});
      push({job.x, b.child[0]});
    }
  };
  const int threads = team ? team->size() : 1;
  search.walkers.resize(std::max<std::size_t>(search.walkers.size(), std::size_t(threads)));
  // The top, breadth first on this thread, until there are kWalkJobs jobs
  // (the same on any number of threads).
  std::size_t work = 0;
  search.jobs.assign(1, glm::uvec2(0u));
  std::size_t head = 0;
  while (head < search.jobs.size() && search.jobs.size() - head < kWalkJobs && work <= budget) {
    const glm::uvec2 job = search.jobs[head++];
    step(
        job, search.walkers[0], [&](const glm::uvec2& next) { search.jobs.push_back(next); },
        [&](const glm::uvec2& pair) {
          work += tests(pair.x, pair.y);
          search.pairs.push_back(pair);
        });
  }
  // The rest, depth first, each job on whichever thread is free; a job
  // stops once it alone exceeds the budget.
  const std::size_t jobs = work <= budget ? search.jobs.size() - head : 0;
  if (search.jobPairs.size() < jobs) search.jobPairs.resize(jobs);
  search.jobWork.assign(jobs, 0);
  auto walkJob = [&](std::size_t j, int thread) {
    ConeSearch::Walker& walker = search.walkers[std::size_t(thread)];
    std::vector<glm::uvec2>& pairs = search.jobPairs[j];
    std::size_t& jobWork = search.jobWork[j];
    pairs.clear();
    walker.todo.assign(1, search.jobs[head + j]);
    while (!walker.todo.empty() && jobWork <= budget) {
      const glm::uvec2 job = walker.todo.back();
      walker.todo.pop_back();
      step(
          job, walker, [&](const glm::uvec2& next) { walker.todo.push_back(next); },
          [&](const glm::uvec2& pair) {
            jobWork += tests(pair.x, pair.y);
            pairs.push_back(pair);
          });
    }
  };
  if (team && threads > 1 && jobs > 1)
    forEachChunk(*team, jobs, walkJob);
  else
    for (std::size_t j = 0; j < jobs; ++j) walkJob(j, 0);
  for (std::size_t j = 0; j < jobs; ++j) {
    work += search.jobWork[j];
    search.pairs.insert(search.pairs.end(), search.jobPairs[j].begin(), search.jobPairs[j].end());
  }
  if (work > budget) {
    search.pairs.clear();
    return false;
  }
  return true;
}

}  // namespace drape::sim
