#include "app/param_list.hpp"

#include <cstdio>
#include <string>

#include "sim/sim.hpp"

namespace drape::app {
namespace {

// A number as a reader writes it: 0.25, 1e-4, 1e6.
std::string shortNumber(double v) {
  char text[32];
  const double a = v < 0 ? -v : v;
  if (a != 0.0 && (a < 1e-3 || a >= 1e5)) {
    int exponent = 0;
    double mantissa = v;
    while (mantissa >= 10.0 || mantissa <= -10.0) {
      mantissa /= 10.0;
      ++exponent;
    }
    while (mantissa < 1.0 && mantissa > -1.0) {
      mantissa *= 10.0;
      --exponent;
    }
    std::snprintf(text, sizeof text, "%ge%d", mantissa, exponent);
  } else {
    std::snprintf(text, sizeof text, "%g", v);
  }
  return text;
}

std::string withUnit(const std::string& text, const char* unit) {
  return unit[0] ? text + " " + unit : text;
}

std::string defaultOf(const sim::ParamDesc& d) {
  const sim::Params defaults;
  switch (d.type) {
    case sim::ParamType::Switch:
      return d.get(defaults) != 0.0 ? "on" : "off";
    case sim::ParamType::Enum:
      return std::string("`") + d.choices[std::size_t(d.get(defaults))] + "`";
    case sim::ParamType::Vec3: {
      const glm::vec3 v = d.getVec(defaults);
      return shortNumber(v.x) + "," + shortNumber(v.y) + "," + shortNumber(v.z);
    }
    case sim::ParamType::Int:
    case sim::ParamType::Float:
      break;
  }
  return shortNumber(float(d.get(defaults)));
}

std::string rangeOf(const sim::ParamDesc& d) {
  const std::string span = "[" + shortNumber(d.min) + ", " + shortNumber(d.max) + "]";
  switch (d.type) {
    case sim::ParamType::Switch:
      return "switch";
    case sim::ParamType::Enum: {
      std::string names;
      for (const char* c : d.choices) names += (names.empty() ? "`" : ", `") + std::string(c) + "`";
      return names;
    }
    case sim::ParamType::Vec3:
      return withUnit("each in " + span, d.unit);
    case sim::ParamType::Int:
    case sim::ParamType::Float:
      break;
  }
  return withUnit(span, d.unit);
}

// Markdown cells: a | ends the cell unless escaped.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

std::string parameterTableMarkdown() {
  std::string out = "| name | default | range | meaning |\n|---|---|---|---|\n";
  for (const sim::ParamDesc& d : sim::paramTable())
    out += "| `" + std::string(d.name) + "` | " + defaultOf(d) + " | " + rangeOf(d) + " | " +
           cell(d.help) + " |\n";
  return out;
}

}  // namespace drape::app
