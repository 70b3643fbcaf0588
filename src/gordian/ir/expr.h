// This file declares the IR's integer expressions (docs/ir-format.md,
// "Values and expressions"): capacities, Add deltas, durations, loop
// conditions and bounds, written as prefix S-expressions: an atom (a
// literal, a value reference, "?" for unknown) or "(" head args... ")",
// e.g. (len p1), (+ p0 1), (call fn:F3 t2), (field t1 n).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gordian::ir {

struct Expr {
  std::string atom;         // set for an atom
  std::vector<Expr> items;  // set for a list: items[0] is the head
  bool IsAtom() const { return items.empty(); }
};

// Deeper nesting is refused (the generator writes at most 6 levels).
inline constexpr int kMaxExprDepth = 64;

// Parses text into *out; false with *err on unbalanced parentheses, an
// empty list, trailing text or nesting deeper than kMaxExprDepth.
bool ParseExpr(std::string_view text, Expr* out, std::string* err);

// The text of e (ParseExpr's inverse).
std::string FormatExpr(const Expr& e);

// The references an expression reads (atoms that are neither literals nor
// operator heads), in order of appearance, without repeats.
std::vector<std::string> FreeRefs(const Expr& e);

}  // namespace gordian::ir
