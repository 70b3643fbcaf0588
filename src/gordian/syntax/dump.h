// This file owns the textual dump of a syntax tree, as printed by
// `gordian parse --dump`: one node per line, indented by depth, each line
// "role: Kind key-fields @file:line:col" where role names the field of the
// parent that holds the node (x, sel, args[1], ...) and the position is the
// node's pos (its identifying token).
//
//   File @a.go:1:1
//     pkg_name: Name p @a.go:1:9
//     decls[0]: FuncDecl @a.go:3:1
//       name: Name main @a.go:3:6
//
// Absent optional fields are not printed. Comments follow the tree.
#pragma once

#include <string>

#include "gordian/syntax/nodes.h"
#include "gordian/syntax/source.h"

namespace gordian::syntax {

std::string DumpFile(const File& f);

// Dumps any subtree; src (may be null) resolves positions, else they print
// as offsets "@+123" (or "@-" for none).
std::string DumpNode(const Node* n, const SourceFile* src);

}  // namespace gordian::syntax
