// libFuzzer target: OBJ text → mesh → cloth → a few solver steps. Any crash,
// sanitizer report, hang, or non-finite state after a step is a finding.
// Built and run by scripts/fuzz (clang, -fsanitize=fuzzer,address,undefined).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "io/obj_reader.hpp"
#include "sim/cloth.hpp"
#include "sim/mesh.hpp"
#include "sim/stats.hpp"
#include "sim/step/step.hpp"
#include "sim/world.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace drape;
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto file = io::parseObj(text, "fuzz.obj");
  if (!file) {
    if (file.error().empty() || file.error().find('\n') != std::string::npos) std::abort();
    return 0;
  }
  auto prepared = sim::prepareMesh(file->mesh);
  if (!prepared) return 0;
  // Keep each input cheap: the solver's cost is not what is fuzzed.
  if (prepared->mesh.positions.size() > 5000) return 0;
  sim::Params params;
  params.threads = 1;
  params.iterations = 4;
  sim::World world = sim::makeWorld(sim::buildCloth(prepared.value(), params.density), params);
  if (!world.state.x.empty()) sim::pinVertex(world, 0);
  for (int i = 0; i < 3; ++i) {
    sim::step(world);
    if (!sim::allFinite(world)) std::abort();
  }
  return 0;
}
