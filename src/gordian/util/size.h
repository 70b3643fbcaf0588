// This file parses and prints byte sizes: the -mem flag of `gordian test`,
// `run` and `analyze` ("2G", "500M", "64K", "1.5G", "1048576"), and the
// sizes the analysis names when it says what its memory budget left out.
// Units are binary (K = 1024) and may be followed by "B" or "iB" ("2GiB").
// What cannot be a budget is refused with a message: zero, negatives,
// exponents ("1e99"), unknown units, and anything above kMaxSizeBytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gordian::util {

// 1 PiB: far above any machine gordian runs on, far below overflow.
inline constexpr uint64_t kMaxSizeBytes = 1ull << 50;

// Parses s into *bytes. Returns false with *err ("expected a size such as
// 500M or 2G", "zero", "larger than 1P") when s is not a usable size;
// *bytes is left alone then.
bool ParseSize(std::string_view s, uint64_t* bytes, std::string* err);

// "512 B", "64.0 KB", "1.5 MB", "2.0 GB" (binary units, one decimal).
std::string FormatSize(uint64_t bytes);

}  // namespace gordian::util
