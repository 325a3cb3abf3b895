#pragma once
// A simulated world: the cloth's rest data, its per-step state, pins,
// colliders, the parameters and the solver's named state. The step
// (step/step.hpp) advances it.

#include <cstdint>
#include <memory>
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth.hpp"
#include "sim/collision/colliders.hpp"
#include "sim/models/mass_spring.hpp"
#include "sim/models/rigid_body.hpp"
#include "sim/params.hpp"
#include "sim/self/self_collision.hpp"
#include "sim/self/untangle.hpp"
#include "sim/solve/newton_step.hpp"
#include "sim/state.hpp"
#include "sim/tuning.hpp"

namespace drape::sim {

class ThreadTeam;

// Attachment (paper §3.6): the vertex has w = 0 and follows its target
// `motion.apply(anchor, t − start)`; a static pin has a static motion.
struct Pin {
  std::uint32_t vertex;
  glm::vec3 anchor;
  Motion motion;
  double start = 0.0;  // world time at which the motion starts
  glm::vec3 targetAt(double t) const { return motion.apply(anchor, t - start); }
};

// Timings of the last step, in milliseconds, by phase. selfCollision is the
// detection of self contacts (their projection counts in solve; its hash is
// built beside the collider contacts, and its time counted here, not in
// collisions); tear is the search for overstretched edges and the splits.
struct StepTimings {
  double predict = 0, collisions = 0, selfCollision = 0, solve = 0, update = 0, tear = 0, total = 0;
};

// What the last step did, for the Stats panel, --stats and the benchmarks.
struct StepStats {
  StepTimings timings;
  // Sub-steps taken: more than asked where the mass-spring solver's
  // stability needs them, or crossings are known (crossingFactor times).
  int substeps = 0, crossingFactor = 1;
  // Self collision over the step's sub-steps: vertex–triangle constraints
  // projected, and how many of them pushed, each summed over the sub-steps;
  // the searches that found them (one a sub-step, or one a frame where the
  // cloth is calm: StepPlan::selfSpan); the distance they keep (less than the
  // thickness on a fine mesh: selfThickness()).
  std::size_t selfContacts = 0, selfContactsActive = 0;
  int selfSearches = 0;
  float selfThickness = 0.0f;
  // Self collision is on but off for this mesh: too dense to search in time
  // linear in its size (thousands of triangles over one point, as at the
  // hub of a fan).
  bool selfCollisionTooDense = false;
  // Edges through triangles in the rest shape, left as they are
  // (rest_crossings.hpp), and the pairs of pieces they join.
  std::size_t restCrossings = 0, restCrossedPairs = 0;
  std::size_t tethers = 0;  // long-range attachments to the pins
};

// What earlier steps decided that changes what later steps do: named
// state, copied with the world so that a copy steps bit for bit. The rules
// that read and change it are the step's plan (step/plan.hpp).
struct SolverState {
  // The cloth's crossings of itself as of the frame's start, and what the
  // searches for them have learnt (self/untangle.hpp).
  CrossingState crossings;
  // While crossings are known, frames take crossingFactor times the
  // scene's sub-steps: the frames since the last that started with
  // crossings, and since a search last found one not known before.
  int crossingFactor = 1, framesUncrossed = 0, framesWithoutFresh = 0;
  // The self-contact search's calm, cone-walk rest and too-dense mesh
  // (self/self_collision.hpp).
  SelfSearchState self;
  // The explicit springs' stability limit (models/mass_spring.hpp).
  StableStepEstimate massSpring;
  // XPBD's Newton step's coarse factor (solve/newton_step.hpp).
  NewtonPreconditioner newton;
};

struct StepContext;  // step/context.hpp

// The step's own buffers and what it derives from the world
// (step/context.hpp), made by the first step and again whenever missing.
// Not copied (as Jolt's SoftBodyUpdateContext, it is no part of the world's
// value): a copy of a world starts without one, and its first step derives
// the same again; a world assigned another's value keeps its own, whose
// derived data is made again where the versions it was made for differ.
class ContextSlot {
 public:
  ContextSlot() = default;
  ContextSlot(const ContextSlot&) noexcept {}
  ContextSlot& operator=(const ContextSlot&) noexcept { return *this; }
  ContextSlot(ContextSlot&&) noexcept = default;
  ContextSlot& operator=(ContextSlot&&) noexcept = default;
  ~ContextSlot() = default;
  StepContext* get() const { return context_.get(); }
  // Owns `context` from now on, to be freed by `destroy`.
  void reset(StepContext* context = nullptr, void (*destroy)(StepContext*) = nullptr) {
    context_ = Owned(context, destroy ? destroy : &keep);
  }

 private:
  static void keep(StepContext*) {}
  using Owned = std::unique_ptr<StepContext, void (*)(StepContext*)>;
  Owned context_{nullptr, &keep};
};

struct Grab {
  bool active = false;
  std::uint32_t vertex = 0;
  glm::vec3 target{0.0f};  // where the hand is now
  // Where the hand was at the start of the frame, and where it is at the
  // end of the sub-step being solved: the hand moves from `from` to
  // `target` in even steps over the frame's sub-steps, so that a held
  // vertex moves (and is let go) at the hand's speed in every sub-step.
  glm::vec3 from{0.0f};
  glm::vec3 at{0.0f};
  // A tearing grab (the Tear tool): while held, edges tear above this
  // stretch ratio even when params.tear is 0 (off). 0: an ordinary grab.
  float tear = 0.0f;
  bool soft = false;
  std::vector<std::uint32_t> patch;  // soft: the vertices pulled, the grabbed one first
  std::vector<glm::vec3> offset;     // from the grabbed vertex, at the start
  std::vector<float> weight;
  float step = 0.0f;  // m a patch vertex moves at most per iteration
};

struct World {
  Params params;
  Cloth cloth;
  State state;
  std::vector<Pin> pins;
  std::uint64_t pinsVersion = 0;  // set anew (nextVersion()) whenever pins change
  Grab grab;
  std::vector<Collider> colliders;
  // Rigid bodies and the cloth vertices tied to them (rigid_body.hpp); each
  // body moves the box collider that shows it.
  std::vector<RigidBody> bodies;
  std::vector<BodyAttachment> attachments;
  double time = 0.0;            // s
  std::uint64_t frame = 0;      // frames stepped
  StepStats stats;              // of the last step
  std::uint64_t tornEdges = 0;  // edges split apart by tearing so far (paper §5.4)
  SolverState solver;           // named state the step's plan reads and changes
  // The threads the step runs on: a team handed in (setSolverTeam; copies
  // share it), or null for the process's (threadTeam()).
  ThreadTeam* team = nullptr;
  ContextSlot context;  // not copied

  std::size_t vertexCount() const { return state.x.size(); }
};

// A world at rest from a cloth: x = rest positions, v = 0, w = 1/m.
World makeWorld(Cloth cloth, const Params& params);

// Inverse masses from the cloth's masses, then w = 0 for every pinned vertex.
void refreshInverseMasses(World& world);

// Grab a vertex, move the hand, let go (see Grab). A hard grab's vertex
// stops responding to forces and leaves with `velocity`; grabbing a pinned
// vertex moves the pin's anchor. `tear` > 0: a tearing grab (Grab::tear).
void startGrab(World& world, std::uint32_t vertex, float tear = 0.0f);
void moveGrab(World& world, const glm::vec3& target);
void endGrab(World& world, const glm::vec3& velocity);
// One soft-grab pull of the patch towards the hand, each vertex by at most
// `share` of grab.step (a solver iteration's pull is split among the
// sweeps of its stretch constraints).
void pullGrabPatch(const Points& points, const Grab& grab, float share);

// Add a body to the world with a box collider that shows it; returns its index.
std::uint32_t addBody(World& world, const RigidBody& body);
// Tie `vertex` to `body` at the point of the body where the vertex is now.
void attachToBody(World& world, std::uint32_t vertex, std::uint32_t body);

// Pin a vertex where it is now (static); replaces an existing pin on it.
void pinVertex(World& world, std::uint32_t vertex, const Motion& motion = {});
void unpinVertex(World& world, std::uint32_t vertex);
// Remove every pin (linear in the pins).
void unpinAll(World& world);
bool isPinned(const World& world, std::uint32_t vertex);

// The threads of the solver's team for a cloth of `constraints` stretch and
// bending constraints, `requested` the threads parameter (0: one per core):
// below about 6,000 constraints each, the barriers between colours cost more
// than the work shared. Whatever shares the team in a step asks with the
// same count, so the team is not remade.
int solverThreads(int requested, std::size_t constraints);
// The team every parallel part of a world's step runs on, asked for
// solverThreads(): the one handed to the world (setSolverTeam), or else
// the process's (threadTeam()). Handing a team in is how a caller with its
// own threads (as Box2D's enqueueTask) keeps the solver on them.
ThreadTeam& solverTeam(const World& world);
// Hand `team` to the world's solver (null: the process's team again). The
// team must outlive the world's steps; copies of the world share it.
void setSolverTeam(World& world, ThreadTeam* team);

}  // namespace drape::sim
