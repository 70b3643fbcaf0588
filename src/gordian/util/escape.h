// This file escapes text by a table: each character the table names is
// written as the text the table gives it (HTML's "&amp;", a C or Go string
// literal's "\n"), every other one as it is or, where asked, as \xHH when it
// is a control byte. The escapers of the HTML report, of the syntax tree
// dump, of trace side files and of Go rune literals are tables for it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gordian::util {

// A character and the text written in its place.
struct CharEscape {
  char c;
  std::string_view text;
};

// The escapes of a C or Go interpreted string literal in double quotes that
// have a letter of their own: the quote, the backslash, \n, \t and \r.
inline constexpr CharEscape kStringEscapes[] = {
    {'"', "\\\""}, {'\\', "\\\\"}, {'\n', "\\n"}, {'\t', "\\t"}, {'\r', "\\r"},
};

// The text written in place of c, or an empty view where the table does not
// name c (c may be a rune above 0xFF: no table names one).
constexpr std::string_view EscapeOf(std::span<const CharEscape> table, uint32_t c) {
  for (const CharEscape& e : table) {
    if (static_cast<unsigned char>(e.c) == c) return e.text;
  }
  return {};
}

// What becomes of a control byte the table does not name.
enum class OtherControls {
  kAsIs,  // written as it is
  kHex,   // below 0x20, and 0x7f, written as \xHH (two lower-case digits)
};

// Appends s to *out, escaped by the table.
void AppendEscaped(std::string* out, std::string_view s, std::span<const CharEscape> table,
                   OtherControls others = OtherControls::kAsIs);

}  // namespace gordian::util
