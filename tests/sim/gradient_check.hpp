#pragma once
// Central finite differences for the constraint-gradient tests (Müller et al. 2007).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

namespace drape::test_support {

// Central difference of f at x[i] along each axis; x is restored.
template <typename F>
glm::dvec3 numericGradient(F&& f, std::vector<glm::dvec3>& x, std::size_t i, double h = 1e-6) {
  glm::dvec3 g;
  for (int a = 0; a < 3; ++a) {
    const double keep = x[i][a];
    x[i][a] = keep + h;
    const double fp = f(x);
    x[i][a] = keep - h;
    const double fm = f(x);
    x[i][a] = keep;
    g[a] = (fp - fm) / (2.0 * h);
  }
  return g;
}

// Each component within tol, relative to the gradient's size when above 1.
inline void expectNear(const glm::dvec3& analytic, const glm::dvec3& numeric, double tol) {
  const double scale = std::max(1.0, glm::length(numeric));
  EXPECT_NEAR(analytic.x, numeric.x, tol * scale);
  EXPECT_NEAR(analytic.y, numeric.y, tol * scale);
  EXPECT_NEAR(analytic.z, numeric.z, tol * scale);
}

}  // namespace drape::test_support
