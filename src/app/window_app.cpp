#include "app/window_app.hpp"

#include <cstdio>

namespace drape::app {

int runWindow(Session&, const Options&) {
  std::fprintf(stderr, "drape: error: the window is not available in this build\n");
  return 2;
}

}  // namespace drape::app
