// This file owns printing syntax trees back to Go source, comments included.
//
// The printer is a port of go/printer (the engine behind gofmt) onto Gordian's
// AST: it follows the original line breaks, aligns columns with elastic
// tabstops (tabwriter.h) and interleaves every comment of the file by
// position. Output guarantees, checked over all of GOROOT by
// roundtrip_goroot_test.cc:
// - the output parses without errors to a tree EqualTrees to the input;
// - every comment of File::comments is printed, text unchanged, in order;
// - a comment that began its source line (a //go: directive, say) begins
//   its output line, one that followed code on its line still does, and a
//   //line directive in column 1 stays in column 1;
// - a file that was gofmt-formatted mostly comes out byte-identical.
// Deliberate differences from gofmt, all to keep trees and comments equal:
// parentheses are never removed, literals are not normalized, import paths
// are not rewritten, doc comments are not reformatted, /* */ comments are
// printed verbatim (not re-indented), empty statements are printed as ";",
// and a comment keeps its place at the start or the end of a line where
// gofmt would move it (`f(a, // c` + newline + `)`).
//
// Layout decisions use line numbers, so the tree should come with its
// SourceFile (File::source). A hand-built tree (no positions) prints in a
// default layout: one statement per line, lists on one line. Nodes without
// positions inside a parsed tree (a rewrite's insertions) print that way
// among the original statements and comments.
//
// Trees of any depth print: deep recursion continues on a fresh stack
// (stack_guard.h).
#pragma once

#include <string>

#include "gordian/syntax/nodes.h"

namespace gordian::syntax {

// Prints a whole file, gofmt-style, ending in a newline.
std::string PrintFile(const File& f);

// Prints one node: an expression, type, statement, clause, field or
// declaration (or a File). If file is not null, n must belong to it; its
// source gives the layout and the comments inside n's extent are printed.
// The result has no trailing newline.
std::string PrintNode(const Node* n, const File* file = nullptr);

}  // namespace gordian::syntax
