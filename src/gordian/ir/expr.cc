// This file owns parsing and printing the IR's integer expressions.
#include "gordian/ir/expr.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace gordian::ir {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  bool Parse(Expr* out, std::string* err) {
    if (!ParseOne(out, 0, err)) return false;
    SkipSpace();
    if (i_ != s_.size()) {
      *err = fmt::format("expression \"{}\": unexpected text after it at offset {}", s_, i_);
      return false;
    }
    return true;
  }

 private:
  void SkipSpace() {
    while (i_ < s_.size() && s_[i_] == ' ') i_++;
  }

  bool ParseOne(Expr* out, int depth, std::string* err) {
    SkipSpace();
    if (i_ >= s_.size()) {
      *err = fmt::format("expression \"{}\": ends where a value was expected", s_);
      return false;
    }
    if (depth > kMaxExprDepth) {
      *err = fmt::format("expression nested deeper than {} levels", kMaxExprDepth);
      return false;
    }
    if (s_[i_] == ')') {
      *err = fmt::format("expression \"{}\": unbalanced ')' at offset {}", s_, i_);
      return false;
    }
    if (s_[i_] != '(') {
      size_t j = i_;
      while (j < s_.size() && s_[j] != ' ' && s_[j] != '(' && s_[j] != ')') j++;
      out->atom.assign(s_.substr(i_, j - i_));
      i_ = j;
      return true;
    }
    i_++;
    for (;;) {
      SkipSpace();
      if (i_ >= s_.size()) {
        *err = fmt::format("expression \"{}\": missing ')'", s_);
        return false;
      }
      if (s_[i_] == ')') {
        i_++;
        break;
      }
      Expr item;
      if (!ParseOne(&item, depth + 1, err)) return false;
      out->items.push_back(std::move(item));
    }
    if (out->items.empty()) {
      *err = fmt::format("expression \"{}\": empty list ()", s_);
      return false;
    }
    return true;
  }

  std::string_view s_;
  size_t i_ = 0;
};

bool IsLiteral(const std::string& a) {
  if (a == "?" || a == "nil" || a == "true" || a == "false" || a == "const" || a == "-") return true;
  size_t k = a[0] == '-' ? 1 : 0;
  return k < a.size() && std::all_of(a.begin() + static_cast<long>(k), a.end(),
                                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

void Collect(const Expr& e, bool head, std::vector<std::string>* out) {
  if (e.IsAtom()) {
    if (head || IsLiteral(e.atom)) return;
    if (std::find(out->begin(), out->end(), e.atom) == out->end()) out->push_back(e.atom);
    return;
  }
  for (size_t i = 0; i < e.items.size(); i++) {
    // (field X name): the name is no reference.
    bool is_field_name = i == 2 && e.items[0].IsAtom() && e.items[0].atom == "field";
    bool is_method = i == 2 && e.items[0].IsAtom() && e.items[0].atom == "invoke";
    bool is_index = i == 2 && e.items[0].IsAtom() && e.items[0].atom == "extract";
    Collect(e.items[i], i == 0 || is_field_name || is_method || is_index, out);
  }
}

}  // namespace

bool ParseExpr(std::string_view text, Expr* out, std::string* err) {
  *out = Expr{};
  return Parser(text).Parse(out, err);
}

std::string FormatExpr(const Expr& e) {
  if (e.IsAtom()) return e.atom;
  std::string s = "(";
  for (size_t i = 0; i < e.items.size(); i++) {
    if (i > 0) s += ' ';
    s += FormatExpr(e.items[i]);
  }
  return s + ")";
}

std::vector<std::string> FreeRefs(const Expr& e) {
  std::vector<std::string> out;
  Collect(e, false, &out);
  return out;
}

}  // namespace gordian::ir
