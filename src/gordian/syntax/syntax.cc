// This file implements the diagnostics helpers of syntax.h.
#include "gordian/syntax/syntax.h"

#include <fmt/format.h>

namespace gordian::syntax {

std::string FormatError(const SourceFile& src, const Error& err) {
  if (!src.Contains(err.pos)) return fmt::format("{}: {}", src.filename(), err.msg);
  Position p = src.PositionAt(src.OffsetOf(err.pos));
  return fmt::format("{}:{}:{}: {}", src.filename(), p.line, p.column, err.msg);
}

}  // namespace gordian::syntax
