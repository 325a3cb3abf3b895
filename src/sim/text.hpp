#pragma once
// Text as a one-line message can show it: whatever a user or a file
// supplied (a file name, a key, an argument) may hold newlines, control
// characters or bytes that are not UTF-8.

#include <cstddef>
#include <string>
#include <string_view>

namespace drape {

// Whether `s` is well-formed UTF-8 (no overlong forms, surrogates or code
// points past U+10FFFF).
bool isValidUtf8(std::string_view s);

// `s` with control characters written as \n, \t, \r or \xHH and bytes that
// are not UTF-8 as \xHH, cut after `most` bytes with "...": safe to print
// on one line.
std::string printable(std::string_view s, std::size_t most = std::string_view::npos);

}  // namespace drape
