// This file owns gordian's version number: the one of CMake's project()
// (the top-level CMakeLists.txt), which `gordian version` prints and every
// JSON and SARIF report carries.
#pragma once

#include <string_view>

namespace gordian::util {

// "0.1.0": the version this binary was built as.
std::string_view Version();

}  // namespace gordian::util
