// This file is the public entry point of the Go front end: Parse, the
// diagnostics it reports, and the error handler interface.
//
// Parsing never throws and never stops at the first error: each syntax error
// goes to the handler (in source order, at most one per position) and the
// parser resynchronises at the next statement or declaration. Errors print in
// the Go compiler's style: "file:line:col: syntax error: unexpected X, expected Y".
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gordian/syntax/arena.h"
#include "gordian/syntax/nodes.h"
#include "gordian/syntax/source.h"

namespace gordian::syntax {

struct Error {
  Pos pos = kNoPos;
  std::string msg;  // without position, e.g. "syntax error: unexpected newline, expected {"
};

// Called for every error, in the order found. May be empty: errors are then
// only counted.
using ErrorHandler = std::function<void(const Error&)>;

enum ParseMode : unsigned {
  kParseDefault = 0,
  kCheckBranches = 1 << 0,  // report misplaced break/continue/goto/fallthrough and labels
};

struct ParseResult {
  File* file = nullptr;  // never null: a file that fails to parse still yields a (partial) File
  int error_count = 0;
  Error first_error;     // valid when error_count > 0
};

// Parses one Go source file. All nodes are allocated in *arena, which must
// outlive the result; string_views point into src.
ParseResult Parse(const SourceFile& src, Arena* arena, const ErrorHandler& errh,
                  unsigned mode = kParseDefault);

// "file:line:col: msg" for an error, resolved through the file.
std::string FormatError(const SourceFile& src, const Error& err);

}  // namespace gordian::syntax
