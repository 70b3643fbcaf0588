// This file owns structural equality of syntax trees: the check behind the
// printer's round-trip guarantee (parse -> print -> parse gives an equal tree).
//
// Two trees are equal when they have the same node kinds in the same shape
// and the same names, literal values (as written), operators, tokens and
// flags. Positions are ignored. Grouping is part of the structure: fields
// declared together (`a, b T`, one shared type node) and declarations in one
// parenthesized group must be grouped alike in both trees. Comments are not
// nodes and are not compared.
#pragma once

#include <string>

#include "gordian/syntax/nodes.h"

namespace gordian::syntax {

// Reports whether a and b are structurally equal (both may be null). On a
// difference, and if diff is not null, *diff describes the first one found
// in pre-order, as a path from the roots and what differs, e.g.
// "decls[1].body.list[0].x.op: + vs -".
bool EqualTrees(const Node* a, const Node* b, std::string* diff);

}  // namespace gordian::syntax
