#include <gtest/gtest.h>

#include "scene/shapes.hpp"
#include "sim/mesh.hpp"

using namespace drape;

TEST(Mesh, GridCounts) {
  auto prepared = sim::prepareMesh(scene::makeGrid(4, 2.0f, glm::vec3(0)));
  ASSERT_TRUE(prepared);
  EXPECT_EQ(prepared->mesh.positions.size(), 16u);
}
