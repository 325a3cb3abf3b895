#pragma once
// The one parameter table. `Params` holds every tunable value with
// its default; `paramTable()` describes each one (name, range, unit, help) and
// is what the UI panel, `--set KEY=VALUE` and scene files all read. A parameter
// exists once, under one name.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "sim/result.hpp"

namespace drape::sim {

enum class SolverKind : std::uint8_t { Pbd, Xpbd, MassSpring };
enum class BalloonModel : std::uint8_t { Pressure, Tets };
enum class BendingModel : std::uint8_t { Dihedral, Isometric };
enum class KernelKind : std::uint8_t { Batched, Reference };

struct Params {
  // Time stepping.
  float dt = 1.0f / 60.0f;  // s, one frame of simulation
  // Sub-steps per frame, of one iteration each by default: small steps
  // (Macklin et al. 2019) converge per unit of work and lose the least
  // energy to the integrator.
  int substeps = 8;
  // While the cloth is known to pass through itself, frames take up to this
  // many times `substeps` (step.cpp); 1 keeps `substeps` as set.
  int crossing_substeps = 4;
  int iterations = 1;  // solver iterations per sub-step (n_s)
  // Gauss-Seidel sweeps of the stretch constraints in each iteration: the
  // stiffest constraints and the cheapest to project.
  int stretch_sweeps = 4;
  SolverKind solver = SolverKind::Xpbd;
  BendingModel bending = BendingModel::Dihedral;
  // batched: constraints coloured, projected in SIMD lanes and threads;
  // reference: plain Gauss-Seidel in mesh order, one constraint at a time.
  KernelKind kernels = KernelKind::Batched;
  int threads = 0;  // solver threads, 0 = one per core

  // Material: stiffnesses in [0, 1], 0 none, 1 rigid. XPBD reads them as a
  // stretch modulus and a bending stiffness (material.hpp); PBD as its k
  // (Müller et al. 2007 §3.3).
  float k_stretch = 1.0f;
  float k_bend = 0.06f;     // cotton: D ≈ 9e-6 N·m
  float k_pressure = 1.0f;  // target volume / rest volume for closed meshes
  // Share of each piece's non-rigid motion taken out per second (Müller et
  // al. 2007 §3.5, applied once a frame); mass-spring: the springs' damping ratio.
  float damping = 0.1f;
  // Long-range attachments to the pins (0/1); the coarse levels below carry
  // the pins' load better, and tethers pulling only the free vertex fight them.
  int tethers = 0;
  // Hierarchical PBD (Müller 2008): coarse levels that carry stretch across
  // the cloth in a few sweeps; 0 = off.
  int levels = 4;
  // Chebyshev semi-iterative acceleration (Wang 2015): the estimated
  // spectral radius ρ of one iteration; 0 = off.
  float chebyshev = 0.9f;
  // solver=xpbd with dihedral bending: at most this many conjugate-gradient
  // iterations of the Newton step that follows the sweeps where bending is
  // stiff for the sub-step (newton_step.hpp); 0 = off.
  int newton_cg = 100;
  // Closed meshes: one global overpressure constraint (paper §4.4), or one
  // volume constraint per surface triangle and an interior point.
  BalloonModel balloon_model = BalloonModel::Pressure;
  // solver=mass-spring: spring constant of a k_stretch = 1 edge; shear and
  // bend springs scale it by k_bend.
  float spring_stiffness = 2000.0f;  // N/m
  // solver=mass-spring: take at least the sub-steps its stability needs.
  int stable_substeps = 1;
  float density = 0.1f;  // kg/m², surface density of the cloth
  // Tearing (paper §5.4): an edge stretched beyond tear × its rest length
  // splits one of its vertices after the frame's solve; 0 = no tearing.
  float tear = 0.0f;
  // Seams (solve/seams.hpp): the time over which a seam's rest length
  // shrinks from its ends' distance at rest to 0, after which it holds.
  float seam_close_time = 0.75f;  // s

  // Environment.
  glm::vec3 gravity{0.0f, -9.81f, 0.0f};  // m/s²
  float friction = 0.4f;                  // Coulomb coefficient at colliders
  float restitution = 0.0f;               // normal bounce at colliders
  float thickness = 0.01f;  // m, distance kept from collider surfaces and between layers
  int self_collision = 0;   // vertex–triangle self collision (paper §4.3), 0/1
  // Air (aerodynamics.hpp): wind velocity, and drag and lift coefficients of
  // each triangle against the air moving past it, still air too.
  glm::vec3 wind{0.0f};  // m/s
  float drag = 1.0f;
  float lift = 0.5f;

  // Scene construction (changing these rebuilds the scene).
  int resolution = 48;  // vertices along each side of grid cloths
};

// Switch: an int that is 0 or 1 (a checkbox in the panel), set with 1/0,
// true/false, on/off or yes/no.
enum class ParamType : std::uint8_t { Float, Int, Switch, Enum, Vec3 };

struct ParamDesc {
  const char* name;   // the one name: UI label, --set key, scene-file key
  const char* group;  // "time", "solver", "material", "environment", "scene"
  ParamType type;
  double min, max;   // inclusive range (for Vec3: of each component)
  const char* unit;  // "" when dimensionless
  const char* help;
  bool logScale;                     // UI slider on a logarithmic scale
  bool rebuild;                      // changing it rebuilds the scene
  std::vector<const char*> choices;  // Enum: the names, index = value

  // Access (numbers as double; Enum as its index; Vec3 through vec).
  std::function<double(const Params&)> get;
  std::function<void(Params&, double)> set;
  std::function<glm::vec3(const Params&)> getVec;
  std::function<void(Params&, glm::vec3)> setVec;
};

const std::vector<ParamDesc>& paramTable();

bool isSwitch(const ParamDesc& desc);  // type Switch
const ParamDesc* findParam(const std::string& name);

// One parameter's value, typed (a scene file's "params" entry).
struct ParamSetting {
  const ParamDesc* desc = nullptr;
  double value = 0.0;   // Float, Int, Switch (0 or 1), Enum (the choice's index)
  glm::vec3 vec{0.0f};  // Vec3
};
// The setting checked against its parameter's type and range, then stored;
// the refusal names the range.
Result<void> applySetting(Params& params, const ParamSetting& setting);
// The index of an Enum parameter's choice `name`; −1 when it has none so named.
int choiceIndex(const ParamDesc& desc, const std::string& name);
// The parameter's value in `params` as a setting.
ParamSetting settingOf(const Params& params, const ParamDesc& desc);

// "KEY=VALUE" or (key, value) text as the user typed it. Checks type and range
// and names the key and the allowed range when it refuses.
Result<void> setParam(Params& params, const std::string& key, const std::string& value);
Result<void> setParamAssignment(Params& params, const std::string& assignment);
std::string formatParam(const Params& params, const ParamDesc& desc);
// Whether going from `before` to `after` changes a parameter that rebuilds
// the scene (resolution, density, ...).
bool needsRebuild(const Params& before, const Params& after);
std::string describeRange(const ParamDesc& desc);

// Strict number parsing: the whole text (spaces around it aside) must be a
// finite number.
bool parseNumber(const std::string& text, double& out);

// XPBD compliance from a PBD stiffness k ∈ [0,1]: α = (1/k − 1)·unit
// (k = 1: rigid, α = 0; k → 0: α → ∞). `unit` carries the constraint's units.
float complianceFromStiffness(float k, float unit);
inline constexpr float kBendComplianceUnit =
    0.5f;  // XPBD's isometric bending (dihedral: material.hpp)

// The name of an Enum parameter's value in `params` ("solver" → "xpbd").
const char* choiceName(const Params& params, const char* name);

}  // namespace drape::sim
