#pragma once
// Fabric presets: measured or derived material values in physical units,
// each turned into the sliders' k_stretch and k_bend through the mapping of
// material.hpp, so that a preset is the same fabric on any mesh and budget.
// The `material` parameter (params.hpp) applies one and reads back which one
// the current values are.

#include <vector>

namespace drape::sim {

struct Fabric {
  const char* name;       // the parameter's choice: --set material=NAME
  double stretch;         // Y, N/m (in-plane modulus × thickness)
  double bending;         // D, N·m
  float density;          // kg/m²
  float friction;         // Coulomb coefficient against colliders
  const char* source;     // where the values come from
  float kStretch, kBend;  // the sliders' values for Y and D
};

// silk, cotton, denim, leather, rubber, in that order.
const std::vector<Fabric>& fabrics();

// The slider values whose modulus and stiffness are Y and D (the inverses of
// stretchModulus and bendingStiffness).
double kStretchFor(double stretchModulus);
double kBendFor(double bendingStiffness);

}  // namespace drape::sim
