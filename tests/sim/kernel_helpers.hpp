#pragma once
// One projection of single constraints by the solver's own kernels (one
// lane, as the reference setting runs them), on State::p.

#include <type_traits>
#include <vector>

#include "sim/solve/coefficients.hpp"
#include "sim/solve/coloring.hpp"
#include "sim/solve/ranges.hpp"
#include "sim/world.hpp"

namespace drape::test {

// PBD with stiffness k (per iteration): every constraint of `c` once, in order.
template <typename Constraint>
void projectOnce(sim::State& s, const std::vector<Constraint>& c, float k) {
  std::vector<float> buffer(4 * s.p.size());
  float* p3 = reinterpret_cast<float*>(s.p.data());
  sim::batch::toSolveBuffer(p3, s.w.data(), buffer.data(), s.p.size());
  std::vector<float> lambda(c.size(), 0.0f);
  if constexpr (std::is_same_v<Constraint, sim::StretchConstraint>) {
    const sim::PackedStretch ps = sim::packStretch(c, s.p.size(), false);
    const sim::batch::StretchArgs args{buffer.data(), ps.a.data(), ps.b.data(), ps.rest.data(),
                                       lambda.data(), k,           0.0f};
    sim::batch::stretchRange(args, 0, ps.size(), true);
  } else {
    const sim::PackedBend pb = sim::packBend(c, s.p.size(), false);
    const sim::batch::BendArgs args{buffer.data(),
                                    {pb.v0.data(), pb.v1.data(), pb.v2.data(), pb.v3.data()},
                                    pb.restAngle.data(),
                                    pb.restLength.data(),
                                    pb.restArea.data(),
                                    lambda.data(),
                                    k,
                                    0.0f,
                                    true,
                                    sim::tuning::kMaxBendMove};
    sim::batch::bendRange(args, 0, pb.size(), true);
  }
  sim::batch::fromSolveBuffer(buffer.data(), p3, s.p.size());
}

}  // namespace drape::test
