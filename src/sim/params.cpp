#include "sim/params.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace drape::sim {
namespace {

// Accessors generated per field; the table below is the only list of names.
#define DRAPE_FLOAT(field)                         \
  [](const Params& p) { return double(p.field); }, \
      [](Params& p, double v) { p.field = float(v); }, nullptr, nullptr
#define DRAPE_INT(field)                                                                          \
  [](const Params& p) { return double(p.field); }, [](Params& p, double v) { p.field = int(v); }, \
      nullptr, nullptr
#define DRAPE_ENUM(field, Type)                    \
  [](const Params& p) { return double(p.field); }, \
      [](Params& p, double v) { p.field = Type(int(v)); }, nullptr, nullptr
#define DRAPE_VEC3(field)                                    \
  nullptr, nullptr, [](const Params& p) { return p.field; }, \
      [](Params& p, glm::vec3 v) { p.field = v; }

const std::vector<ParamDesc> kTable = {
    {"dt",
     "time",
     ParamType::Float,
     1e-4,
     0.25,
     "s",
     "time step of one frame",
     true,
     false,
     {},
     DRAPE_FLOAT(dt)},
    {"substeps",
     "time",
     ParamType::Int,
     1,
     100,
     "",
     "sub-steps per frame, each of dt/substeps",
     false,
     false,
     {},
     DRAPE_INT(substeps)},
    {"iterations",
     "time",
     ParamType::Int,
     1,
     200,
     "",
     "solver iterations per sub-step",
     false,
     false,
     {},
     DRAPE_INT(iterations)},
    {"solver",
     "solver",
     ParamType::Enum,
     0,
     2,
     "",
     "pbd: stiffness per iteration count (paper §3.3); xpbd: compliance, multipliers; "
     "mass-spring: explicit springs (needs small steps)",
     false,
     false,
     {"pbd", "xpbd", "mass-spring"},
     DRAPE_ENUM(solver, SolverKind)},
    {"kernels",
     "solver",
     ParamType::Enum,
     0,
     1,
     "",
     "batched: coloured constraints in SIMD lanes and threads; reference: plain Gauss-Seidel "
     "in mesh order",
     false,
     false,
     {"batched", "reference"},
     DRAPE_ENUM(kernels, KernelKind)},
    {"threads",
     "solver",
     ParamType::Int,
     0,
     64,
     "",
     "solver threads (0: one per core)",
     false,
     false,
     {},
     DRAPE_INT(threads)},
    {"bending",
     "material",
     ParamType::Enum,
     0,
     1,
     "",
     "dihedral: angle between triangle pairs; isometric: quadratic (Bergou 2006)",
     false,
     false,
     {"dihedral", "isometric"},
     DRAPE_ENUM(bending, BendingModel)},
    {"k_stretch",
     "material",
     ParamType::Float,
     0,
     1,
     "",
     "stretch stiffness of every edge",
     false,
     false,
     {},
     DRAPE_FLOAT(k_stretch)},
    {"k_bend",
     "material",
     ParamType::Float,
     0,
     1,
     "",
     "bending stiffness of every interior edge",
     false,
     false,
     {},
     DRAPE_FLOAT(k_bend)},
    {"k_pressure",
     "material",
     ParamType::Float,
     0.05,
     10,
     "",
     "overpressure of closed meshes: 1 keeps the volume, >1 inflates",
     false,
     false,
     {},
     DRAPE_FLOAT(k_pressure)},
    {"damping",
     "material",
     ParamType::Float,
     0,
     1,
     "",
     "damping of non-rigid motion per step; 1 moves each piece rigidly",
     false,
     false,
     {},
     DRAPE_FLOAT(damping)},
    {"tethers",
     "material",
     ParamType::Int,
     0,
     1,
     "",
     "long-range attachments: no vertex gets further from its nearest pin than along the "
     "cloth, times (2 - k_stretch) (0/1)",
     false,
     false,
     {},
     DRAPE_INT(tethers)},
    {"levels",
     "solver",
     ParamType::Int,
     0,
     8,
     "",
     "hierarchical PBD (Muller 2008): coarse levels whose stretch limits carry a load across "
     "the cloth in a few sweeps, each edge at most (2 - k_stretch) times its rest; 0 = off",
     false,
     false,
     {},
     DRAPE_INT(levels)},
    {"balloon_model",
     "material",
     ParamType::Enum,
     0,
     1,
     "",
     "closed meshes: pressure: one overpressure constraint; tets: one volume constraint per "
     "surface triangle and an interior point",
     false,
     false,
     {"pressure", "tets"},
     DRAPE_ENUM(balloon_model, BalloonModel)},
    {"spring_stiffness",
     "material",
     ParamType::Float,
     1,
     1e6,
     "N/m",
     "mass-spring solver: spring constant of an edge at k_stretch 1 (shear and bend springs "
     "take k_bend of it); damping is then each spring's damping ratio (1: critical)",
     true,
     false,
     {},
     DRAPE_FLOAT(spring_stiffness)},
    {"stable_substeps",
     "solver",
     ParamType::Int,
     0,
     1,
     "",
     "mass-spring solver: take at least the sub-steps its stability limit needs (0/1; 0 "
     "keeps substeps as set, and a step too long explodes)",
     false,
     false,
     {},
     DRAPE_INT(stable_substeps)},
    {"density",
     "material",
     ParamType::Float,
     0.001,
     100,
     "kg/m2",
     "surface density of the cloth",
     true,
     true,
     {},
     DRAPE_FLOAT(density)},
    {"tear",
     "material",
     ParamType::Float,
     0,
     10,
     "",
     "stretch ratio |l|/l0 above which an edge tears (0: never; from 1.05 up in practice)",
     false,
     false,
     {},
     DRAPE_FLOAT(tear)},
    {"gravity",
     "environment",
     ParamType::Vec3,
     -100,
     100,
     "m/s2",
     "gravity vector x,y,z (one number sets y)",
     false,
     false,
     {},
     DRAPE_VEC3(gravity)},
    {"friction",
     "environment",
     ParamType::Float,
     0,
     2,
     "",
     "Coulomb friction at colliders",
     false,
     false,
     {},
     DRAPE_FLOAT(friction)},
    {"restitution",
     "environment",
     ParamType::Float,
     0,
     1,
     "",
     "bounce at colliders",
     false,
     false,
     {},
     DRAPE_FLOAT(restitution)},
    {"thickness",
     "environment",
     ParamType::Float,
     0,
     0.1,
     "m",
     "distance the cloth keeps from collider surfaces and, with self_collision, from itself",
     false,
     false,
     {},
     DRAPE_FLOAT(thickness)},
    {"self_collision",
     "environment",
     ParamType::Int,
     0,
     1,
     "",
     "keep cloth vertices from passing through the cloth's own triangles (0/1)",
     false,
     false,
     {},
     DRAPE_INT(self_collision)},
    {"wind",
     "environment",
     ParamType::Vec3,
     -50,
     50,
     "m/s",
     "wind velocity x,y,z; 0 = still air, no aerodynamic forces",
     false,
     false,
     {},
     DRAPE_VEC3(wind)},
    {"drag",
     "environment",
     ParamType::Float,
     0,
     10,
     "",
     "aerodynamic drag coefficient of each triangle in the wind",
     false,
     false,
     {},
     DRAPE_FLOAT(drag)},
    {"lift",
     "environment",
     ParamType::Float,
     0,
     10,
     "",
     "aerodynamic lift coefficient of each triangle in the wind",
     false,
     false,
     {},
     DRAPE_FLOAT(lift)},
    {"resolution",
     "scene",
     ParamType::Int,
     2,
     512,
     "",
     "vertices along each side of grid cloths (rebuilds the scene)",
     false,
     true,
     {},
     DRAPE_INT(resolution)},
};

#undef DRAPE_FLOAT
#undef DRAPE_INT
#undef DRAPE_ENUM
#undef DRAPE_VEC3

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

}  // namespace

bool parseNumber(const std::string& text, double& out) {
  const std::string t = trim(text);
  if (t.empty()) return false;
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
  return d.type == ParamType::Int && d.min == 0.0 && d.max == 1.0;
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
    case ParamType::Vec3:
      return "x,y,z (or one number for y) with each in [" + number(d.min) + ", " + number(d.max) +
             "]";
    case ParamType::Float:
      break;
  }
  return "a number in [" + number(d.min) + ", " + number(d.max) + "]" +
         (d.unit[0] ? std::string(" ") + d.unit : "");
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
  switch (d->type) {
    case ParamType::Enum: {
      const std::string v = trim(value);
      for (std::size_t i = 0; i < d->choices.size(); ++i)
        if (v == d->choices[i]) {
          d->set(params, double(i));
          return {};
        }
      return refuse();
    }
    case ParamType::Int: {
      double v;
      if (const int word = isSwitch(*d) ? switchWord(trim(value)) : -1; word >= 0) {
        d->set(params, double(word));
        return {};
      }
      if (!parseNumber(value, v) || v != std::floor(v) || v < d->min || v > d->max) return refuse();
      d->set(params, v);
      return {};
    }
    case ParamType::Float: {
      double v;
      // Compared in float, the type it is stored in: a range end written
      // out and read back (1e-4 prints as 9.99999975e-05) stays in range.
      if (!parseNumber(value, v) || float(v) < float(d->min) || float(v) > float(d->max))
        return refuse();
      d->set(params, v);
      return {};
    }
    case ParamType::Vec3: {
      std::vector<double> parts;
      std::stringstream ss(value);
      std::string item;
      while (std::getline(ss, item, ',')) {
        double v;
        if (!parseNumber(item, v) || v < d->min || v > d->max) return refuse();
        parts.push_back(v);
      }
      if (!value.empty() && value.back() == ',') return refuse();
      if (parts.size() == 1)
        d->setVec(params, glm::vec3(0.0f, float(parts[0]), 0.0f));
      else if (parts.size() == 3)
        d->setVec(params, glm::vec3(float(parts[0]), float(parts[1]), float(parts[2])));
      else
        return refuse();
      return {};
    }
  }
  return refuse();
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

const char* solverName(SolverKind kind) {
  switch (kind) {
    case SolverKind::Xpbd:
      return "xpbd";
    case SolverKind::MassSpring:
      return "mass-spring";
    case SolverKind::Pbd:
      break;
  }
  return "pbd";
}
const char* balloonModelName(BalloonModel m) {
  return m == BalloonModel::Pressure ? "pressure" : "tets";
}
const char* bendingName(BendingModel m) {
  return m == BendingModel::Dihedral ? "dihedral" : "isometric";
}

}  // namespace drape::sim
