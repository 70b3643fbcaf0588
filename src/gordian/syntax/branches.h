// This file declares the check of labels and branch statements (break,
// continue, goto, fallthrough) in one function body: Parse runs it in
// kCheckBranches mode, after Go's cmd/compile/internal/syntax/branches.go.
#pragma once

#include <string>

#include "gordian/syntax/function_ref.h"
#include "gordian/syntax/nodes.h"
#include "gordian/syntax/source.h"

namespace gordian::syntax {

// CheckBranches reports, through errf:
//   - misplaced breaks, continues, and fallthroughs
//   - bad labeled breaks and continues
//   - invalid, unused, duplicate, and missing labels
//   - gotos jumping over variable declarations and into blocks
// Function literals inside body are not visited (each is checked on its own).
// src resolves positions quoted in messages ("already defined at file:line:col").
void CheckBranches(const SourceFile& src, const BlockStmt* body,
                   FunctionRef<void(Pos, std::string)> errf);

}  // namespace gordian::syntax
