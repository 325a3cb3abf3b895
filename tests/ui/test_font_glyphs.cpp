// Every character the interface can show is in its font: the string
// literals of the panels, tooltips, messages and the parameter table,
// decoded from UTF-8, against the font's glyph ranges. A character outside
// them is drawn as "?" ("−" and superscripts were).

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ui/imgui_layer.hpp"

namespace drape {
namespace {

namespace fs = std::filesystem;

bool covered(std::uint32_t c) {
  const unsigned short* r = ui::fontGlyphRanges();
  for (; r[0] != 0; r += 2)
    if (c >= r[0] && c <= r[1]) return true;
  return false;
}

// The code points inside the string literals of C++ source `text` (not its
// comments, not character literals), with the line of each.
std::vector<std::pair<std::uint32_t, int>> literalCodePoints(const std::string& text) {
  std::vector<std::pair<std::uint32_t, int>> out;
  int line = 1;
  enum { Code, String, LineComment, BlockComment, Char } state = Code;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char ch = static_cast<unsigned char>(text[i]);
    if (ch == '\n') ++line;
    switch (state) {
      case Code:
        if (ch == '"') state = String;
        else if (ch == '\'') state = Char;
        else if (ch == '/' && i + 1 < text.size() && text[i + 1] == '/') state = LineComment;
        else if (ch == '/' && i + 1 < text.size() && text[i + 1] == '*') state = BlockComment;
        break;
      case LineComment:
        if (ch == '\n') state = Code;
        break;
      case BlockComment:
        if (ch == '*' && i + 1 < text.size() && text[i + 1] == '/') state = Code;
        break;
      case Char:
        if (ch == '\\') ++i;
        else if (ch == '\'') state = Code;
        break;
      case String:
        if (ch == '\\') {
          ++i;
        } else if (ch == '"') {
          state = Code;
        } else if (ch >= 0x80) {
          // UTF-8: the lead byte says how many follow.
          const int more = ch >= 0xF0 ? 3 : ch >= 0xE0 ? 2 : 1;
          std::uint32_t c = ch & (0x3F >> more);
          for (int k = 0; k < more && i + 1 < text.size(); ++k)
            c = (c << 6) | (static_cast<unsigned char>(text[++i]) & 0x3F);
          out.push_back({c, line});
        }
        break;
    }
  }
  return out;
}

TEST(FontGlyphs, EveryCharacterTheInterfaceShowsIsInTheFont) {
  const fs::path src = fs::path(DRAPE_SOURCE_DIR) / "src";
  std::vector<fs::path> files = {src / "sim" / "params.cpp", src / "sim" / "text.cpp",
                                 src / "sim" / "watchdog.cpp", src / "scene" / "scenes.cpp"};
  for (const char* folder : {"ui", "app"})
    for (const auto& entry : fs::directory_iterator(src / folder))
      if (entry.path().extension() == ".cpp") files.push_back(entry.path());
  int checked = 0;
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    ASSERT_TRUE(in) << file;
    std::stringstream ss;
    ss << in.rdbuf();
    for (const auto& [c, line] : literalCodePoints(ss.str())) {
      ++checked;
      EXPECT_TRUE(covered(c)) << file.filename().string() << ":" << line << ": U+" << std::hex
                              << std::uppercase << c << " is not in the font's glyph ranges";
    }
  }
  EXPECT_GT(checked, 20);  // the sources do use such characters (−, ², ×, ›)
}

TEST(FontGlyphs, TheRangesAreOrderedPairs) {
  const unsigned short* r = ui::fontGlyphRanges();
  unsigned last = 0;
  for (; r[0] != 0; r += 2) {
    EXPECT_LE(r[0], r[1]);
    EXPECT_GT(r[0], last);
    last = r[1];
  }
  EXPECT_TRUE(covered(0x2212));  // −
  EXPECT_TRUE(covered(0x207B));  // ⁻
}

}  // namespace
}  // namespace drape
