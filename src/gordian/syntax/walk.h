// This file owns generic traversal of the syntax tree: the direct children of
// every node kind (ForEachChild) and pre-order walks built on it (Inspect).
//
// Children come in source order and null (absent) children are skipped. Lists
// are walked element by element; a StructType yields field 0, tag 0, field 1,
// tag 1, ... Neither function allocates: callbacks are FunctionRefs and the
// walk recursion lives on the call stack.
//
// Shared nodes: fields declared together (`a, b T`) share one type node. The
// Field is its type's parent, so ForEachChild(field) always yields the type,
// and a loop over a field list sees the shared type once per field, like Go's
// syntax.Walk. Inspect instead visits every node exactly once: a shared type
// is visited under the first field of its group only.
#pragma once

#include "gordian/syntax/function_ref.h"
#include "gordian/syntax/nodes.h"

namespace gordian::syntax {

// Calls fn(child) for each non-null direct child of n, in source order.
// n must not be null.
void ForEachChild(Node* n, FunctionRef<void(Node*)> fn);
void ForEachChild(const Node* n, FunctionRef<void(const Node*)> fn);

// Pre-order walk: calls pre(n) for root and, when pre returns true, walks n's
// children the same way. Each node is visited once (see shared nodes above).
void Inspect(Node* root, FunctionRef<bool(Node*)> pre);
void Inspect(const Node* root, FunctionRef<bool(const Node*)> pre);

// As Inspect, and calls post(n) after n's children were walked, for every n
// for which pre returned true (so pre/post pairs nest like parentheses).
void Inspect(Node* root, FunctionRef<bool(Node*)> pre, FunctionRef<void(Node*)> post);

}  // namespace gordian::syntax
