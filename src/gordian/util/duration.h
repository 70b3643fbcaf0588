// This file parses the duration flags of every command (-wall, -settle,
// --confirm-budget, replay's -wall): Go's time.ParseDuration syntax, since
// our users are Go developers ("300ms", "1.5s", "2m", "1h30m", "0"), plus a
// plain number of seconds ("90"). What cannot be represented is refused with
// a message instead of overflowing a timer later: inf and nan, negative
// values, and anything longer than kMaxDurationSeconds.
#pragma once

#include <string>
#include <string_view>

namespace gordian::util {

// One year: longer than any run gordian should wait for, short enough that
// every conversion (to milliseconds in an int64, to a deadline) is exact.
inline constexpr double kMaxDurationSeconds = 365.0 * 24 * 3600;

// Parses s into *seconds. Returns false with *err ("expected a duration such
// as 90s, 10m or 1h30m", "longer than 8760h") when s is not one.
bool ParseDuration(std::string_view s, double* seconds, std::string* err);

}  // namespace gordian::util
