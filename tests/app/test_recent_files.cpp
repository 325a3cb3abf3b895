// The recent files of the file browsers, kept across runs in the user's
// configuration folder (XDG Base Directory convention).

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/recent_files.hpp"
#include "ui/file_browser.hpp"

namespace drape::app {
namespace {
namespace fs = std::filesystem;

// A fresh HOME and XDG_CONFIG_HOME for each test, put back afterwards.
class RecentFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("drape_recent_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "home");
    save("HOME", home_);
    save("XDG_CONFIG_HOME", xdg_);
    setenv("HOME", (root_ / "home").c_str(), 1);
    unsetenv("XDG_CONFIG_HOME");
  }
  void TearDown() override {
    restore("HOME", home_);
    restore("XDG_CONFIG_HOME", xdg_);
    fs::remove_all(root_);
  }
  static void save(const char* name, std::optional<std::string>& into) {
    if (const char* v = std::getenv(name)) into = v;
  }
  static void restore(const char* name, const std::optional<std::string>& value) {
    if (value)
      setenv(name, value->c_str(), 1);
    else
      unsetenv(name);
  }
  fs::path root_;
  std::optional<std::string> home_, xdg_;
};

TEST_F(RecentFiles, LiveInTheXdgConfigFolderOrUnderHome) {
  EXPECT_EQ(configDirectory(), (root_ / "home" / ".config" / "drape").string());
  setenv("XDG_CONFIG_HOME", (root_ / "xdg").c_str(), 1);
  EXPECT_EQ(configDirectory(), (root_ / "xdg" / "drape").string());
  // A relative XDG_CONFIG_HOME is invalid by the convention: ignored.
  setenv("XDG_CONFIG_HOME", "relative/config", 1);
  EXPECT_EQ(configDirectory(), (root_ / "home" / ".config" / "drape").string());
}

TEST_F(RecentFiles, AListWrittenIsReadBackInOrder) {
  EXPECT_TRUE(readRecent("recent_scenes").empty());  // none yet
  const std::vector<std::string> paths{"/data/b.json", "/data/a b.json", "/x/ü.json"};
  ASSERT_TRUE(writeRecent("recent_scenes", paths));  // makes ~/.config/drape
  EXPECT_TRUE(fs::is_regular_file(root_ / "home" / ".config" / "drape" / "recent_scenes"));
  EXPECT_EQ(readRecent("recent_scenes"), paths);
  EXPECT_TRUE(readRecent("recent_meshes").empty());  // each list apart
}

TEST_F(RecentFiles, AFileEditedByHandLoadsWhatItCan) {
  fs::create_directories(root_ / "home" / ".config" / "drape");
  std::ofstream(root_ / "home" / ".config" / "drape" / "recent_meshes") << "/a.obj\r\n\n/b.obj";
  EXPECT_EQ(readRecent("recent_meshes"), (std::vector<std::string>{"/a.obj", "/b.obj"}));
}

TEST_F(RecentFiles, AnUnwritableFolderIsAnError) {
  std::ofstream(root_ / "blocker") << "a file where the folder should be";
  setenv("XDG_CONFIG_HOME", (root_ / "blocker").c_str(), 1);
  const auto r = writeRecent("recent_scenes", {"/a.json"});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("blocker"), std::string::npos) << r.error();
}

TEST_F(RecentFiles, TheBrowserKeepsEightNewestFirstWithoutRepeats) {
  ui::FileBrowser browser;
  browser.setRecent(readRecent("recent_meshes"));
  for (int i = 0; i < 10; ++i) browser.remember("/m/" + std::to_string(i) + ".obj");
  browser.remember("/m/5.obj");
  ASSERT_EQ(browser.recent().size(), 8u);
  EXPECT_EQ(browser.recent()[0], "/m/5.obj");
  EXPECT_EQ(browser.recent()[1], "/m/9.obj");
  EXPECT_EQ(std::count(browser.recent().begin(), browser.recent().end(), "/m/5.obj"), 1);
  ASSERT_TRUE(writeRecent("recent_meshes", browser.recent()));
  ui::FileBrowser next;  // the next run
  next.setRecent(readRecent("recent_meshes"));
  EXPECT_EQ(next.recent(), browser.recent());
}

}  // namespace
}  // namespace drape::app
