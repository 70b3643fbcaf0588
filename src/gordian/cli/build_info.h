// This file declares what `gordian version` says about the build that made
// the binary beyond its version (util/version.h): the commit of the sources
// and the build type. Their definitions are generated at every build into
// the build tree (cmake/build_info.cmake) and linked into the gordian
// binary alone, so a new commit relinks nothing else.
#pragma once

#include <string_view>

namespace gordian::cli {

// The commit the binary was built from: 12 hex digits, "-dirty" when the
// tracked files differed from it, "unknown" outside a git checkout (or
// GORDIAN_COMMIT, given to CMake).
std::string_view BuildCommit();

// CMake's build type: Release, Debug, RelWithDebInfo, ...
std::string_view BuildType();

}  // namespace gordian::cli
