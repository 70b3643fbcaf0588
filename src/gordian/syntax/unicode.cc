// This file implements UTF-8 decoding, the Unicode classes of identifiers and
// Go-style rune formatting (see unicode.h).
#include "gordian/syntax/unicode.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "gordian/util/escape.h"

namespace gordian::syntax {
namespace {

struct RuneRange {
  uint32_t lo, hi;  // closed range
};

#include "gordian/syntax/unicode_tables.inc"

template <size_t N>
bool InRanges(const RuneRange (&table)[N], uint32_t r) {
  // First range whose hi >= r; r is in the class iff that range starts <= r.
  auto it = std::lower_bound(std::begin(table), std::end(table), r,
                             [](const RuneRange& rr, uint32_t v) { return rr.hi < v; });
  return it != std::end(table) && it->lo <= r;
}

bool IsContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

}  // namespace

int DecodeRune(const char* s, uint32_t* r) {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  unsigned char c0 = p[0];
  if (c0 < 0xC2 || c0 > 0xF4) return 0;  // continuation, overlong 2-byte, or > U+10FFFF
  if (!IsContinuation(p[1])) return 0;
  if (c0 < 0xE0) {
    *r = (uint32_t{c0} & 0x1F) << 6 | (p[1] & 0x3F);
    return 2;
  }
  // The second byte's range depends on the lead byte (RFC 3629 table):
  // E0 excludes overlongs, ED excludes surrogates, F0 overlongs, F4 > U+10FFFF.
  unsigned char c1 = p[1];
  if ((c0 == 0xE0 && c1 < 0xA0) || (c0 == 0xED && c1 > 0x9F) ||
      (c0 == 0xF0 && c1 < 0x90) || (c0 == 0xF4 && c1 > 0x8F)) {
    return 0;
  }
  if (!IsContinuation(p[2])) return 0;
  if (c0 < 0xF0) {
    *r = (uint32_t{c0} & 0x0F) << 12 | uint32_t{c1 & 0x3Fu} << 6 | (p[2] & 0x3F);
    return 3;
  }
  if (!IsContinuation(p[3])) return 0;
  *r = (uint32_t{c0} & 0x07) << 18 | uint32_t{c1 & 0x3Fu} << 12 |
       uint32_t{p[2] & 0x3Fu} << 6 | (p[3] & 0x3F);
  return 4;
}

bool IsLetter(uint32_t r) {
  if (r < 0x80) return ('a' <= (r | 0x20) && (r | 0x20) <= 'z');
  return InRanges(kLetterRanges, r);
}

bool IsDigit(uint32_t r) {
  if (r < 0x80) return '0' <= r && r <= '9';
  return InRanges(kDigitRanges, r);
}

bool IsPrint(uint32_t r) {
  if (r < 0x80) return 0x20 <= r && r < 0x7F;
  return InRanges(kPrintRanges, r);
}

void AppendUTF8(std::string* out, uint32_t r) {
  if (r > kMaxRune || (0xD800 <= r && r < 0xE000)) r = kRuneError;
  if (r < 0x80) {
    out->push_back(static_cast<char>(r));
  } else if (r < 0x800) {
    out->push_back(static_cast<char>(0xC0 | r >> 6));
    out->push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else if (r < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | r >> 12));
    out->push_back(static_cast<char>(0x80 | (r >> 6 & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | r >> 18));
    out->push_back(static_cast<char>(0x80 | (r >> 12 & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (r >> 6 & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (r & 0x3F)));
  }
}

std::string FormatRuneU(uint32_t r) {
  std::string s = fmt::format("U+{:04X}", r);
  if (IsPrint(r)) {
    s += " '";
    AppendUTF8(&s, r);
    s += '\'';
  }
  return s;
}

std::string QuoteRune(uint32_t r) {
  // strconv.QuoteRune: invalid runes print as U+FFFD, which is printable.
  if (r > kMaxRune || (0xD800 <= r && r < 0xE000)) r = kRuneError;
  // The escapes with a letter of their own, as strconv writes them.
  static constexpr util::CharEscape kRuneEscapes[] = {
      {'\a', "\\a"}, {'\b', "\\b"}, {'\f', "\\f"},  {'\n', "\\n"},  {'\r', "\\r"},
      {'\t', "\\t"}, {'\v', "\\v"}, {'\\', "\\\\"}, {'\'', "\\'"},
  };
  std::string s = "'";
  if (std::string_view e = util::EscapeOf(kRuneEscapes, r); !e.empty()) {
    s += e;
  } else if (IsPrint(r)) {
    AppendUTF8(&s, r);
  } else if (r < ' ' || r == 0x7F) {
    s += fmt::format("\\x{:02x}", r);
  } else if (r < 0x10000) {
    s += fmt::format("\\u{:04x}", r);
  } else {
    s += fmt::format("\\U{:08x}", r);
  }
  s += '\'';
  return s;
}

}  // namespace gordian::syntax
