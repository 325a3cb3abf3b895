#pragma once
// The parameter table as Markdown (`drape --list-params`): name, default,
// range and meaning of every parameter, in the table's order. README.md's
// table is this output (a test keeps them equal).

#include <string>

namespace drape::app {

std::string parameterTableMarkdown();

}  // namespace drape::app
