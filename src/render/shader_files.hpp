#pragma once
// Shader sources, read from files at run time (no GL needed, so a missing
// file is reported before any window opens). The directory is found next to
// the executable, as every data folder is (dataSearchPath).

#include <map>
#include <string>
#include <vector>

#include "sim/sim.hpp"

namespace drape::render {

struct ShaderSources {
  std::string directory;
  std::map<std::string, std::string> files;  // file name → text

  // Text of a file that loadShaderSources read (empty when it did not).
  const std::string& text(const std::string& fileName) const;
};

// Where a data folder (`shaders`, `assets/scenes`) of the running
// executable may be, in this order:
//   <exe dir>/../FOLDER              build tree (<build>/bin/drape)
//   <exe dir>/FOLDER
//   <exe dir>/../share/drape/FOLDER  installed
std::vector<std::string> dataSearchPath(const std::string& folder);
std::vector<std::string> shaderSearchPath();  // dataSearchPath("shaders")

// Find the first directory of the search path holding `fileNames[0]`, then
// read every file of `fileNames` from it. Fails with a one-line message that
// names the directories searched or the file that could not be read.
Result<ShaderSources> loadShaderSources(const std::vector<std::string>& fileNames);

}  // namespace drape::render
