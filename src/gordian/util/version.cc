// This file implements version.h: GORDIAN_VERSION is defined for this file
// alone (util/CMakeLists.txt), so a new version recompiles one file.
#include "gordian/util/version.h"

namespace gordian::util {

std::string_view Version() { return GORDIAN_VERSION; }

}  // namespace gordian::util
