#pragma once
// Number text shared by the scene-file reader and writer.

#include <charconv>
#include <string>

namespace drape::scene::detail {

// The shortest text that reads back as the same float: files stay readable
// (0.05, not 0.0500000007) and a saved scene reruns bit for bit.
inline std::string floatText(float v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

}  // namespace drape::scene::detail
