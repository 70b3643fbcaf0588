// This file declares the lexical layer of the IR text (docs/ir-format.md,
// "Lines and values"): a line is a record word, then words separated by
// single spaces; a word is bare, key=value, or either in double quotes
// with the escapes \\ \" \n \t \xHH. SplitLine undoes the quoting; Quote
// applies it (the same rule as tools/irgen/text.go).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gordian::ir {

struct LineWord {
  std::string key;    // "" for a positional word
  std::string value;  // unquoted
};

// Splits line (without its newline) into the record word and the rest.
// False with *err (without a line number) on an unterminated quote, a bad
// escape, a control character, or an empty word (two spaces in a row).
bool SplitLine(std::string_view line, std::string* record, std::vector<LineWord>* words,
               std::string* err);

// The value as the IR writes it: bare when it needs no quotes.
std::string Quote(std::string_view value);

}  // namespace gordian::ir
