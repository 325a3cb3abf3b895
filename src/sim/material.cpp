#include "sim/material.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace drape::sim {

double bendingStiffness(double kBend) {
  if (!(kBend > 0.0)) return 0.0;
  if (kBend >= 1.0) return kRigidBending;
  const double r = kBend / (1.0 - kBend);
  return std::min(kBendingUnit * r * r * r, kRigidBending);
}

double stretchModulus(double kStretch) {
  if (!(kStretch > 0.0)) return 0.0;
  if (kStretch >= 1.0) return std::numeric_limits<double>::infinity();
  const double r = kStretch / (1.0 - kStretch);
  return kStretchUnit * r * r;
}

}  // namespace drape::sim
