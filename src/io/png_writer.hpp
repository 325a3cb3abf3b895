#pragma once
// PNG frames out (stb_image_write), for recording a PNG sequence.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/sim.hpp"

namespace drape::io {

class PngWriter {
 public:
  // Write `rgb` (width × height pixels, tightly packed RGB, top row first)
  // as a PNG file. The image is encoded in memory first and written with
  // checked calls, so that a full disk or a vanished folder is an error
  // naming the file, never a truncated frame that looks written.
  Result<void> write(const std::string& path, int width, int height, const std::uint8_t* rgb);

 private:
  std::vector<unsigned char> encoded_;  // reused from frame to frame
};

}  // namespace drape::io
