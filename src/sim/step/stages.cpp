#include "sim/step/stages.hpp"
#include "sim/tuning.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "sim/collision/collider_contacts.hpp"
#include "sim/models/rigid_body.hpp"
#include "sim/models/tet_volume.hpp"
#include "sim/self/untangle.hpp"
#include "sim/solve/chebyshev.hpp"
#include "sim/solve/fold_limits.hpp"
#include "sim/solve/isometric_bending.hpp"
#include "sim/solve/newton_step.hpp"
#include "sim/solve/ranges.hpp"
#include "sim/solve/ropes.hpp"
#include "sim/solve/seams.hpp"
#include "sim/thread_team.hpp"

namespace drape::sim {
namespace {

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

// One sub-step's projection: what every thread of the job reads, and the
// stages as methods. Each stage ends at a barrier (or runs on thread 0
// alone, the others waiting at the barrier after it), so the points are
// whole between stages.
class Projection {
 public:
  Projection(World& world, StepContext& ctx, const StepPlan& plan, const Coefficients& c)
      : world_(world),
        s_(world.state),
        cloth_(world.cloth),
        ctx_(ctx),
        plan_(plan),
        c_(c),
        ps_(ctx.packedStretch),
        pb_(ctx.packedBend),
        buffered_(!plan.explicitSprings),
        lanes_(buffered_ && ps_.coloured),
        team_(solverTeam(world)),
        n_(lanes_ ? team_.size() : 1) {
    ctx.lambdaStretch.resize(ps_.size());
    ctx.lambdaBend.resize(c.isometric ? cloth_.isoBend.size() : pb_.size());
  }

  void run();

 private:
  void setUpPoints();
  void chooseStages();
  void setUpChebyshev();
  void setUpNewton();
  void job(int t);
  void iterate(int t);
  void runStage(Stage stage, int t, int iteration);
  void stretch(int t);
  void selfContacts(int t);
  void chebyshev(int t, int iteration);

  void sync() {
    if (n_ > 1) team_.barrier();
  }
  // Work for thread 0 alone, the others waiting at the barrier after it.
  template <typename F>
  void alone(int t, F&& work) {
    if (t == 0) work();
    sync();
  }
  // What thread 0 projects between the colours on State::p (pressure,
  // attachments): the buffer copied out before and back after.
  template <typename F>
  void onState(F&& solve) {
    if (buffered_) batch::fromSolveBuffer(p_, p3_, ctx_.solvePoints.size(), origin_);
    solve();
    if (buffered_) batch::toSolveBuffer(p3_, s_.w.data(), p_, ctx_.solvePoints.size(), origin_);
  }
  // Each colour of `start` shared by the threads, the serial colour on
  // thread 0, a barrier after each.
  template <typename F>
  void colours(const std::vector<std::uint32_t>& start, std::uint32_t serial, int t, F&& project) {
    for (std::uint32_t k = 0; k + 1 < start.size(); ++k) {
      if (k == serial) {
        if (t == 0) project(start[k], start[k + 1], true);
      } else {
        std::size_t b, e;
        batch::share(start[k], start[k + 1], t, n_, b, e);
        project(b, e, false);
      }
      sync();
    }
  }
  // Constraints packed in blocks (coloring.hpp): thread 0 projects those
  // across more than two neighbouring blocks, if any, then the threads the
  // blocks in two rounds (the even ones after the seams, then the odd
  // ones), colour after colour.
  template <typename F>
  void packed(const std::vector<BlockRuns>& blocks, const std::vector<std::uint32_t>& start,
              std::uint32_t serial, int t, F&& project) {
    if (blocks.empty()) return colours(start, serial, t, project);
    auto run = [&](const std::vector<std::uint32_t>& from, std::uint32_t serialOne) {
      for (std::uint32_t k = 0; k + 1 < from.size(); ++k)
        project(from[k], from[k + 1], k == serialOne);
    };
    if (start.size() > 1) alone(t, [&] { run(start, serial); });
    for (int round = 0; round < 2; ++round) {
      forEachBlockOfRound(round, t, n_, [&](std::size_t g) {
        run(blocks[g].seams.start, blocks[g].seams.serial);
        run(blocks[g].inside.start, blocks[g].inside.serial);
      });
      sync();
    }
  }

  World& world_;
  State& s_;
  const Cloth& cloth_;
  StepContext& ctx_;
  const StepPlan& plan_;
  const Coefficients& c_;
  const PackedStretch& ps_;
  const PackedBend& pb_;
  const bool buffered_;  // the solve buffer (else State::p itself)
  const bool lanes_;     // batched: coloured, on the team
  ThreadTeam& team_;
  const int n_;
  glm::vec3 origin_{0.0f};
  float* p_ = nullptr;   // the solve buffer
  float* p3_ = nullptr;  // State::p
  Points points_{};
  batch::StretchArgs sa_{};
  batch::BendArgs ba_{};
  batch::TetherArgs ta_{};
  std::array<Stage, kStageCount> stages_{};
  std::size_t stageCount_ = 0;
  float handShare_ = 1.0f;
  bool newton_ = false, refreshFactor_ = false;
};

// The kernels work on a copy of p and w, x y z w per vertex (one aligned
// 16-byte load and store per point), made by the threads at the start of
// their job and copied back at its end, the positions relative to a
// whole-metre point near the cloth's middle (Points::origin). Contacts,
// tethers and isometric bending are projected on it too.
void Projection::setUpPoints() {
  p3_ = reinterpret_cast<float*>(s_.p.data());
  if (!buffered_) {
    points_ = Points::of(s_);
  } else {
    std::vector<glm::vec4>& buffer = ctx_.solvePoints;
    buffer.resize(s_.p.size());
    origin_ = solveOrigin(s_.p);
    p_ = reinterpret_cast<float*>(buffer.data());
    points_ = Points::ofBuffer(buffer.data(), origin_);
  }
  const Tethers& tethers = ctx_.tethers;
  ta_ = {p_, tethers.vertex.data(), tethers.anchor.data(), tethers.rest.data(), c_.limitSlack};
  sa_ = {p_,
         ps_.a.data(),
         ps_.b.data(),
         ps_.rest.data(),
         ctx_.lambdaStretch.data(),
         c_.stretchK(),
         c_.stretchAlpha()};
  ba_ = {p_,
         {pb_.v0.data(), pb_.v1.data(), pb_.v2.data(), pb_.v3.data()},
         pb_.restAngle.data(),
         pb_.restLength.data(),
         pb_.restArea.data(),
         ctx_.lambdaBend.data(),
         c_.bendK(),
         c_.bendAlpha(),
         true,
         tuning::kMaxBendMove};
  (c_.xpbd ? sa_.alphaEach : sa_.kEach) = c_.stretchEach;
  if (!c_.isometric) (c_.xpbd ? ba_.alphaEach : ba_.kEach) = c_.bendEach;
  if (c_.xpbd) {
    sa_.alphaScale = c_.stretchScale;
    ba_.alphaScale = c_.bendScale;
  }
}

// The plan's stages that have work in this sub-step, in order.
void Projection::chooseStages() {
  const StepContext& ctx = ctx_;
  auto hasWork = [&](Stage stage) {
    switch (stage) {
      case Stage::CoarseLevels:
        return !ctx.hierarchy.empty();
      case Stage::Stretch:
        return !ps_.a.empty();
      case Stage::Bend:
        return !pb_.v0.empty();
      case Stage::IsometricBend:
        return !cloth_.isoBend.empty();
      case Stage::Ropes:
        return !cloth_.ropes.empty();
      case Stage::Seams:
        return !cloth_.seams.empty();
      case Stage::Tethers:
        return !ctx.tethers.empty();
      case Stage::ColliderFeatures:
        return !ctx.colliders.features.empty();
      case Stage::FoldLimits:
        return !ctx.foldLimits.active.empty();
      case Stage::SelfContacts:
        return !ctx.self.contacts.empty();
      case Stage::Crossings:
        return !world_.solver.crossings.crossings.empty();
      case Stage::ColliderContacts:
        return !ctx.colliders.contacts.empty();
      default:
        return true;
    }
  };
  stageCount_ = 0;
  for (std::size_t k = 0; k < plan_.stageCount; ++k)
    if (hasWork(plan_.stages[k])) stages_[stageCount_++] = plan_.stages[k];
  // The hand pulls before each sweep of the stretch constraints, by at most
  // 2 / (s + 1) of its step each: an iteration of s sweeps may pull the
  // patch 2s / (s + 1) steps, which follows a drag as closely as one pull
  // of a whole step an iteration without overstretching the edges it pulls
  // (docs/tuning.md). Without the stage it pulls once an iteration, a whole
  // step.
  const bool sweptHand = std::find(stages_.begin(), stages_.begin() + stageCount_,
                                   Stage::Stretch) != stages_.begin() + stageCount_;
  handShare_ = sweptHand ? 2.0f / float(c_.stretchSweeps + 1) : 1.0f;
}

// Chebyshev: ω of each iteration, and the two iterates before.
void Projection::setUpChebyshev() {
  if (!(c_.chebyshev > 0.0f)) return;
  std::vector<float>& omega = ctx_.chebyshevOmega;
  omega.resize(std::size_t(c_.iterations));
  for (int it = 0; it < c_.iterations; ++it)
    omega[std::size_t(it)] =
        chebyshevOmega(it, c_.chebyshev, it > 0 ? omega[std::size_t(it) - 1] : 1.0f);
  ctx_.chebyshevOlder.resize(ctx_.solvePoints.size());
  ctx_.chebyshevLast.resize(ctx_.solvePoints.size());
  // XPBD: the multipliers' history, stretch then bending.
  const std::size_t values = c_.xpbd ? ctx_.lambdaStretch.size() + ctx_.lambdaBend.size() : 0;
  ctx_.chebyshevLambdaOlder.resize(values);
  ctx_.chebyshevLambdaLast.resize(values);
}

// XPBD: the Newton step after the iterations (newton_step.hpp), then the
// contacts once more, so that they keep the last word. Not where the
// edges are infinitely soft (k_stretch 0): the hinges' linearisation then
// holds nothing in place.
void Projection::setUpNewton() {
  newton_ = plan_.newton && !ps_.a.empty();
  if (!newton_) return;
  NewtonPreconditioner& factor = world_.solver.newton;
  if (factor.topology != cloth_.topologyVersion || factor.pins != world_.pinsVersion) {
    factor.ready = false;
    factor.topology = cloth_.topologyVersion;
    factor.pins = world_.pinsVersion;
  }
  // Made again in the first sub-step of a frame whose plan says so.
  refreshFactor_ = plan_.refreshNewtonFactor && factor.frame != world_.frame;
  if (refreshFactor_) factor.frame = world_.frame;
  ctx_.newton.predicted.resize(ctx_.solvePoints.size());
}

void Projection::stretch(int t) {
  for (int sweep = 0; sweep < c_.stretchSweeps; ++sweep) {
    // The hand keeps its word against each sweep, as against each
    // iteration without sweeps.
    if (sweep > 0 && world_.grab.soft)
      alone(t, [&] { pullGrabPatch(points_, world_.grab, handShare_); });
    packed(
        ps_.blocks, ps_.colourStart, ps_.serialColour, t,
        [&](std::size_t b, std::size_t e, bool serial) { batch::stretchRange(sa_, b, e, serial); });
  }
}

void Projection::selfContacts(int t) {
  std::vector<SelfContact>& contacts = ctx_.self.contacts;
  const float thickness = ctx_.self.thickness;
  if (!lanes_) {
    solveSelfContacts(points_, contacts.data(), contacts.size(), thickness);
    return;
  }
  // By blocks of vertices, side by side, then those across blocks.
  const std::vector<std::uint32_t>& start = ctx_.selfBlocks.start;
  for (std::size_t g = std::size_t(t); g < kSelfBlocks; g += std::size_t(n_))
    solveSelfContacts(points_, contacts.data() + start[g], start[g + 1] - start[g], thickness);
  sync();
  alone(t, [&] {
    solveSelfContacts(points_, contacts.data() + start[kSelfBlocks],
                      start[kSelfBlocks + 1] - start[kSelfBlocks], thickness);
  });
}

void Projection::chebyshev(int t, int iteration) {
  // One point or multiplier each: any split gives the same result.
  const float w = ctx_.chebyshevOmega[std::size_t(iteration)];
  std::size_t b, e;
  batch::share(0, ctx_.solvePoints.size(), t, n_, b, e);
  chebyshevRange(ctx_.solvePoints.data(), ctx_.chebyshevOlder.data(), ctx_.chebyshevLast.data(), b,
                 e, w);
  if (c_.xpbd) {
    const std::size_t stretches = ctx_.lambdaStretch.size();
    batch::share(0, stretches, t, n_, b, e);
    chebyshevValues(ctx_.lambdaStretch.data(), ctx_.chebyshevLambdaOlder.data(),
                    ctx_.chebyshevLambdaLast.data(), b, e, w);
    batch::share(0, ctx_.lambdaBend.size(), t, n_, b, e);
    chebyshevValues(ctx_.lambdaBend.data(), ctx_.chebyshevLambdaOlder.data() + stretches,
                    ctx_.chebyshevLambdaLast.data() + stretches, b, e, w);
  }
  sync();
}

void Projection::runStage(Stage stage, int t, int iteration) {
  const Params& prm = world_.params;
  StepContext& ctx = ctx_;
  switch (stage) {
    case Stage::Pressure:
      return alone(
          t, [&] { onState([&] { solveBalloon(s_, cloth_, prm, ctx.tets, ctx.pressureGrad); }); });
    case Stage::Hand:
      return alone(t, [&] { pullGrabPatch(points_, world_.grab, handShare_); });
    case Stage::CoarseLevels:
      return solveHierarchy(points_, ctx.hierarchy, c_.kLimits, t, n_, &team_);
    case Stage::Stretch:
      return stretch(t);
    case Stage::Bend:
      return packed(
          pb_.blocks, pb_.colourStart, pb_.serialColour, t,
          [&](std::size_t b, std::size_t e, bool serial) { batch::bendRange(ba_, b, e, serial); });
    case Stage::IsometricBend:
      return alone(t, [&] {
        solveIsoBend(points_, cloth_.isoBend.data(), cloth_.isoBend.size(), c_,
                     ctx.lambdaBend.data());
      });
    case Stage::Ropes:
      return alone(t, [&] {
        if (iteration == 0) resetRopes(cloth_, ctx.ropes);
        solveRopes(points_, cloth_, ropeCompliance(prm.k_stretch, prm.k_bend, c_.h), ctx.ropes);
      });
    case Stage::Seams:
      // Few, in order on one thread: the same bits on any thread count.
      return alone(t, [&] {
        solveSeams(points_, cloth_.seams.data(), cloth_.seams.size(), world_.time + double(c_.h),
                   prm.seam_close_time, tuning::kSeamMaxMove * cloth_.meanRestEdge());
      });
    case Stage::Chebyshev:
      return chebyshev(t, iteration);
    case Stage::Tethers: {
      // Each tether moves only its own free vertex, towards a pin that
      // does not move: any split gives the same result.
      std::size_t b, e;
      batch::share(0, ctx.tethers.size(), t, n_, b, e);
      batch::tetherRange(ta_, b, e);
      return sync();
    }
    case Stage::Attachments:
      return alone(t, [&] {
        onState([&] { solveBodyAttachments(s_, world_.bodies, world_.attachments); });
      });
    case Stage::ColliderFeatures:
      return alone(t, [&] {
        solveFeatureContacts(points_, s_.x.data(), ctx.colliders.features.data(),
                             ctx.colliders.features.size(), prm.friction);
      });
    case Stage::FoldLimits:
      return alone(t, [&] {
        solveFoldLimits(points_, cloth_, ctx.foldLimits.active.data(),
                        ctx.foldLimits.active.size());
      });
    case Stage::SelfContacts:
      return selfContacts(t);
    case Stage::Crossings:
      return alone(t, [&] {
        solveCrossings(points_, world_.solver.crossings.crossings, plan_.selfThickness);
      });
    case Stage::ColliderContacts: {
      // One vertex each, in each thread's run of vertices: the same
      // result as in one pass.
      const std::size_t b = ctx.contactSplit[std::size_t(t)];
      const std::size_t e = ctx.contactSplit[std::size_t(t) + 1];
      solveContacts(points_, s_.x.data(), ctx.colliders.contacts.data() + b, e - b, prm.friction);
      return sync();
    }
  }
}

// The iterations, and the Newton step after them, on each thread.
void Projection::iterate(int t) {
  for (int it = 0; it < plan_.iterations; ++it)
    for (std::size_t k = 0; k < stageCount_; ++k) runStage(stages_[k], t, it);
  if (!newton_) return;
  alone(t, [&] {
    newtonStep(points_, ps_, pb_, c_, ctx_.lambdaStretch.data(), ctx_.lambdaBend.data(),
               plan_.newtonCg, tuning::kNewtonTolerance, refreshFactor_, ctx_.newton,
               world_.solver.newton);
  });
  for (std::size_t k = 0; k < stageCount_; ++k)
    if (stages_[k] >= Stage::ColliderFeatures) runStage(stages_[k], t, plan_.iterations - 1);
}

void Projection::job(int t) {
  if (!buffered_) return iterate(t);
  // Each thread its share of the buffer, the multipliers and the copies
  // of the predicted positions; each point on its own.
  std::vector<glm::vec4>& buffer = ctx_.solvePoints;
  std::size_t b, e;
  batch::share(0, buffer.size(), t, n_, b, e);
  batch::toSolveBuffer(p3_ + 3 * b, s_.w.data() + b, p_ + 4 * b, e - b, origin_);
  if (newton_)
    std::copy(buffer.begin() + std::ptrdiff_t(b), buffer.begin() + std::ptrdiff_t(e),
              ctx_.newton.predicted.begin() + std::ptrdiff_t(b));
  for (std::vector<float>* lambda : {&ctx_.lambdaStretch, &ctx_.lambdaBend}) {
    std::size_t lb, le;
    batch::share(0, lambda->size(), t, n_, lb, le);
    std::fill(lambda->begin() + std::ptrdiff_t(lb), lambda->begin() + std::ptrdiff_t(le), 0.0f);
  }
  sync();
  iterate(t);
  // Every stage ends at a barrier: the buffer is whole.
  batch::fromSolveBuffer(p_ + 4 * b, p3_ + 3 * b, e - b, origin_);
}

void Projection::run() {
  setUpPoints();
  chooseStages();
  if (lanes_ && !ctx_.self.contacts.empty())
    partitionSelfContacts(ctx_.self.contacts, s_.x.size(), ctx_.selfBlocks);
  // Each thread's share of the collider contacts, split where the vertex
  // changes (they come in vertex order).
  const std::vector<Contact>& contacts = ctx_.colliders.contacts;
  std::vector<std::size_t>& split = ctx_.contactSplit;
  split.resize(std::size_t(n_) + 1);
  for (int t = 0; t <= n_; ++t) {
    std::size_t k = contacts.size() * std::size_t(t) / std::size_t(n_);
    while (k > 0 && k < contacts.size() && contacts[k].vertex == contacts[k - 1].vertex) ++k;
    split[std::size_t(t)] = k;
  }
  setUpChebyshev();
  setUpNewton();
  if (lanes_)
    team_.run(
        [&](int t) { job(t); });  // on one thread too: the team judges whether the machine is busy
  else
    job(0);
}

}  // namespace

void projectConstraints(World& world, StepContext& context, const StepPlan& plan,
                        const Coefficients& c) {
  Projection(world, context, plan, c).run();
}

}  // namespace drape::sim
