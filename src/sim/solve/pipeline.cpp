#include "sim/solve/pipeline.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "sim/collision/step_contacts.hpp"
#include "sim/models/rigid_body.hpp"
#include "sim/models/tet_volume.hpp"
#include "sim/self/self_collision.hpp"
#include "sim/solve/chebyshev.hpp"
#include "sim/solve/fold_limits.hpp"
#include "sim/solve/isometric_bending.hpp"
#include "sim/solve/newton_step.hpp"
#include "sim/solve/ranges.hpp"
#include "sim/solve/solver_scratch.hpp"
#include "sim/solve/solver_team.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

// The stages of one iteration, in order: pressure first and contacts last,
// so that the cloth's own constraints and then the contacts have the last
// word (Müller et al. 2007 §4.4). The colliders' features come before the
// self contacts and those before the vertices' collider contacts: a layer
// pressed against the floor is kept out of it, and a fold the features push
// is kept apart.
enum class Stage : std::uint8_t {
  Pressure,          // the balloon's overpressure or its tetrahedra
  Hand,              // the soft grab's pull
  CoarseLevels,      // stretch limits on coarser meshes (hierarchy.hpp)
  Stretch,           // per edge
  Bend,              // dihedral, per inner edge
  IsometricBend,     // isometric (Bergou et al. 2006)
  VertexBlocks,      // Vertex Block Descent instead of the three above
  Chebyshev,         // the iterate accelerated (chebyshev.hpp), before the limits' word
  Tethers,           // long-range attachments to the pins
  Attachments,       // cloth vertices tied to rigid bodies
  ColliderFeatures,  // colliders' edges and corners against the cloth's edges and triangles
  FoldLimits,        // creases no sharper than the thickness allows
  SelfContacts,      // vertex–triangle
  Crossings,         // untangling
  ColliderContacts,  // the cloth's vertices against the colliders
};
constexpr std::size_t kStageCount = std::size_t(Stage::ColliderContacts) + 1;

// The stages that have work in this sub-step, in order.
std::size_t activeStages(const World& world, const Coefficients& c,
                         std::array<Stage, kStageCount>& out) {
  const SolverScratch& sc = *world.scratch;
  const bool has[kStageCount] = {
      world.cloth.pressureActive,
      world.grab.soft,
      !c.vbd && !sc.hierarchy.empty(),
      !c.vbd && c.stretchOn && !sc.packedStretch.a.empty(),
      !c.vbd && c.bendOn && !c.isometric && !sc.packedBend.v0.empty(),
      !c.vbd && c.bendOn && c.isometric && !world.cloth.isoBend.empty(),
      c.vbd && !sc.vbd.byColour.empty(),
      c.chebyshev > 0.0f,
      !sc.tethers.empty(),
      !world.attachments.empty(),
      !sc.featureContacts.empty(),
      !sc.foldLimits.active.empty(),
      !sc.selfContacts.empty(),
      !sc.tangles.crossings.empty(),
      !sc.contacts.empty(),
  };
  std::size_t count = 0;
  for (std::size_t k = 0; k < kStageCount; ++k)
    if (has[k]) out[count++] = Stage(k);
  return count;
}

// The middle of the points' bounding box, to whole metres.
glm::vec3 solveOrigin(const std::vector<glm::vec3>& p) {
  if (p.empty()) return glm::vec3(0.0f);
  glm::vec3 lo = p[0], hi = p[0];
  for (const glm::vec3& q : p) {
    lo = glm::min(lo, q);
    hi = glm::max(hi, q);
  }
  const glm::vec3 middle = 0.5f * lo + 0.5f * hi;
  const bool finite = std::isfinite(middle.x) && std::isfinite(middle.y) && std::isfinite(middle.z);
  return finite ? glm::round(middle) : glm::vec3(0.0f);
}

}  // namespace

float chebyshevRho(const World& world, int iterations) {
  const bool applies = world.params.chebyshev > 0.0f && iterations > kChebyshevStart &&
                       !world.grab.active && world.attachments.empty();
  return applies ? world.params.chebyshev : 0.0f;
}

void packConstraints(World& world) {
  const Cloth& cloth = world.cloth;
  SolverScratch& sc = *world.scratch;
  const bool coloured = world.params.kernels == KernelKind::Batched;
  if (sc.packedVersion != cloth.topologyVersion || sc.packedStretch.coloured != coloured ||
      sc.packedStretch.size() != cloth.stretch.size() ||
      sc.packedBend.size() != cloth.bend.size()) {
    sc.packedStretch = packStretch(cloth.stretch, world.state.x.size(), coloured);
    sc.packedBend = packBend(cloth.bend, world.state.x.size(), coloured);
    sc.packedVersion = cloth.topologyVersion;
  }
}

void projectConstraints(World& world, const Coefficients& c) {
  const Cloth& cloth = world.cloth;
  State& s = world.state;
  SolverScratch& sc = *world.scratch;
  const Params& prm = world.params;
  const PackedStretch& ps = sc.packedStretch;
  const PackedBend& pb = sc.packedBend;
  // Reference: one thread, the lists in their own order.
  const bool lanes = ps.coloured;
  sc.lambdaStretch.resize(ps.size());
  sc.lambdaBend.resize(c.isometric ? cloth.isoBend.size() : pb.size());

  // The kernels work on a copy of p and w, x y z w per vertex (one aligned
  // 16-byte load and store per point), made by the threads at the start of
  // their job and copied back at its end, the positions relative to a
  // whole-metre point near the cloth's middle (Points::origin). Contacts,
  // tethers and isometric bending are projected on it too; what else
  // thread 0 projects between the colours (pressure, attachments) works on
  // State::p: `onState` copies the buffer out before and back after.
  std::vector<glm::vec4>& buffer = sc.solvePoints;
  buffer.resize(s.p.size());
  const glm::vec3 origin = solveOrigin(s.p);
  float* p = reinterpret_cast<float*>(buffer.data());
  float* p3 = reinterpret_cast<float*>(s.p.data());
  auto onState = [&](auto&& solve) {
    batch::fromSolveBuffer(p, p3, buffer.size(), origin);
    solve();
    batch::toSolveBuffer(p3, s.w.data(), p, buffer.size(), origin);
  };
  const Points points = Points::ofBuffer(buffer.data(), origin);
  // Vertex Block Descent's inertial targets: the predicted positions.
  if (c.vbd) sc.vbdTarget.resize(buffer.size());
  const VbdStiffness vbdK{prm.k_stretch, prm.k_bend, c.h};
  const batch::TetherArgs ta{p, sc.tethers.vertex.data(), sc.tethers.anchor.data(),
                             sc.tethers.rest.data(), c.limitSlack};
  batch::StretchArgs sa{p,
                        ps.a.data(),
                        ps.b.data(),
                        ps.rest.data(),
                        sc.lambdaStretch.data(),
                        c.stretchK(),
                        c.stretchAlpha()};
  batch::BendArgs ba{p,
                     {pb.v0.data(), pb.v1.data(), pb.v2.data(), pb.v3.data()},
                     pb.restAngle.data(),
                     pb.restLength.data(),
                     pb.restArea.data(),
                     sc.lambdaBend.data(),
                     c.bendK(),
                     c.bendAlpha(),
                     true,
                     kMaxBendMove};
  (c.xpbd ? sa.alphaEach : sa.kEach) = c.stretchEach;
  if (!c.isometric) (c.xpbd ? ba.alphaEach : ba.kEach) = c.bendEach;

  std::array<Stage, kStageCount> stages;
  const std::size_t stageCount = activeStages(world, c, stages);
  ThreadTeam& team = solverTeam(world);
  const int n = lanes ? team.size() : 1;
  if (lanes && !sc.selfContacts.empty()) partitionSelfContacts(sc, s.x.size());
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
  // Work for thread 0 alone, the others waiting at the barrier after it.
  auto alone = [&](int t, auto&& work) {
    if (t == 0) work();
    sync();
  };
  auto colours = [&](const std::vector<std::uint32_t>& start, std::uint32_t serial, int t,
                     auto&& project) {
    for (std::uint32_t k = 0; k + 1 < start.size(); ++k) {
      if (k == serial) {
        if (t == 0) project(start[k], start[k + 1], true);
      } else {
        std::size_t b, e;
        batch::share(start[k], start[k + 1], t, n, b, e);
        project(b, e, false);
      }
      sync();
    }
  };
  // Constraints packed in blocks (coloring.hpp): thread 0 projects those
  // across more than two neighbouring blocks, if any, then the threads the
  // blocks in two rounds (the even ones after the seams, then the odd
  // ones), colour after colour.
  auto packed = [&](const std::vector<BlockRuns>& blocks, const std::vector<std::uint32_t>& start,
                    std::uint32_t serial, int t, auto&& project) {
    if (blocks.empty()) return colours(start, serial, t, project);
    auto run = [&](const std::vector<std::uint32_t>& from, std::uint32_t serialOne) {
      for (std::uint32_t k = 0; k + 1 < from.size(); ++k)
        project(from[k], from[k + 1], k == serialOne);
    };
    if (start.size() > 1) alone(t, [&] { run(start, serial); });
    for (int round = 0; round < 2; ++round) {
      forEachBlockOfRound(round, t, n, [&](std::size_t g) {
        run(blocks[g].seams.start, blocks[g].seams.serial);
        run(blocks[g].inside.start, blocks[g].inside.serial);
      });
      sync();
    }
  };
  auto selfContacts = [&](int t) {
    if (!lanes) {
      solveSelfContacts(points, sc.selfContacts.data(), sc.selfContacts.size(), sc.selfThickness);
      return;
    }
    // By blocks of vertices, side by side, then those across blocks.
    const std::vector<std::uint32_t>& start = sc.selfBlockStart;
    for (std::size_t g = std::size_t(t); g < kSelfBlocks; g += std::size_t(n))
      solveSelfContacts(points, sc.selfContacts.data() + start[g], start[g + 1] - start[g],
                        sc.selfThickness);
    sync();
    alone(t, [&] {
      solveSelfContacts(points, sc.selfContacts.data() + start[kSelfBlocks],
                        start[kSelfBlocks + 1] - start[kSelfBlocks], sc.selfThickness);
    });
  };
  // Chebyshev: ω of each iteration, and the two iterates before.
  std::vector<float>& omega = sc.chebyshevOmega;
  if (c.chebyshev > 0.0f) {
    omega.resize(std::size_t(c.iterations));
    for (int it = 0; it < c.iterations; ++it)
      omega[std::size_t(it)] =
          chebyshevOmega(it, c.chebyshev, it > 0 ? omega[std::size_t(it) - 1] : 1.0f);
    sc.chebyshevOlder.resize(buffer.size());
    sc.chebyshevLast.resize(buffer.size());
    // XPBD: the multipliers' history, stretch then bending.
    const std::size_t values = c.xpbd ? sc.lambdaStretch.size() + sc.lambdaBend.size() : 0;
    sc.chebyshevLambdaOlder.resize(values);
    sc.chebyshevLambdaLast.resize(values);
  }
  // The hand pulls before each sweep of the stretch constraints, by at most
  // 2 / (s + 1) of its step each: an iteration of s sweeps may pull the
  // patch 2s / (s + 1) steps. Measured dragging the hanging cloth a metre
  // out and down at 4 iterations of 3 sweeps: pulled once an iteration,
  // the patch lags 0.40 m; s pulls of 1/s step, 0.25 m; s pulls of a whole
  // step stretch edges by 48 %; split so, it follows within 2 mm (0.1 m at
  // 4 iterations of 2) and stretches no edge beyond 30.3 % at 2 to 6 sweeps.
  // Without the stage (Vertex Block Descent, no stretch stiffness under
  // XPBD) it pulls once an iteration, a whole step.
  const bool sweptHand = std::find(stages.begin(), stages.begin() + stageCount, Stage::Stretch) !=
                         stages.begin() + stageCount;
  const float handShare = sweptHand ? 2.0f / float(c.stretchSweeps + 1) : 1.0f;
  auto runStage = [&](Stage stage, int t, int iteration) {
    switch (stage) {
      case Stage::Pressure:
        return alone(t, [&] { onState([&] { solveBalloon(world); }); });
      case Stage::Hand:
        return alone(t, [&] { pullGrabPatch(points, world.grab, handShare); });
      case Stage::CoarseLevels:
        return solveHierarchy(points, sc.hierarchy, c.kLimits, t, n, &team);
      case Stage::Stretch:
        for (int sweep = 0; sweep < c.stretchSweeps; ++sweep) {
          // The hand keeps its word against each sweep, as against each
          // iteration without sweeps.
          if (sweep > 0 && world.grab.soft)
            alone(t, [&] { pullGrabPatch(points, world.grab, handShare); });
          packed(ps.blocks, ps.colourStart, ps.serialColour, t,
                 [&](std::size_t b, std::size_t e, bool serial) {
                   batch::stretchRange(sa, b, e, serial);
                 });
        }
        return;
      case Stage::Bend:
        return packed(
            pb.blocks, pb.colourStart, pb.serialColour, t,
            [&](std::size_t b, std::size_t e, bool serial) { batch::bendRange(ba, b, e, serial); });
      case Stage::IsometricBend:
        return alone(t, [&] {
          solveIsoBend(points, cloth.isoBend.data(), cloth.isoBend.size(), c, sc.lambdaBend.data());
        });
      case Stage::VertexBlocks: {
        // A colour's vertices share no constraint: any split gives the
        // same result.
        const VbdTopology& vt = sc.vbd;
        for (std::size_t k = 0; k + 1 < vt.colourStart.size(); ++k) {
          std::size_t b, e;
          batch::share(vt.colourStart[k], vt.colourStart[k + 1], t, n, b, e);
          vbdSweep(cloth, vt, points, sc.vbdTarget.data(), vbdK, std::uint32_t(b),
                   std::uint32_t(e));
          sync();
        }
        return;
      }
      case Stage::Tethers: {
        // Each tether moves only its own free vertex, towards a pin that
        // does not move: any split gives the same result.
        std::size_t b, e;
        batch::share(0, sc.tethers.size(), t, n, b, e);
        batch::tetherRange(ta, b, e);
        return sync();
      }
      case Stage::Attachments:
        return alone(
            t, [&] { onState([&] { solveBodyAttachments(s, world.bodies, world.attachments); }); });
      case Stage::Chebyshev: {
        // One point or multiplier each: any split gives the same result.
        const float w = omega[std::size_t(iteration)];
        std::size_t b, e;
        batch::share(0, buffer.size(), t, n, b, e);
        chebyshevRange(buffer.data(), sc.chebyshevOlder.data(), sc.chebyshevLast.data(), b, e, w);
        if (c.xpbd) {
          const std::size_t stretches = sc.lambdaStretch.size();
          batch::share(0, stretches, t, n, b, e);
          chebyshevValues(sc.lambdaStretch.data(), sc.chebyshevLambdaOlder.data(),
                          sc.chebyshevLambdaLast.data(), b, e, w);
          batch::share(0, sc.lambdaBend.size(), t, n, b, e);
          chebyshevValues(sc.lambdaBend.data(), sc.chebyshevLambdaOlder.data() + stretches,
                          sc.chebyshevLambdaLast.data() + stretches, b, e, w);
        }
        return sync();
      }
      case Stage::ColliderFeatures:
        return alone(t, [&] {
          solveFeatureContacts(points, s.x.data(), sc.featureContacts.data(),
                               sc.featureContacts.size(), prm.friction);
        });
      case Stage::FoldLimits:
        return alone(t, [&] {
          solveFoldLimits(points, cloth, sc.foldLimits.active.data(), sc.foldLimits.active.size());
        });
      case Stage::SelfContacts:
        return selfContacts(t);
      case Stage::Crossings:
        return alone(t, [&] { solveCrossings(points, sc.tangles.crossings, sc.selfThickness); });
      case Stage::ColliderContacts: {
        // One vertex each, in each thread's run of vertices: the same
        // result as in one pass.
        const std::size_t b = contactSplit[std::size_t(t)], e = contactSplit[std::size_t(t) + 1];
        solveContacts(points, s.x.data(), sc.contacts.data() + b, e - b, prm.friction);
        return sync();
      }
    }
  };
  // XPBD: the Newton step after the iterations (newton_step.hpp), then the
  // contacts once more, so that they keep the last word.
  // Not where the edges are infinitely soft (k_stretch 0): the hinges'
  // linearisation then holds nothing in place.
  const bool newton = c.xpbd && !c.isometric && prm.newton_cg > 0 && c.stretchOn && !ps.a.empty();
  NewtonScratch& ns = sc.newton;
  if (newton) {
    if (ns.coarse.topology != cloth.topologyVersion || ns.coarse.pins != world.pinsVersion) {
      ns.coarse = buildNewtonCoarse(cloth, s.w);
      ns.coarse.topology = cloth.topologyVersion;
      ns.coarse.pins = world.pinsVersion;
      ns.coarseReady = false;
    }
    ns.predicted.resize(buffer.size());
  }
  // The coarse matrix only preconditions: made again every few frames.
  const bool refreshCoarse = ns.coarseFrame == UINT64_MAX || world.frame < ns.coarseFrame ||
                             world.frame - ns.coarseFrame >= kNewtonCoarseFrames;
  if (newton && refreshCoarse) ns.coarseFrame = world.frame;
  // The iterations (and the Newton step after them), on each thread.
  auto iterate = [&](int t) {
    for (int it = 0; it < c.iterations; ++it)
      for (std::size_t k = 0; k < stageCount; ++k) runStage(stages[k], t, it);
    if (!newton) return;
    alone(t, [&] {
      newtonStep(points, ps, pb, c, sc.lambdaStretch.data(), sc.lambdaBend.data(), prm.newton_cg,
                 refreshCoarse, ns);
    });
    for (std::size_t k = 0; k < stageCount; ++k)
      if (stages[k] >= Stage::ColliderFeatures) runStage(stages[k], t, c.iterations - 1);
  };
  auto job = [&](int t) {
    // Each thread its share of the buffer, the multipliers and the copies
    // of the predicted positions; each point on its own.
    std::size_t b, e;
    batch::share(0, buffer.size(), t, n, b, e);
    batch::toSolveBuffer(p3 + 3 * b, s.w.data() + b, p + 4 * b, e - b, origin);
    if (c.vbd)
      std::copy(buffer.begin() + std::ptrdiff_t(b), buffer.begin() + std::ptrdiff_t(e),
                sc.vbdTarget.begin() + std::ptrdiff_t(b));
    if (newton)
      std::copy(buffer.begin() + std::ptrdiff_t(b), buffer.begin() + std::ptrdiff_t(e),
                ns.predicted.begin() + std::ptrdiff_t(b));
    for (std::vector<float>* lambda : {&sc.lambdaStretch, &sc.lambdaBend}) {
      std::size_t lb, le;
      batch::share(0, lambda->size(), t, n, lb, le);
      std::fill(lambda->begin() + std::ptrdiff_t(lb), lambda->begin() + std::ptrdiff_t(le), 0.0f);
    }
    sync();
    iterate(t);
    // Every stage ends at a barrier: the buffer is whole.
    batch::fromSolveBuffer(p + 4 * b, p3 + 3 * b, e - b, origin);
  };
  if (lanes)
    team.run(job);  // on one thread too: the team judges whether the machine is busy
  else
    job(0);
}

}  // namespace drape::sim
