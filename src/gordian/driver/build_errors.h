// This file recognises build failures in the go command's output: compiler
// and vet errors ("./main.go:5:2: undefined: x"), go command errors
// ("go: cannot find main module ..."), and go test's "[build failed]" /
// "[setup failed]" package lines.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gordian::driver {

struct BuildError {
  std::string file;     // as printed (often relative: ./main.go); empty for go command errors
  uint32_t line = 0;
  uint32_t column = 0;  // 0 when not printed
  std::string message;

  // "file:line:col: message", or the go command's line.
  std::string String() const;
};

// The errors in output, in order.
std::vector<BuildError> ParseBuildErrors(std::string_view output);

// True when go test output says a package did not build ("[build failed]",
// "[setup failed]").
bool TestBuildFailed(std::string_view output);

}  // namespace gordian::driver
