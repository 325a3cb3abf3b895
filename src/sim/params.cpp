#include "sim/params.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "sim/fabrics.hpp"

namespace drape::sim {
namespace {

// How a parameter acts, beside its type.
enum Flags : unsigned {
  kLive = 0,     // applied at the next step
  kLog = 1,      // its slider is logarithmic
  kRebuild = 2,  // changing it rebuilds the scene
};

// One builder per type: the table below is then one line per parameter.
ParamDesc real(const char* name, const char* group, float Params::*field, double lo, double hi,
               const char* unit, const char* help, unsigned flags = kLive) {
  return {name,
          group,
          ParamType::Float,
          lo,
          hi,
          unit,
          help,
          (flags & kLog) != 0,
          (flags & kRebuild) != 0,
          {},
          [field](const Params& p) { return double(p.*field); },
          [field](Params& p, double v) { p.*field = float(v); },
          nullptr,
          nullptr};
}

ParamDesc integer(const char* name, const char* group, int Params::*field, double lo, double hi,
                  const char* help, unsigned flags = kLive) {
  return {name,
          group,
          ParamType::Int,
          lo,
          hi,
          "",
          help,
          false,
          (flags & kRebuild) != 0,
          {},
          [field](const Params& p) { return double(p.*field); },
          [field](Params& p, double v) { p.*field = int(v); },
          nullptr,
          nullptr};
}

ParamDesc toggle(const char* name, const char* group, int Params::*field, const char* help) {
  ParamDesc d = integer(name, group, field, 0, 1, help);
  d.type = ParamType::Switch;
  return d;
}

template <class E>
ParamDesc choice(const char* name, const char* group, E Params::*field,
                 std::vector<const char*> names, const char* help) {
  const double last = double(names.size()) - 1.0;
  return {name,
          group,
          ParamType::Enum,
          0,
          last,
          "",
          help,
          false,
          false,
          std::move(names),
          [field](const Params& p) { return double(int(p.*field)); },
          [field](Params& p, double v) { p.*field = E(int(v)); },
          nullptr,
          nullptr};
}

ParamDesc vector3(const char* name, const char* group, glm::vec3 Params::*field, double lo,
                  double hi, const char* unit, const char* help) {
  return {name,
          group,
          ParamType::Vec3,
          lo,
          hi,
          unit,
          help,
          false,
          false,
          {},
          nullptr,
          nullptr,
          [field](const Params& p) { return p.*field; },
          [field](Params& p, glm::vec3 v) { p.*field = v; }};
}

// A fabric preset (fabrics.hpp): setting one applies its stretch, bending,
// density and friction; reading gives the preset the values are, or custom.
ParamDesc material() {
  std::vector<const char*> names{"custom"};
  for (const Fabric& f : fabrics()) names.push_back(f.name);
  const double last = double(names.size()) - 1.0;
  return {"material",
          "material",
          ParamType::Enum,
          0,
          last,
          "",
          "a fabric preset: sets k_stretch, k_bend, density and friction from measured values "
          "(silk, cotton, denim: KES-F; leather and rubber: plates of their modulus and "
          "thickness); settings after it override; custom: any other values (rebuilds)",
          false,
          true,
          std::move(names),
          [](const Params& p) {
            const std::vector<Fabric>& all = fabrics();
            for (std::size_t i = 0; i < all.size(); ++i)
              if (p.k_stretch == all[i].kStretch && p.k_bend == all[i].kBend &&
                  p.density == all[i].density && p.friction == all[i].friction)
                return double(i + 1);
            return 0.0;
          },
          [](Params& p, double v) {
            const int i = int(v) - 1;
            if (i < 0 || i >= int(fabrics().size())) return;
            const Fabric& f = fabrics()[std::size_t(i)];
            p.k_stretch = f.kStretch;
            p.k_bend = f.kBend;
            p.density = f.density;
            p.friction = f.friction;
          },
          nullptr,
          nullptr};
}

// clang-format off
const std::vector<ParamDesc> kTable = {
    real("dt", "time", &Params::dt, 1e-4, 0.25, "s", "time step of one frame", kLog),
    integer("substeps", "time", &Params::substeps, 1, 100, "sub-steps per frame, each of dt/substeps: smaller steps converge further and lose less energy to the integrator"),
    integer("crossing_substeps", "time", &Params::crossing_substeps, 1, 8, "with self collision: while the cloth is found passing through itself, frames take up to this many times the sub-steps, so that it comes apart (the panel and --stats show the sub-steps taken); 1 = off"),
    integer("iterations", "time", &Params::iterations, 1, 200, "solver iterations per sub-step"),
    integer("stretch_sweeps", "solver", &Params::stretch_sweeps, 1, 16, "sweeps of the stretch constraints in each iteration (PBD, XPBD): the cheapest way to a cloth that stretches less; k_stretch keeps its meaning. One for balloons and while tearing"),
    choice("solver", "solver", &Params::solver, {"pbd", "xpbd", "mass-spring"}, "XPBD (Macklin et al. 2016): the material k_stretch and k_bend describe, the same on any mesh and budget; PBD with the paper's stiffness k' = 1 − (1 − k)^(1/n) (§3.3); or the explicit mass-spring cloth (it takes the sub-steps its stability needs)"),
    choice("kernels", "solver", &Params::kernels, {"batched", "reference"}, "constraints coloured and projected in SIMD lanes and threads, or plain Gauss-Seidel in mesh order"),
    integer("threads", "solver", &Params::threads, 0, 64, "solver threads; 0 = one per core"),
    integer("levels", "solver", &Params::levels, 0, 8, "coarse levels (hierarchical PBD, Müller 2008) that carry a load across the cloth in a few sweeps, so a fine cloth stretches no more than a coarse one; 0 = off. Off for balloons, while tearing, and for mass-spring"),
    real("chebyshev", "solver", &Params::chebyshev, 0, 0.99, "", "Chebyshev acceleration of the iterations (Wang 2015): the estimated spectral radius of one iteration; 0 = off, too high oscillates"),
    integer("newton_cg", "solver", &Params::newton_cg, 0, 200, "XPBD with dihedral bending: at most this many conjugate-gradient iterations of the Newton step that follows the sweeps where bending is too stiff for them to carry across the mesh (it stops when the residual falls a thousandfold, and within a work budget per frame: a very large mesh goes without); 0 = off"),
    toggle("stable_substeps", "solver", &Params::stable_substeps, "mass-spring: take at least the sub-steps its stability needs (the panel and --stats show the sub-steps taken); off keeps substeps as set, and a step too long explodes"),
    choice("bending", "material", &Params::bending, {"dihedral", "isometric"}, "signed dihedral angle per edge, or isometric (Bergou 2006)"),
    material(),
    real("k_stretch", "material", &Params::k_stretch, 0, 1, "", "stretch stiffness, 0 none, 1 rigid. XPBD: a membrane of modulus Y = 10⁴ (k/(1 − k))² N/m over the cloth's area; PBD: n iterations leave 1 − k of the error (paper §3.3); mass-spring: × spring_stiffness"),
    real("k_bend", "material", &Params::k_bend, 0, 1, "", "bending stiffness, 0 none, 1 rigid. XPBD: D = 0.03 (k/(1 − k))³ N·m (at most 100 N·m) over the cloth's hinges (discrete shells); `material` sets it from a fabric's measured D (isometric bending: compliance (1/k − 1) × 0.5); PBD: as k_stretch; mass-spring: × spring_stiffness"),
    real("k_pressure", "material", &Params::k_pressure, 0.05, 10, "", "target volume / rest volume of a closed mesh"),
    real("damping", "material", &Params::damping, 0, 1, "", "PBD, XPBD: share of each piece's non-rigid motion taken out per second, 1 moves it rigidly; mass-spring: each spring's damping ratio (1 = critical)"),
    toggle("tethers", "material", &Params::tethers, "long-range attachments: no vertex gets further from its nearest pin than along the cloth, times (2 − k_stretch)"),
    choice("balloon_model", "material", &Params::balloon_model, {"pressure", "tets"}, "closed meshes: one global overpressure constraint, or one volume constraint per surface triangle and an interior point"),
    real("spring_stiffness", "material", &Params::spring_stiffness, 1, 1e6, "N/m", "mass-spring: spring constant of an edge at k_stretch 1; shear/bend springs take k_bend of it", kLog),
    real("density", "material", &Params::density, 0.001, 100, "kg/m²", "surface density (rebuilds)", kLog | kRebuild),
    real("tear", "material", &Params::tear, 0, 10, "", "stretch ratio |l|/l0 above which an edge tears; 0 = off (values below 1 tear edges at rest)"),
    real("seam_close_time", "material", &Params::seam_close_time, 0, 10, "s", "seams: time over which each seam's ends are pulled together (its rest length shrinks from their distance to 0), then held; 0 = at once, each projection moving them at most a quarter of the mean edge"),
    vector3("gravity", "environment", &Params::gravity, -100, 100, "m/s²", "x,y,z, or one number for y"),
    real("friction", "environment", &Params::friction, 0, 2, "", "Coulomb friction at colliders"),
    real("restitution", "environment", &Params::restitution, 0, 1, "", "bounce at colliders"),
    real("thickness", "environment", &Params::thickness, 0, 0.1, "m", "distance kept from collider surfaces and, with self_collision, between layers (there at most 0.35 of the mean edge); a loaded mesh defaults to at least 0.35 of its mean edge"),
    toggle("self_collision", "environment", &Params::self_collision, "vertex–triangle self collision, keeping thickness apart; where the cloth has passed through itself, it is pulled back out"),
    vector3("wind", "environment", &Params::wind, -50, 50, "m/s", "the air's velocity; 0 = still air, which slows a moving cloth all the same"),
    real("drag", "environment", &Params::drag, 0, 10, "", "aerodynamic drag coefficient of each triangle against the air; drag 0 and lift 0: no air"),
    real("lift", "environment", &Params::lift, 0, 10, "", "aerodynamic lift coefficient of each triangle against the air"),
    integer("resolution", "scene", &Params::resolution, 2, 512, "vertices along each side of grid cloths (rebuilds)", kRebuild),
};
// clang-format on

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

}  // namespace

bool parseNumber(const std::string& text, double& out) {
  const std::string t = trim(text);
  // Decimal only, as the integers are read: strtod would take "0x10" as 16.
  if (t.empty() || t.find_first_of("xX") != std::string::npos) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtod(t.c_str(), &end);
  return errno == 0 && end == t.c_str() + t.size() && std::isfinite(out);
}

namespace {

std::string number(double v) {
  std::ostringstream os;
  os.precision(9);
  os << v;
  return os.str();
}

}  // namespace

const std::vector<ParamDesc>& paramTable() {
  return kTable;
}

const ParamDesc* findParam(const std::string& name) {
  for (const ParamDesc& d : kTable)
    if (name == d.name) return &d;
  return nullptr;
}

bool isSwitch(const ParamDesc& d) {
  return d.type == ParamType::Switch;
}

namespace {

// 1 or 0 for the words people type for a switch (any case), else −1.
int switchWord(std::string v) {
  for (char& c : v) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (v == "true" || v == "on" || v == "yes") return 1;
  if (v == "false" || v == "off" || v == "no") return 0;
  return -1;
}

}  // namespace

bool needsRebuild(const Params& before, const Params& after) {
  for (const ParamDesc& d : paramTable())
    if (d.rebuild && formatParam(before, d) != formatParam(after, d)) return true;
  return false;
}

std::string describeRange(const ParamDesc& d) {
  if (isSwitch(d)) return "a switch: 1/0, true/false, on/off or yes/no";
  switch (d.type) {
    case ParamType::Enum: {
      std::string s = "one of";
      for (std::size_t i = 0; i < d.choices.size(); ++i)
        s += std::string(i ? ", " : " ") + d.choices[i];
      return s;
    }
    case ParamType::Int:
      return "an integer in [" + number(d.min) + ", " + number(d.max) + "]";
    case ParamType::Switch:
      break;  // above
    case ParamType::Vec3:
      return "x,y,z (or one number for y) with each in [" + number(d.min) + ", " + number(d.max) +
             "]";
    case ParamType::Float:
      break;
  }
  return "a number in [" + number(d.min) + ", " + number(d.max) + "]" +
         (d.unit[0] ? std::string(" ") + d.unit : "");
}

int choiceIndex(const ParamDesc& desc, const std::string& name) {
  for (std::size_t i = 0; i < desc.choices.size(); ++i)
    if (name == desc.choices[i]) return int(i);
  return -1;
}

namespace {

bool settingInRange(const ParamSetting& s) {
  const ParamDesc& d = *s.desc;
  switch (d.type) {
    case ParamType::Enum:
      return s.value == std::floor(s.value) && s.value >= 0.0 && s.value < double(d.choices.size());
    case ParamType::Switch:
    case ParamType::Int:
      return s.value == std::floor(s.value) && s.value >= d.min && s.value <= d.max;
    case ParamType::Float:
      // Compared in float, the type it is stored in: a range end written
      // out and read back (1e-4 prints as 9.99999975e-05) stays in range.
      return float(s.value) >= float(d.min) && float(s.value) <= float(d.max);
    case ParamType::Vec3:
      for (int k = 0; k < 3; ++k)
        if (!(s.vec[k] >= float(d.min) && s.vec[k] <= float(d.max))) return false;
      return true;
  }
  return false;
}

}  // namespace

Result<void> applySetting(Params& params, const ParamSetting& s) {
  if (!settingInRange(s))
    return fail(std::string("bad value for ") + s.desc->name + ": expected " +
                describeRange(*s.desc));
  if (s.desc->type == ParamType::Vec3)
    s.desc->setVec(params, s.vec);
  else
    s.desc->set(params, s.value);
  return {};
}

ParamSetting settingOf(const Params& params, const ParamDesc& desc) {
  ParamSetting s{&desc};
  if (desc.type == ParamType::Vec3)
    s.vec = desc.getVec(params);
  else
    s.value = desc.get(params);
  return s;
}

Result<void> setParam(Params& params, const std::string& key, const std::string& value) {
  const ParamDesc* d = findParam(trim(key));
  if (!d) {
    std::string known;
    for (const ParamDesc& p : kTable) known += std::string(known.empty() ? "" : ", ") + p.name;
    return fail("unknown parameter '" + trim(key) + "' (known: " + known + ")");
  }
  auto refuse = [&]() {
    return fail("bad value '" + trim(value) + "' for " + d->name + ": expected " +
                describeRange(*d));
  };
  // The text as a setting, then the one check of type and range.
  ParamSetting s{d};
  bool parsed = false;
  switch (d->type) {
    case ParamType::Enum:
      s.value = double(choiceIndex(*d, trim(value)));
      parsed = s.value >= 0.0;
      break;
    case ParamType::Switch:
      if (const int word = switchWord(trim(value)); word >= 0) {
        s.value = double(word);
        parsed = true;
        break;
      }
      [[fallthrough]];  // 1 or 0
    case ParamType::Int:
    case ParamType::Float:
      parsed = parseNumber(value, s.value);
      break;
    case ParamType::Vec3: {
      std::vector<double> parts;
      std::stringstream ss(value);
      std::string item;
      parsed = value.empty() || value.back() != ',';
      while (parsed && std::getline(ss, item, ',')) {
        double v;
        parsed = parseNumber(item, v);
        parts.push_back(v);
      }
      if (parsed && parts.size() == 1)
        s.vec = glm::vec3(0.0f, float(parts[0]), 0.0f);
      else if (parsed && parts.size() == 3)
        s.vec = glm::vec3(float(parts[0]), float(parts[1]), float(parts[2]));
      else
        parsed = false;
      break;
    }
  }
  if (!parsed || !applySetting(params, s)) return refuse();
  return {};
}

Result<void> setParamAssignment(Params& params, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos) return fail("expected KEY=VALUE, got '" + assignment + "'");
  return setParam(params, assignment.substr(0, eq), assignment.substr(eq + 1));
}

std::string formatParam(const Params& params, const ParamDesc& d) {
  switch (d.type) {
    case ParamType::Enum:
      return d.choices[std::size_t(d.get(params))];
    case ParamType::Vec3: {
      const glm::vec3 v = d.getVec(params);
      return number(v.x) + "," + number(v.y) + "," + number(v.z);
    }
    case ParamType::Int:
    case ParamType::Switch:
    case ParamType::Float:
      break;
  }
  return number(d.get(params));
}

float complianceFromStiffness(float k, float unit) {
  if (k >= 1.0f) return 0.0f;
  if (k <= 0.0f) return std::numeric_limits<float>::infinity();
  return (1.0f / k - 1.0f) * unit;
}

const char* choiceName(const Params& params, const char* name) {
  const ParamDesc* d = findParam(name);
  return d && d->type == ParamType::Enum ? d->choices[std::size_t(d->get(params))] : "";
}

}  // namespace drape::sim
