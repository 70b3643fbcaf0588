// This file is the libFuzzer target of the IR reader and what reads its
// output: `gordian verify --file` takes an IR file from the user, so
// ReadProgram must never crash, hang or use unbounded memory on any bytes;
// a program it accepts must write back to text that reads again to the same
// text; and the model extraction and the model checker (with small limits)
// must handle every accepted program: each extracted model is valid
// (Validate) and checking it ends. Build and run it with scripts/fuzz
// (docs/fuzzing.md).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gordian/ir/reader.h"
#include "gordian/ir/writer.h"
#include "gordian/verify/checker.h"
#include "gordian/verify/extract.h"
#include "gordian/verify/model.h"

namespace {

void Check(bool ok, const char* what, const std::string& detail = "") {
  if (!ok) {
    std::fprintf(stderr, "verify_fuzz: check failed: %s\n%s\n", what, detail.c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gordian;
  std::string text(reinterpret_cast<const char*>(data), size);
  ir::Program p;
  std::string err;
  if (!ir::ReadProgram(text, "fuzz", &p, &err)) {
    Check(!err.empty(), "a refused program says why");
    return 0;
  }
  std::string written = ir::WriteProgram(p);
  ir::Program again;
  Check(ir::ReadProgram(written, "written", &again, &err), "a written program reads back", err);
  Check(ir::WriteProgram(again) == written, "write, read, write is stable");

  verify::ExtractOptions eo;
  eo.max_instructions = 2000;
  eo.default_values = {0, 1, 2};
  for (const verify::Model& m : verify::ExtractModels(p, eo)) {
    Check(verify::Validate(m, &err), "an extracted model is valid", err + "\n" + verify::Print(m));
    verify::CheckOptions co;
    co.max_states = 2000;
    co.max_depth = 200;
    co.param_values.assign(m.params.size(), 1);
    verify::Check(m, co);
  }
  return 0;
}
