#include "sim/solve_batched.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/batch_solve.hpp"
#include "sim/materials.hpp"
#include "sim/rigid_body.hpp"
#include "sim/self_collision.hpp"
#include "sim/solver.hpp"
#include "sim/step_contacts.hpp"
#include "sim/tet_volume.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
int solverThreads(int requested, std::size_t constraints) {
  const int want = requested <= 0 ? hardwareThreads() : requested;
  const int useful = int(std::max<std::size_t>(1, constraints / 6000));
  return std::max(1, std::min(want, useful));
}

void solveBatched(World& world, int iterations, float kStretch, float kBend, float aStretch,
                  float aBend, bool xpbd) {
  Cloth& cloth = world.cloth;
  State& s = world.state;
  SolverScratch& sc = world.scratch;
  const Params& prm = world.params;
  if (sc.packedVersion != cloth.topologyVersion ||
      sc.packedStretch.size() != cloth.stretch.size() ||
      sc.packedBend.size() != cloth.bend.size()) {
    sc.packedStretch = packStretch(cloth.stretch, s.x.size());
    sc.packedBend = packBend(cloth.bend, s.x.size());
    sc.packedVersion = cloth.topologyVersion;
  }
  const PackedStretch& ps = sc.packedStretch;
  const PackedBend& pb = sc.packedBend;
  const float h = prm.dt / float(prm.substeps > 0 ? prm.substeps : 1);
  sc.lambdaStretch.assign(ps.size(), 0.0f);
  const bool iso = prm.bending == BendingModel::Isometric;
  sc.lambdaBend.assign(iso ? cloth.isoBend.size() : pb.size(), 0.0f);
  const bool bendOn = xpbd ? !std::isinf(aBend) : prm.k_bend > 0.0f;

  // The kernels work on a copy of p and w, x y z w per vertex (one aligned
  // 16-byte load and store per point), made here and copied back at the
  // end. Contacts and tethers are projected on it too; what else thread
  // 0 projects between the colours (pressure, isometric bending,
  // attachments) works on State::p: `onState` copies the buffer out before
  // and back after.
  std::vector<glm::vec4>& buffer = sc.solvePoints;
  buffer.resize(s.p.size());
  float* p = reinterpret_cast<float*>(buffer.data());
  float* p3 = reinterpret_cast<float*>(s.p.data());
  batch::toSolveBuffer(p3, s.w.data(), p, buffer.size());
  auto onState = [&](auto&& solve) {
    batch::fromSolveBuffer(p, p3, buffer.size());
    solve();
    batch::toSolveBuffer(p3, s.w.data(), p, buffer.size());
  };
  batch::TetherArgs ta{p, sc.tethers.vertex.data(), sc.tethers.anchor.data(),
                       sc.tethers.rest.data(), stretchLimitSlack(prm.k_stretch)};
  const Points points = Points::ofBuffer(buffer.data());
  batch::StretchArgs sa{p,
                        ps.a.data(),
                        ps.b.data(),
                        ps.rest.data(),
                        sc.lambdaStretch.data(),
                        xpbd ? 1.0f : kStretch,
                        xpbd ? aStretch : 0.0f};
  batch::BendArgs ba{p,
                     {pb.v0.data(), pb.v1.data(), pb.v2.data(), pb.v3.data()},
                     pb.restAngle.data(),
                     pb.restLength.data(),
                     pb.restArea.data(),
                     sc.lambdaBend.data(),
                     xpbd ? 1.0f : kBend,
                     xpbd ? aBend : 0.0f,
                     true,
                     kMaxBendMove};
  const bool stretchOn = xpbd ? !std::isinf(aStretch) : true;
  if (!ps.uniform) {
    materialValues(
        ps.size(), [&](std::size_t j) { return ps.stiffness[j]; }, prm.k_stretch, iterations, xpbd,
        kStretchComplianceUnit, h, sc.kStretchEach);
    (xpbd ? sa.alphaEach : sa.kEach) = sc.kStretchEach.data();
  }
  if (!pb.uniform && !iso) {
    materialValues(
        pb.size(), [&](std::size_t j) { return pb.stiffness[j]; }, prm.k_bend, iterations, xpbd,
        kBendComplianceUnit, h, sc.kBendEach);
    (xpbd ? ba.alphaEach : ba.kEach) = sc.kBendEach.data();
  }
  const float* isoEach = nullptr;
  if (iso && !uniformMaterial(cloth.isoBend)) {
    materialValues(
        cloth.isoBend.size(), [&](std::size_t j) { return cloth.isoBend[j].stiffness; }, prm.k_bend,
        iterations, xpbd, kBendComplianceUnit, h, sc.kBendEach);
    isoEach = sc.kBendEach.data();
  }

  ThreadTeam& team = threadTeam(solverThreads(prm.threads, ps.size() + pb.size()));
  const int n = team.size();
  if (!sc.selfContacts.empty()) partitionSelfContacts(sc, s.x.size());
  // Each thread's share of the collider contacts, split where the vertex
  // changes (they come in vertex order).
  std::vector<std::size_t>& contactSplit = sc.contactSplit;
  contactSplit.resize(std::size_t(n) + 1);
  for (int t = 0; t <= n; ++t) {
    std::size_t k = sc.contacts.size() * std::size_t(t) / std::size_t(n);
    while (k > 0 && k < sc.contacts.size() && sc.contacts[k].vertex == sc.contacts[k - 1].vertex)
      ++k;
    contactSplit[std::size_t(t)] = k;
  }
  auto sync = [&] {
    if (n > 1) team.barrier();
  };
  auto colours = [&](const std::vector<std::uint32_t>& start, std::uint32_t serial, int t,
                     auto&& project) {
    for (std::uint32_t c = 0; c + 1 < start.size(); ++c) {
      if (c == serial) {
        if (t == 0) project(start[c], start[c + 1], true);
      } else {
        std::size_t b, e;
        batch::share(start[c], start[c + 1], t, n, b, e);
        project(b, e, false);
      }
      sync();
    }
  };
  // The coarse levels (hierarchy.hpp), coarsest first: the projections on
  // thread 0 in the levels' own order (it carries corrections further per
  // sweep than colour by colour); the fine vertices of a large level moved
  // on all the threads, of a small one on thread 0 with its projections.
  Hierarchy& hier = sc.hierarchy;
  auto hierarchyPass = [&](int t) {
    std::size_t b, e;
    batch::share(0, hier.levels.front().vertex.size(), t, n, b, e);
    saveHierarchyStart(points, hier, b, e);
    sync();
    for (std::size_t l = hier.levels.size(); l-- > 0;) {
      const HierarchyLevel& level = hier.levels[l];
      const bool split = level.fine.size() >= kSplitFine;
      if (t == 0) {
        for (int sweep = 0; sweep < kHierarchySweeps; ++sweep)
          projectHierarchyLevel(points, level, prm.k_stretch, 0, level.a.size());
        if (!split) interpolateHierarchyLevel(points, level, hier.start, 0, level.fine.size());
      }
      if (!split) continue;
      sync();
      batch::share(0, level.fine.size(), t, n, b, e);
      interpolateHierarchyLevel(points, level, hier.start, b, e);
      sync();
    }
    if (hier.levels.front().fine.size() < kSplitFine) sync();  // thread 0 ended alone
  };
  team.run([&](int t) {
    for (int it = 0; it < iterations; ++it) {
      if (cloth.pressureActive) {
        if (t == 0) onState([&] { solveBalloon(world); });
        sync();
      }
      // The hand first, so that the cloth's constraints have the last word.
      if (world.grab.soft) {
        if (t == 0) pullGrabPatch(points, world.grab);
        sync();
      }
      if (!sc.hierarchy.empty()) hierarchyPass(t);
      if (stretchOn)
        colours(ps.colourStart, ps.serialColour, t, [&](std::size_t b, std::size_t e, bool serial) {
          batch::stretchRange(sa, b, e, serial);
        });
      if (bendOn) {
        if (!iso) {
          colours(pb.colourStart, pb.serialColour, t,
                  [&](std::size_t b, std::size_t e, bool serial) {
                    batch::bendRange(ba, b, e, serial);
                  });
        } else {
          if (t == 0)
            onState([&] {
              if (xpbd)
                solveIsoBendXpbd(s, cloth.isoBend.data(), 0, cloth.isoBend.size(), aBend,
                                 sc.lambdaBend.data(), isoEach);
              else
                solveIsoBendPbd(s, cloth.isoBend.data(), 0, cloth.isoBend.size(), kBend, isoEach);
            });
          sync();
        }
      }
      // Tethers on the buffer, split among the threads (each moves only
      // its own free vertex, towards a pin that does not move).
      if (!sc.tethers.empty()) {
        std::size_t b, e;
        batch::share(0, sc.tethers.size(), t, n, b, e);
        batch::tetherRange(ta, b, e);
        sync();
      }
      if (!world.attachments.empty()) {
        if (t == 0) onState([&] { solveBodyAttachments(s, world.bodies, world.attachments); });
        sync();
      }
      // Contacts on the buffer itself: the colliders' features on thread 0;
      // self contacts by blocks of vertices, side by side, then those across
      // blocks on thread 0; then collider contacts (one vertex each) in each
      // thread's run of vertices, the same result as in one pass.
      if (!sc.featureContacts.empty()) {
        if (t == 0)
          solveFeatureContacts(points, s.x.data(), sc.featureContacts.data(),
                               sc.featureContacts.size(), prm.friction);
        sync();
      }
      if (!sc.selfContacts.empty()) {
        const std::vector<std::uint32_t>& start = sc.selfBlockStart;
        for (std::size_t g = std::size_t(t); g < kSelfBlocks; g += std::size_t(n))
          solveSelfContacts(points, sc.selfContacts.data() + start[g], start[g + 1] - start[g],
                            sc.selfThickness);
        sync();
        if (t == 0)
          solveSelfContacts(points, sc.selfContacts.data() + start[kSelfBlocks],
                            start[kSelfBlocks + 1] - start[kSelfBlocks], sc.selfThickness);
        sync();
      }
      if (!sc.tangles.crossings.empty()) {
        if (t == 0) solveCrossings(points, sc.tangles.crossings, kUntangleStep * sc.selfThickness);
        sync();
      }
      if (!sc.contacts.empty()) {
        const std::size_t b = contactSplit[std::size_t(t)], e = contactSplit[std::size_t(t) + 1];
        solveContacts(points, s.x.data(), sc.contacts.data() + b, e - b, prm.friction);
        sync();
      }
    }
  });
  batch::fromSolveBuffer(p, p3, buffer.size());
}

}  // namespace drape::sim
