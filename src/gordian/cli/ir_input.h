// This file owns where the IR of `gordian ir dump` and `gordian verify`
// comes from: an IR file named with --file, or tools/irgen run on the
// packages (irgen/generator.h). Both commands read it the same way and fail
// the same way: a file that cannot be read, packages that do not build (the
// compiler's messages, then what to do), an IR the reader refuses.
#pragma once

#include <string>
#include <vector>

#include "gordian/ir/ir.h"

namespace gordian::cli {

class Progress;

struct IrInput {
  std::string file;                   // --file: read this IR (no packages then)
  std::vector<std::string> packages;  // else generate the IR of these
  std::string dir;                    // -C
  std::string tags;                   // -tags
  bool tests = true;                  // with the _test.go files
};

// Reads or generates the IR and parses it into *prog. On failure prints
// what went wrong, prefixed with cmd, to stderr and returns false: the
// command exits 2. The caller has checked the usage (packages or --file).
// progress (may be null) says that the IR is being built while irgen runs.
bool LoadIr(const std::string& cmd, const IrInput& in, Progress* progress, ir::Program* prog);

}  // namespace gordian::cli
