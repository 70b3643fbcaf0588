// This file parses a field that must be a whole decimal number and nothing
// else ("12", not "", "12a", "-1" into an unsigned type, or one too large
// for the type): the line and column numbers of go build's messages,
// -shard I/N, the numbers of the trace's side files.
#pragma once

#include <charconv>
#include <string_view>
#include <system_error>

namespace gordian::util {

// Whether s is exactly a decimal number that fits T, stored in *out. (On
// false, *out holds the digits s starts with, if they fit, as
// std::from_chars leaves it.)
template <class T>
bool ParseWholeNumber(std::string_view s, T* out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace gordian::util
