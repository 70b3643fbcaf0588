// This file owns what the Go front end knows about Unicode: decoding UTF-8
// from a NUL-terminated buffer, the character classes the Go specification
// uses for identifiers (unicode_letter, unicode_digit), and Go-style rune
// formatting for diagnostics (fmt's %#U and %q).
//
// The classes come from Go's own unicode package: scripts/gen-unicode-tables.go
// writes them into unicode_tables.inc as sorted code point ranges, so Gordian
// accepts exactly the identifiers the Go compiler of that Unicode version
// accepts. Lookups are a binary search over a few hundred ranges; the scanner
// calls them only for non-ASCII bytes.
#pragma once

#include <cstdint>
#include <string>

namespace gordian::syntax {

inline constexpr uint32_t kRuneError = 0xFFFD;
inline constexpr uint32_t kMaxRune = 0x10FFFF;
inline constexpr uint32_t kBOM = 0xFEFF;

// Decodes the UTF-8 sequence starting at p, whose first byte is >= 0x80.
// Returns its length (2..4) and stores the rune in *r, or returns 0 if the
// encoding is invalid (a stray continuation byte, an overlong form, a
// surrogate, a value above U+10FFFF, or a truncated sequence), as Go's
// utf8.DecodeRune does; the caller then skips one byte. Bytes are examined one
// at a time and decoding stops at the first one that is not a continuation
// byte, so a NUL sentinel after the buffer is never read past.
int DecodeRune(const char* p, uint32_t* r);

// unicode.IsLetter (categories Lu, Ll, Lt, Lm, Lo; ASCII letters included,
// '_' not).
bool IsLetter(uint32_t r);
// unicode.IsDigit (category Nd).
bool IsDigit(uint32_t r);
// strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the
// ASCII space.
bool IsPrint(uint32_t r);

// Appends the UTF-8 encoding of r (kRuneError for invalid runes).
void AppendUTF8(std::string* out, uint32_t r);

// fmt's %#U: "U+0040 '@'", or just "U+0000" for a rune that is not printable.
std::string FormatRuneU(uint32_t r);
// fmt's %q for a rune: 'a', '\n', '\x00', 'é', '\u200b'.
std::string QuoteRune(uint32_t r);

}  // namespace gordian::syntax
