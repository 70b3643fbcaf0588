// This file implements escaping text by a table (escape.h).
#include "gordian/util/escape.h"

#include <fmt/format.h>

namespace gordian::util {

void AppendEscaped(std::string* out, std::string_view s, std::span<const CharEscape> table,
                   OtherControls others) {
  out->reserve(out->size() + s.size());
  for (unsigned char c : s) {
    if (std::string_view e = EscapeOf(table, c); !e.empty()) {
      *out += e;
    } else if (others == OtherControls::kHex && (c < 0x20 || c == 0x7f)) {
      fmt::format_to(std::back_inserter(*out), "\\x{:02x}", c);
    } else {
      *out += static_cast<char>(c);
    }
  }
}

}  // namespace gordian::util
