// This file owns the lexical layer of the IR text: splitting a line into
// words and undoing (and applying) the quoting of values.
#include "gordian/ir/line.h"

#include <fmt/format.h>

namespace gordian::ir {
namespace {

bool NeedsQuote(std::string_view s) {
  if (s.empty()) return true;
  for (unsigned char c : s) {
    if (c <= ' ' || c == '"' || c == '\\' || c == '=' || c == 0x7f) return true;
  }
  return false;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads a quoted string at s[*i] == '"' into *out; *i ends after the
// closing quote.
bool ReadQuoted(std::string_view s, size_t* i, std::string* out, std::string* err) {
  size_t j = *i + 1;
  while (j < s.size()) {
    char c = s[j];
    if (c == '"') {
      *i = j + 1;
      return true;
    }
    if (static_cast<unsigned char>(c) < ' ') {
      *err = fmt::format("control character 0x{:02x} inside a quoted value", c);
      return false;
    }
    if (c != '\\') {
      out->push_back(c);
      j++;
      continue;
    }
    if (j + 1 >= s.size()) break;
    char e = s[j + 1];
    switch (e) {
      case '\\': out->push_back('\\'); j += 2; break;
      case '"': out->push_back('"'); j += 2; break;
      case 'n': out->push_back('\n'); j += 2; break;
      case 't': out->push_back('\t'); j += 2; break;
      case 'x': {
        int hi = j + 2 < s.size() ? HexDigit(s[j + 2]) : -1;
        int lo = j + 3 < s.size() ? HexDigit(s[j + 3]) : -1;
        if (hi < 0 || lo < 0) {
          *err = "bad \\x escape (want two hex digits)";
          return false;
        }
        out->push_back(static_cast<char>(hi * 16 + lo));
        j += 4;
        break;
      }
      default:
        *err = fmt::format("unknown escape \\{} in a quoted value", e);
        return false;
    }
  }
  *err = "unterminated quoted value";
  return false;
}

// Reads a bare run of s from *i up to a space or '=' (stop_at_eq) or end.
bool ReadBare(std::string_view s, size_t* i, bool stop_at_eq, std::string* out,
              std::string* err) {
  size_t j = *i;
  while (j < s.size() && s[j] != ' ' && !(stop_at_eq && s[j] == '=')) {
    unsigned char c = static_cast<unsigned char>(s[j]);
    if (c < ' ' || c == 0x7f) {
      *err = fmt::format("control character 0x{:02x} in a bare value (quote it)", c);
      return false;
    }
    if (c == '"' || c == '\\') {
      *err = fmt::format("'{}' inside a bare value (quote the value)", static_cast<char>(c));
      return false;
    }
    j++;
  }
  out->assign(s.substr(*i, j - *i));
  *i = j;
  return true;
}

}  // namespace

bool SplitLine(std::string_view line, std::string* record, std::vector<LineWord>* words,
               std::string* err) {
  words->clear();
  record->clear();
  size_t i = 0;
  if (!ReadBare(line, &i, true, record, err)) return false;
  if (record->empty()) {
    *err = line.empty() ? "empty line" : "a line must start with a record word";
    return false;
  }
  if (i < line.size() && line[i] == '=') {
    *err = "a line must start with a record word, not key=value";
    return false;
  }
  while (i < line.size()) {
    if (line[i] != ' ') {
      *err = "words must be separated by one space";
      return false;
    }
    i++;
    if (i >= line.size() || line[i] == ' ') {
      *err = "empty word (two spaces in a row, or a trailing space)";
      return false;
    }
    LineWord w;
    if (line[i] == '"') {
      if (!ReadQuoted(line, &i, &w.value, err)) return false;
    } else {
      std::string first;
      if (!ReadBare(line, &i, true, &first, err)) return false;
      if (i < line.size() && line[i] == '=') {
        if (first.empty()) {
          *err = "'=' without a key";
          return false;
        }
        w.key = std::move(first);
        i++;
        if (i < line.size() && line[i] == '"') {
          if (!ReadQuoted(line, &i, &w.value, err)) return false;
        } else {
          if (!ReadBare(line, &i, false, &w.value, err)) return false;
          if (w.value.empty()) {
            *err = fmt::format("{}= has no value (an empty value is written \"\")", w.key);
            return false;
          }
        }
      } else {
        w.value = std::move(first);
      }
    }
    if (i < line.size() && line[i] != ' ') {
      *err = "a quoted value must be followed by a space or the end of the line";
      return false;
    }
    words->push_back(std::move(w));
  }
  return true;
}

std::string Quote(std::string_view s) {
  if (!NeedsQuote(s)) return std::string(s);
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < ' ' || c == 0x7f) {
          out += fmt::format("\\x{:02x}", c);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace gordian::ir
