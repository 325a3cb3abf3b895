#pragma once
// Wind on the cloth: aerodynamic drag and lift per triangle, as external
// forces in the velocity update of the prediction (paper §3.1 line 5, f_ext).
//
// For a triangle of current area A and unit normal n, the air moves past it
// at v = wind − (v_a + v_b + v_c)/3. With u = v/|v| and cos θ = u·n:
//
//   drag  F_d = ½ ρ C_d A |v|² cos θ · n
//             = ½ ρ C_d A |v| (v·n) n                 (along the normal)
//   lift  F_l = ½ ρ C_l A |v|² cos θ · (n − (n·u) u)
//             = ½ ρ C_l A (v·n) (|v| n − (v·n) v/|v|)  (⊥ v, in the plane of v and n)
//
// ρ = 1.2 kg/m³ (air), C_d = params.drag, C_l = params.lift. The lift's
// magnitude is ½ ρ C_l A |v|² cos θ sin θ: none for air that meets the
// triangle head on or slides along it, most at 45°, as for a flat plate.
// Both forces are unchanged when n flips, so the triangle's winding does not
// matter. A third of each goes to each vertex.
//
// The forces are integrated explicitly; a light cloth in strong wind would
// overshoot, so no vertex gains more speed in one step than the air's speed
// relative to it (the air cannot push cloth faster than itself).
// Still air (wind = 0) slows a moving cloth all the same; drag and lift 0
// turn the air off.

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace drape::sim {

struct Cloth;
struct Params;
struct State;
class ThreadTeam;

inline constexpr float kAirDensity = 1.2f;  // kg/m³

// The aerodynamic force on one triangle with vertices a, b, c whose mean
// velocity is `velocity`, in wind `wind` (both m/s).
glm::vec3 triangleAeroForce(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                            const glm::vec3& velocity, const glm::vec3& wind, float drag,
                            float lift);

// Each vertex's triangles (CSR, ascending), for the topology `topology`,
// and each triangle's share of its force: the step's scratch.
struct AirScratch {
  std::vector<std::uint32_t> start, triangles;
  std::vector<glm::vec3> share;
  std::vector<float> invMass;  // 1 / (ρ × rest area) of each triangle
  std::uint64_t topology = UINT64_MAX;
  float density = -1.0f;
};

// v_i += h w_i F_i for every free vertex, with F_i its share of the forces of
// its triangles, each bounded so that the explicit step only takes energy
// from the motion through the air (in still air too), on the team's threads (each vertex sums its
// triangles in their order: the same on any thread count). Nothing when drag and lift are 0.
void applyAerodynamics(const Cloth& cloth, const Params& params, State& state, float h,
                       ThreadTeam& team, AirScratch& scratch);

}  // namespace drape::sim
