#include "io/png_writer.hpp"

#include "io/output_path.hpp"

// Static: the implementation stays private to this file, whatever other
// libraries in the process compiled of stb.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

namespace drape::io {
namespace {

void append(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<unsigned char>*>(context);
  const auto* bytes = static_cast<const unsigned char*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

}  // namespace

Result<void> PngWriter::write(const std::string& path, int width, int height,
                              const std::uint8_t* rgb) {
  if (width <= 0 || height <= 0 || !rgb) return fail("cannot write " + path + ": empty image");
  // Level 1 of 9: a recorded frame is written while the user waits for the
  // next one, and the strongest level takes several times longer for files
  // barely smaller.
  stbi_write_png_compression_level = 1;
  encoded_.clear();
  if (!stbi_write_png_to_func(append, &encoded_, width, height, 3, rgb, width * 3))
    return fail("cannot encode " + path + " as PNG");
  return writeFileAtomically(path, encoded_.data(), encoded_.size());
}

}  // namespace drape::io
