// This file implements the byte-size parser and printer (size.h).
#include "gordian/util/size.h"

#include <cctype>

#include <fmt/format.h>

namespace gordian::util {

bool ParseSize(std::string_view s, uint64_t* bytes, std::string* err) {
  const std::string_view in = s;
  auto bad = [&](std::string_view why) {
    *err = fmt::format("{}; expected a size such as 500M or 2G", why);
    return false;
  };
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  if (s.empty()) return bad("empty");
  if (s.front() == '-') return bad("negative");
  // Digits, then an optional fraction: no sign, no exponent, no hex, so that
  // "1e99" is refused instead of read as 1 followed by garbage.
  uint64_t whole = 0;
  size_t i = 0;
  for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); i++) {
    if (whole > kMaxSizeBytes) continue;  // keeps counting digits; refused below
    whole = whole * 10 + uint64_t(s[i] - '0');
  }
  if (i == 0) return bad(fmt::format("{:?} is not a number", std::string(in)));
  double frac = 0, scale = 0.1;
  if (i < s.size() && s[i] == '.') {
    size_t start = ++i;
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); i++) {
      frac += scale * (s[i] - '0');
      scale /= 10;
    }
    if (i == start) return bad(fmt::format("{:?} is not a number", std::string(in)));
  }
  std::string unit;
  for (char c : s.substr(i)) unit += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (!unit.empty() && unit.back() == 'B') unit.pop_back();
  if (unit.size() == 2 && unit[1] == 'I') unit.pop_back();
  int shift = 0;
  if (unit.empty()) shift = 0;
  else if (unit == "K") shift = 10;
  else if (unit == "M") shift = 20;
  else if (unit == "G") shift = 30;
  else if (unit == "T") shift = 40;
  else if (unit == "P") shift = 50;
  else return bad(fmt::format("unknown unit {:?}", std::string(s.substr(i))));
  if (whole > (kMaxSizeBytes >> shift)) {
    *err = fmt::format("larger than {}", FormatSize(kMaxSizeBytes));
    return false;
  }
  uint64_t v = (whole << shift) + static_cast<uint64_t>(frac * double(1ull << shift));
  if (v > kMaxSizeBytes) {
    *err = fmt::format("larger than {}", FormatSize(kMaxSizeBytes));
    return false;
  }
  if (v == 0) return bad("zero bytes");
  *bytes = v;
  return true;
}

std::string FormatSize(uint64_t bytes) {
  static const char* kUnits[] = {"KB", "MB", "GB", "TB", "PB"};
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double v = double(bytes) / 1024;
  size_t u = 0;
  while (v >= 1024 && u + 1 < std::size(kUnits)) {
    v /= 1024;
    u++;
  }
  return fmt::format("{:.1f} {}", v, kUnits[u]);
}

}  // namespace gordian::util
