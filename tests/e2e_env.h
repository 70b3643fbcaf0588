// Where the end-to-end tests under tests/ find the source tree and the
// gordian binary: the environment ctest sets (GORDIAN_SOURCE_DIR,
// GORDIAN_BINARY_DIR), else the paths the test was built with
// (GORDIAN_TEST_SOURCE_DIR, GORDIAN_TEST_GORDIAN, set by its CMakeLists);
// and reading a file the binary wrote.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace gordian::e2e {

inline std::string Env(const char* k) {
  const char* v = std::getenv(k);
  return v != nullptr ? v : "";
}

inline std::string SourceDir() {
  std::string d = Env("GORDIAN_SOURCE_DIR");
  return d.empty() ? GORDIAN_TEST_SOURCE_DIR : d;
}

inline std::string Gordian() {
  std::string d = Env("GORDIAN_BINARY_DIR");
  return d.empty() ? GORDIAN_TEST_GORDIAN : d + "/bin/gordian";
}

// The whole file at p ("" when it cannot be read).
inline std::string Slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace gordian::e2e
