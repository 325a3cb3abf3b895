#include "io/obj_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "sim/stats.hpp"

namespace drape::io {

Result<void> writeObj(const std::string& path, const sim::World& world) {
  if (!sim::allFinite(world))
    return fail("not writing " + path + ": the simulation state is not finite");
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!f) return fail("cannot write " + path + ": " + std::strerror(errno));
  std::fprintf(f.get(), "# drape: %zu vertices, %zu triangles\n", world.state.x.size(),
               world.cloth.triangles.size());
  for (const glm::vec3& x : world.state.x)
    std::fprintf(f.get(), "v %.9g %.9g %.9g\n", double(x.x), double(x.y), double(x.z));
  for (const glm::uvec3& t : world.cloth.triangles)
    std::fprintf(f.get(), "f %u %u %u\n", t[0] + 1, t[1] + 1, t[2] + 1);
  if (std::ferror(f.get()) || std::fflush(f.get()) != 0)
    return fail("cannot write " + path + ": " + std::strerror(errno));
  return {};
}

}  // namespace drape::io
