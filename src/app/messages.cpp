#include "app/messages.hpp"

#include <cstdio>

#include "sim/sim.hpp"

namespace drape::app {

void printError(const std::string& message) {
  std::fprintf(stderr, "drape: error: %s\n", printable(message).c_str());
}

void printWarning(const std::string& message) {
  std::fprintf(stderr, "drape: warning: %s\n", printable(message).c_str());
}

}  // namespace drape::app
