// This file implements ParseDuration (duration.h).
#include "gordian/util/duration.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace gordian::util {
namespace {

// The units of Go's time.ParseDuration, longest first where one is a prefix
// of another.
struct Unit {
  std::string_view name;
  double seconds;
};
constexpr Unit kUnits[] = {{"ns", 1e-9}, {"us", 1e-6}, {"\xc2\xb5s", 1e-6}, {"\xce\xbcs", 1e-6},
                           {"ms", 1e-3}, {"s", 1},     {"m", 60},           {"h", 3600}};

// A decimal number without sign or exponent ("1", "1.5", ".5"): the only
// numbers Go's syntax has, so "inf", "nan" and "1e18" are refused here.
bool Number(std::string_view s, size_t* pos, double* out) {
  size_t start = *pos, i = *pos;
  bool digits = false;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) i++, digits = true;
  if (i < s.size() && s[i] == '.') {
    i++;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) i++, digits = true;
  }
  if (!digits) return false;
  *out = std::strtod(std::string(s.substr(start, i - start)).c_str(), nullptr);
  *pos = i;
  return true;
}

}  // namespace

bool ParseDuration(std::string_view s, double* seconds, std::string* err) {
  const std::string expected = "expected a duration such as 90s, 10m or 1h30m";
  if (s.empty()) {
    *err = expected;
    return false;
  }
  size_t pos = 0;
  if (s[0] == '+') pos = 1;
  if (s[0] == '-') {
    *err = "a duration cannot be negative";
    return false;
  }
  if (s.substr(pos) == "0") {
    *seconds = 0;
    return true;
  }
  double total = 0;
  bool plain = true;  // a number without unit: seconds, only as the whole value
  while (pos < s.size()) {
    double v = 0;
    if (!Number(s, &pos, &v)) {
      *err = expected;
      return false;
    }
    const Unit* unit = nullptr;
    for (const Unit& u : kUnits) {
      if (s.substr(pos).starts_with(u.name) &&
          (unit == nullptr || u.name.size() > unit->name.size())) {
        unit = &u;
      }
    }
    if (unit == nullptr) {
      if (pos != s.size() || !plain) {
        *err = expected;
        return false;
      }
      total += v;  // "90": seconds
      break;
    }
    plain = false;
    pos += unit->name.size();
    total += v * unit->seconds;
    if (!std::isfinite(total) || total > kMaxDurationSeconds) break;
  }
  if (!std::isfinite(total) || total > kMaxDurationSeconds) {
    *err = "longer than 8760h (one year), the longest duration gordian accepts";
    return false;
  }
  *seconds = total;
  return true;
}

}  // namespace gordian::util
