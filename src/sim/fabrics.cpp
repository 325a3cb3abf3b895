#include "sim/fabrics.hpp"

#include <cmath>

#include "sim/material.hpp"

namespace drape::sim {

double kStretchFor(double stretchModulus) {
  if (!(stretchModulus > 0.0)) return 0.0;
  const double r = std::sqrt(stretchModulus / kStretchUnit);
  return r / (1.0 + r);
}

double kBendFor(double bendingStiffness) {
  if (!(bendingStiffness > 0.0)) return 0.0;
  const double r = std::cbrt(bendingStiffness / kBendingUnit);
  return r / (1.0 + r);
}

namespace {

Fabric fabric(const char* name, double Y, double D, float density, float friction,
              const char* source) {
  return {name, Y, D, density, friction, source, float(kStretchFor(Y)), float(kBendFor(D))};
}

}  // namespace

const std::vector<Fabric>& fabrics() {
  // Woven fabrics: bending rigidity B and tensile modulus from KES-F
  // measurements (Kawabata 1980; Kawabata & Niwa 1989), 1 gf·cm²/cm =
  // 9.81e-5 N·m; weights are typical of each cloth. Leather and rubber are
  // plates: Y = E t, D = E t³ / (12 (1 − ν²)) (Timoshenko &
  // Woinowsky-Krieger 1959).
  static const std::vector<Fabric> table = {
      fabric("silk", 1e3, 1e-6, 0.05f, 0.2f, "KES-F, a typical silk: B ≈ 0.01 gf·cm²/cm, 50 g/m²"),
      fabric("cotton", 3e3, 7e-6, 0.15f, 0.4f,
             "KES-F, a typical cotton shirting: B ≈ 0.07 gf·cm²/cm, 150 g/m²"),
      fabric("denim", 1e4, 7e-5, 0.35f, 0.5f,
             "KES-F, a typical 12 oz denim: B ≈ 0.7 gf·cm²/cm, 350 g/m²"),
      fabric("leather", 2e4, 1.7e-3, 0.9f, 0.6f,
             "garment leather as a plate: E ≈ 20 MPa, t = 1 mm, 900 kg/m³"),
      fabric("rubber", 750, 2.1e-5, 0.5f, 1.0f,
             "natural rubber sheet as a plate: E ≈ 1.5 MPa, ν = 0.5, t = 0.5 mm, 1000 kg/m³"),
  };
  return table;
}

}  // namespace drape::sim
