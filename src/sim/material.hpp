#pragma once
// What the stiffness sliders mean (0 = none, 1 = rigid) to the solvers that
// take a material (XPBD, the default): a bending stiffness D in N·m and an
// in-plane stretch modulus Y in N/m, discretised so that the energy
// converges as the mesh refines, and a solve that reaches it does not
// depend on the mesh or the budget.
//
//   D(k_bend)    = kBendingUnit · (k / (1 − k))³,  at most kRigidBending
//   Y(k_stretch) = kStretchUnit · (k / (1 − k))²,  rigid (no compliance) at 1
//
// (the cubes and squares spread the fabrics over the slider: silk ≈ 0.03,
// cotton ≈ 0.06, denim ≈ 0.13, leather ≈ 0.24 in k_bend).
//
// Bending, discrete shells (Grinspun et al. 2003; Tamstorf & Grinspun 2013):
// the energy ½ D ∫ (2H)² dA becomes, per interior edge e of rest length |ē|
// between triangles of rest areas A1, A2,
//
//   E_e = ½ k_e (θ_e − θ̄_e)²,   k_e = 3 D |ē|² / (A1 + A2),
//
// so XPBD's compliance is α_e = (A1 + A2) / (3 D |ē|²).
//
// Stretch: the membrane of modulus Y as edge springs, each standing for a
// third of the rest area Ā_e of the triangles beside it (Müller & Gross
// 2004 in spirit): k_e = Y Ā_e / |ē|², α_e = |ē|² / (Y Ā_e).

namespace drape::sim {

inline constexpr double kBendingUnit = 0.03;    // N·m, D at k_bend 0.5
inline constexpr double kRigidBending = 100.0;  // N·m: a metre-long strip droops under a mm
inline constexpr double kStretchUnit = 1e4;     // N/m, Y at k_stretch 0.5

// D (N·m) of a k_bend in [0, 1].
double bendingStiffness(double kBend);
// Y (N/m) of a k_stretch in [0, 1]; infinite at 1 (rigid).
double stretchModulus(double kStretch);

// A hinge's compliance per unit of 1/D (rad²/J × N·m): its bending
// compliance is hingeCompliance(...) / D. `twiceArea` is 2 (A1 + A2).
inline double hingeCompliance(double restLength, double twiceArea) {
  return restLength > 0.0 ? 0.5 * twiceArea / (3.0 * restLength * restLength) : 0.0;
}
// An edge's compliance per unit of 1/Y (m/N × N/m): its stretch compliance
// is edgeCompliance(...) / Y. `area` is Ā_e, a third of its triangles' rest area.
inline double edgeCompliance(double restLength, double area) {
  return area > 0.0 ? restLength * restLength / area : 0.0;
}

}  // namespace drape::sim
