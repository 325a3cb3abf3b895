#pragma once
// Running the real drape binary from tests: exit code, stdout and stderr,
// and a fixture with a fresh folder per test.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace cli_test {

namespace fs = std::filesystem;

struct Outcome {
  int code = -1;
  std::string out, err;
};

// Outcome drape with `args` (shell words), capturing stdout and stderr;
// `before` runs in the same shell first (a `ulimit`).
inline Outcome drape(const std::string& args, const std::string& before = "") {
  // One folder per test process: ctest runs tests side by side.
  const fs::path dir = fs::temp_directory_path() / ("drape_cli_out_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string out = (dir / "stdout").string(), err = (dir / "stderr").string();
  const std::string cmd = before + std::string(DRAPE_BIN) + " " + args + " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  Outcome r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  auto slurp = [](const std::string& path) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  };
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("drape_cli_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

// One line on stderr, starting "drape: error: ", exit code 2.
inline void expectUsageError(const Outcome& r, const std::string& mentions) {
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("drape: error: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(mentions), std::string::npos) << r.err;
}

// A file's bytes ("" when it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline nlohmann::json readJson(const std::string& path) {
  std::ifstream f(path);
  return nlohmann::json::parse(f);
}

}  // namespace cli_test
