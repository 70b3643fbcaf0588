// This file defines FileText, for tests that compare a file they made or
// had made with what it should hold.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace gordian::util {

// The bytes of the file at p; "" when it cannot be read.
inline std::string FileText(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace gordian::util
