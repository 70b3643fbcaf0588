// This file declares WriteProgram: a Program back to the IR text, in the
// generator's own record and field order, so that reading and writing the
// generator's output gives the same bytes (ir tests check it). `gordian ir
// dump` prints the IR this way, after the reader has checked it.
#pragma once

#include <string>

#include "gordian/ir/ir.h"

namespace gordian::ir {

std::string WriteProgram(const Program& p);

}  // namespace gordian::ir
