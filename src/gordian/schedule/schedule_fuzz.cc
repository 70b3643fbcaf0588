// This file is the libFuzzer target of the schedule reader: a schedule is a
// file people share, so ParseSchedule must never crash, hang or use
// unbounded memory on any bytes, and what it accepts must be a schedule
// gordian would replay: its command line passes the invocation check, and
// writing it out and reading it back gives the same schedule.
// Build and run it with scripts/fuzz (docs/fuzzing.md).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gordian/schedule/invocation_check.h"
#include "gordian/schedule/schedule.h"

namespace {

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "schedule_fuzz: check failed: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gordian::schedule;
  std::string text(reinterpret_cast<const char*>(data), size);
  Schedule s;
  std::string err;
  if (!ParseSchedule(text, &s, &err)) {
    Check(!err.empty(), "a refused schedule says why");
    return 0;
  }
  if (!s.cmd.mode.empty() || !s.cmd.args.empty()) {
    size_t bad = 0;
    std::string why;
    Check(CheckInvocationArgs(s.cmd.mode, s.cmd.args, &bad, &why),
          "an accepted schedule's command line passes the invocation check");
  }
  Schedule again;
  std::string text2 = FormatSchedule(s);
  Check(ParseSchedule(text2, &again, &err), "a written schedule reads back");
  Check(FormatSchedule(again) == text2, "write, read, write is stable");
  return 0;
}
