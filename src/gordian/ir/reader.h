// This file declares ReadProgram: the IR text (docs/ir-format.md) into a
// checked Program. Everything is checked that later stages rely on: the
// version line, record order (func, then its param/free, block, op, case
// and loop records; externs; end), each record's and op's fields against
// records.def and op_kinds.def, each value's syntax (field_keys.def), block
// indexes and function ids that resolve, and a final "end" line (a
// truncated file is an error). Hostile input gets an error naming the line,
// never a crash: the reader is also run by the ir fuzz-style tests.
#pragma once

#include <string>
#include <string_view>

#include "gordian/ir/ir.h"

namespace gordian::ir {

// Lines longer than this are refused (the generator's longest lines are
// call records with many arguments; a few KiB).
inline constexpr size_t kMaxLineBytes = 1 << 20;

// name names the text in messages ("<name>:<line>: ..."). False with *err
// on the first error; *out is then unspecified.
bool ReadProgram(std::string_view text, const std::string& name, Program* out, std::string* err);

// Reads the file at path (ReadProgram with the path as name).
bool ReadProgramFile(const std::string& path, Program* out, std::string* err);

}  // namespace gordian::ir
