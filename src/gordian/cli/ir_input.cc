// This file implements LoadIr (ir_input.h).
#include "gordian/cli/ir_input.h"

#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gordian/cli/progress.h"
#include "gordian/irgen/generator.h"
#include "gordian/ir/reader.h"

namespace gordian::cli {

bool LoadIr(const std::string& cmd, const IrInput& in, Progress* progress, ir::Program* prog) {
  std::string err, text, name;
  if (!in.file.empty()) {
    std::ifstream f(in.file, std::ios::binary);
    if (!f) {
      fmt::print(stderr, "{}: cannot read {}\n", cmd, in.file);
      return false;
    }
    text.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    name = in.file;
  } else {
    ir::GenerateOptions opts;
    opts.packages = in.packages;
    opts.dir = in.dir;
    opts.tests = in.tests;
    opts.tags = in.tags;
    ir::GenerateResult res;
    if (progress != nullptr) {
      progress->Say(fmt::format("building the IR of {} (go/packages, go/ssa)",
                                fmt::join(in.packages, " ")));
    }
    const bool generated = ir::NewGoIrGenerator()->Generate(opts, &res, &err);
    if (progress != nullptr) progress->Clear();
    if (!generated) {
      fmt::print(stderr, "{}: {}\n", cmd, err);
      return false;
    }
    if (res.build_failed) {
      fmt::print(stderr, "{}{}", res.messages, res.messages.ends_with('\n') ? "" : "\n");
      fmt::print(stderr, "{}: the packages do not build; fix the errors above\n", cmd);
      return false;
    }
    text = std::move(res.ir);
    name = "the generated IR";
  }
  if (!ir::ReadProgram(text, name, prog, &err)) {
    fmt::print(stderr, "{}: {}\n", cmd, err);
    return false;
  }
  return true;
}

}  // namespace gordian::cli
