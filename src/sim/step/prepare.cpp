// The one place where the step's derived data is made again: each part
// from the rest data and the fields of DerivedKey it reads, for the plans
// that use it.

#include <algorithm>

#include "sim/step/context.hpp"

namespace drape::sim {
namespace {

void destroyContext(StepContext* context) {
  delete context;
}

}  // namespace

StepContext& contextOf(World& world) {
  if (!world.context.get()) world.context.reset(new StepContext(), &destroyContext);
  return *world.context.get();
}

void prepare(StepContext& ctx, const World& world, const StepPlan& plan) {
  const Cloth& cloth = world.cloth;
  DerivedKey key;
  key.topology = cloth.topologyVersion;
  key.pins = world.pinsVersion;
  key.grabbed = world.grab.active && !world.grab.soft ? world.grab.vertex : UINT32_MAX;
  key.levels = plan.levels;
  key.coloured = world.params.kernels == KernelKind::Batched;
  key.isometric = world.params.bending == BendingModel::Isometric;

  // Long-range attachments: the pins and the topology.
  if (!plan.tethers) {
    ctx.tethers.clear();
    ctx.tethersFor = DerivedKey{};
  } else if (ctx.tethersFor.pins != key.pins || ctx.tethersFor.topology != key.topology) {
    std::vector<std::uint32_t> pinned;
    for (const Pin& pin : world.pins) pinned.push_back(pin.vertex);
    ctx.tethers = buildTethers(cloth, pinned);
    ctx.tethersFor = key;
  }
  // Coarse levels: the pins and a hard grab keep their vertices on every
  // level (their w is 0), the topology, the number of levels.
  if (ctx.hierarchyFor.pins != key.pins || ctx.hierarchyFor.topology != key.topology ||
      ctx.hierarchyFor.grabbed != key.grabbed || ctx.hierarchyFor.levels != key.levels) {
    ctx.hierarchy = buildHierarchy(cloth, world.state.w, plan.levels);
    ctx.hierarchyFor = key;
  }
  // The constraints packed for the kernels: coloured, or in the cloth's order.
  if (!plan.explicitSprings &&
      (ctx.packedFor.topology != key.topology || ctx.packedStretch.coloured != key.coloured ||
       ctx.packedStretch.size() != cloth.stretch.size() ||
       ctx.packedBend.size() != cloth.bend.size())) {
    ctx.packedStretch = packStretch(cloth.stretch, cloth.vertexCount(), key.coloured);
    ctx.packedBend = packBend(cloth.bend, cloth.vertexCount(), key.coloured);
    ctx.packedFor = key;
  }
  if (plan.explicitSprings && ctx.springs.version != key.topology)
    ctx.springs = buildSprings(cloth);
  if (plan.has(Stage::Pressure) && world.params.balloon_model == BalloonModel::Tets &&
      ctx.tets.version != key.topology)
    ctx.tets = buildTetVolumes(cloth);
  // XPBD's Newton step: its coarse space over the free vertices.
  if (plan.newton && (ctx.newtonFor.topology != key.topology || ctx.newtonFor.pins != key.pins)) {
    ctx.newton.coarse = buildNewtonCoarse(cloth, world.state.w);
    ctx.newtonFor = key;
  }
}

}  // namespace drape::sim
