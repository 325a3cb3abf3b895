// Outputs go through a temporary file of their own, made exclusively in the
// target's folder: writers of one path at once leave one of their files
// whole, a planted `.part` link or file is never touched, a name as long as
// the folder allows is written, and names too long are refused before any
// work.

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "io/output_path.hpp"

namespace drape {
namespace {

namespace fs = std::filesystem;

std::string readAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path freshDir(const char* name) {
  const fs::path dir = fs::path(testing::TempDir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::size_t entries(const fs::path& dir) {
  return std::size_t(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(OutputPath, WritersOfOnePathAtOnceLeaveOneOfTheirFilesWhole) {
  const fs::path dir = freshDir("output_concurrent");
  const std::string path = (dir / "out.obj").string();
  for (int round = 0; round < 5; ++round) {
    std::vector<std::string> texts;
    for (int k = 0; k < 4; ++k) texts.push_back(std::string(300000 + 1000 * k, char('a' + k)));
    std::vector<std::thread> writers;
    for (int k = 0; k < 4; ++k)
      writers.emplace_back([&, k] {
        EXPECT_TRUE(io::writeFileAtomically(path, texts[k].data(), texts[k].size()));
      });
    for (std::thread& t : writers) t.join();
    const std::string got = readAll(path);
    bool whole = false;
    for (const std::string& t : texts) whole = whole || got == t;
    EXPECT_TRUE(whole) << "round " << round << ": " << got.size() << " bytes";
    EXPECT_EQ(entries(dir), 1u);  // no temporary file left behind
  }
  fs::remove_all(dir);
}

TEST(OutputPath, APlantedPartLinkOrFileIsLeftAlone) {
  const fs::path dir = freshDir("output_planted");
  std::ofstream(dir / "victim") << "victim\n";
  fs::create_symlink(dir / "victim", dir / "out.obj.part");
  std::ofstream(dir / "mine.obj.part") << "the user's\n";
  ASSERT_TRUE(io::writeFileAtomically((dir / "out.obj").string(), "new\n", 4));
  ASSERT_TRUE(io::writeFileAtomically((dir / "mine.obj").string(), "new\n", 4));
  EXPECT_EQ(readAll(dir / "out.obj"), "new\n");
  EXPECT_EQ(readAll(dir / "mine.obj"), "new\n");
  EXPECT_EQ(readAll(dir / "victim"), "victim\n");
  EXPECT_TRUE(fs::is_symlink(dir / "out.obj.part"));
  EXPECT_EQ(readAll(dir / "mine.obj.part"), "the user's\n");
  EXPECT_EQ(entries(dir), 5u);
  fs::remove_all(dir);
}

TEST(OutputPath, ANewFileTakesTheUmaskAndAReplacedOneKeepsItsMode) {
  const fs::path dir = freshDir("output_mode");
  const mode_t mask = ::umask(022);
  ::umask(mask);
  const std::string fresh = (dir / "fresh.json").string();
  ASSERT_TRUE(io::writeFileAtomically(fresh, "{}\n", 3));
  struct stat st {};
  ASSERT_EQ(::stat(fresh.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
  ASSERT_EQ(::chmod(fresh.c_str(), 0640), 0);
  ASSERT_TRUE(io::writeFileAtomically(fresh, "[]\n", 3));
  ASSERT_EQ(::stat(fresh.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  fs::remove_all(dir);
}

TEST(OutputPath, ANameOfTheLongestLengthIsWrittenAndALongerOneRefusedFirst) {
  const fs::path dir = freshDir("output_long");
  const std::string longest = (dir / std::string(255, 'n')).string();
  ASSERT_TRUE(io::checkWritableFile(longest, "--stats"));
  ASSERT_TRUE(io::writeFileAtomically(longest, "ok\n", 3));
  EXPECT_EQ(readAll(longest), "ok\n");
  const auto r = io::checkWritableFile((dir / std::string(256, 'n')).string(), "--stats");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("--stats: a name in"), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("longer than 255 bytes"), std::string::npos) << r.error();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace drape
