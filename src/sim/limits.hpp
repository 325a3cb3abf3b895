#pragma once
// The sizes, speeds and times a scene may hold, in SI units. Finite values
// far beyond them (a sphere 1e38 m across, a pin at 1e30 m/s) cannot be
// simulated in single precision; scene files, the command line and mesh
// loading refuse them before the run, naming the field and the range.

namespace drape::sim {

inline constexpr double kMostLength = 1e4;        // m: positions, radii, extents, amplitudes
inline constexpr double kMostSpeed = 1e3;         // m/s
inline constexpr double kMostAngularSpeed = 1e3;  // rad/s
inline constexpr double kMostFrequency = 1e3;     // Hz
inline constexpr double kMostTime = 1e6;          // s: when a motion starts
inline constexpr double kMostScale = 1e6;         // a mesh's units to metres
inline constexpr double kLeastMeshExtent = 1e-4;  // m: a mesh's diagonal, scaled
inline constexpr double kMostMeshExtent = 1e4;    // m

}  // namespace drape::sim
