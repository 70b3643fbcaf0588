// This file implements reading a whole file (read_file.h).
#include "gordian/util/read_file.h"

#include <fstream>
#include <sstream>

namespace gordian::util {

bool ReadWholeFile(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  return true;
}

}  // namespace gordian::util
