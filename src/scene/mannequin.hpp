#pragma once
// A mannequin for the `garment` scene: torso, shoulders, neck, head, arms
// and legs as ellipsoids and capsules blended into one closed surface, and
// its motion (the arms rise, the torso turns) as a sequence of meshes of one
// topology.

#include <vector>

#include <glm/glm.hpp>

#include "sim/sim.hpp"

namespace drape::scene {

// The mannequin's measurements (metres; standing on y = 0, facing +z, arms
// in the xy plane). The shirt's pattern is cut from them.
struct MannequinSize {
  float shoulderY = 1.40f;  // the shoulders' capsule axis
  float shoulderHalfWidth = 0.15f;
  float shoulderRadius = 0.065f;
  glm::vec3 chestRadii{0.16f, 0.22f, 0.105f};
  float chestY = 1.22f;
  float armRadius = 0.045f;
  float armLength = 0.62f;
  float armDegrees = 40.0f;  // below the horizontal, at rest
  float hipY = 0.95f;
};

// Where arm `side` (+1: +x, −1: −x) leaves the shoulder, and its direction
// at `degrees` below the horizontal.
glm::vec3 shoulderPivot(const MannequinSize& size, float side);
glm::vec3 armDirection(float degrees, float side);

// The pose at time t (s): the arms' lift from rest and the torso's turn
// about +y, both in degrees.
struct MannequinPose {
  float armLift = 0.0f;
  float torsoTurn = 0.0f;
};
MannequinPose mannequinPoseAt(double t);

// The surface at rest: a closed, outward-oriented triangle mesh extracted
// from the parts' blended distance on a grid of `cell` metres (surface nets,
// Gibson 1998).
sim::TriMesh makeMannequin(const MannequinSize& size, float cell);

// The rest mesh moved to `pose` by linear blend skinning: each arm turns
// about its shoulder, the torso above the hips about the vertical axis.
// Same triangles as `rest`.
sim::TriMesh poseMannequin(const sim::TriMesh& rest, const MannequinSize& size,
                           const MannequinPose& pose);

// The motion sampled at `fps` from t = 0 to `seconds`.
std::vector<sim::TriMesh> mannequinFrames(const sim::TriMesh& rest, const MannequinSize& size,
                                          float fps, float seconds);

}  // namespace drape::scene
