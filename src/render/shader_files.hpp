#pragma once
// Shader sources, read from files at run time (no GL needed, so a missing
// file is reported before any window opens). The directory is found next to
// the executable, in this order:
//   <exe dir>/../shaders            build tree (<build>/bin/drape)
//   <exe dir>/shaders
//   <exe dir>/../share/drape/shaders  installed

#include <map>
#include <string>
#include <vector>

#include "sim/result.hpp"

namespace drape::render {

struct ShaderSources {
  std::string directory;
  std::map<std::string, std::string> files;  // file name → text

  // Text of a file that loadShaderSources read (empty when it did not).
  const std::string& text(const std::string& fileName) const;
};

// The directories searched, in order, for the running executable.
std::vector<std::string> shaderSearchPath();

// Find the first directory of the search path holding `fileNames[0]`, then
// read every file of `fileNames` from it. Fails with a one-line message that
// names the directories searched or the file that could not be read.
Result<ShaderSources> loadShaderSources(const std::vector<std::string>& fileNames);

}  // namespace drape::render
