// This file declares the ScheduleRunner a campaign uses by default: it
// runs one package's test binary, built once (driver::BuildTestBinary),
// directly under each schedule, as go test would run it through gordian's
// exec wrapper. A `go test` per run (pipeline::GoScheduleRunner) links the
// binary again every time, which is most of a short test's run; the
// binary is the same one, so the runs and their traces are the same.
// Schedules whose invocation is not this package's test (another cwd, a
// run mode, -race when the binary was built without) go to the fallback
// runner.
#pragma once

#include <string>

#include "gordian/driver/record.h"
#include "gordian/pipeline/schedule_runner.h"

namespace gordian::fuzz {

class TestBinaryRunner final : public pipeline::ScheduleRunner {
 public:
  TestBinaryRunner(driver::TestBinary binary, pipeline::ScheduleRunner* fallback)
      : binary_(std::move(binary)), fallback_(fallback) {}

  bool Run(const schedule::Schedule& s, const std::string& schedule_path,
           const pipeline::RunOptions& opt, pipeline::RunOutput* out, std::string* err) override;

  // Whether s is run from the binary (else by the fallback).
  bool Fits(const schedule::Schedule& s) const;

 private:
  driver::TestBinary binary_;
  pipeline::ScheduleRunner* fallback_;
};

}  // namespace gordian::fuzz
