#pragma once
// Messages on stderr: "drape: error: …" and "drape: warning: …", each on
// one line whatever the message quotes (a file name with a newline, bytes
// that are not UTF-8).

#include <string>

namespace drape::app {

void printError(const std::string& message);
void printWarning(const std::string& message);

}  // namespace drape::app
