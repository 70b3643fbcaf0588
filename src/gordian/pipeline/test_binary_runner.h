// This file declares the ScheduleRunner that runs one package's test
// binary directly under each schedule, as go test would run it through
// gordian's exec wrapper: a fuzz campaign's binary, built once
// (driver::BuildTestBinary), or the one the recording ran, which the exec
// wrapper kept (driver::kTestBinaryFile) for the replays that confirm its
// findings. A `go test` per run (GoScheduleRunner) links the binary again
// every time, which is most of a short test's run; the binary is the same
// one, so the runs and their traces are the same.
// Schedules whose invocation is not this package's test (another cwd, a
// run mode, -race when the binary was built without) go to the fallback
// runner.
#pragma once

#include <string>

#include "gordian/driver/record.h"
#include "gordian/pipeline/schedule_runner.h"

namespace gordian::pipeline {

class TestBinaryRunner final : public ScheduleRunner {
 public:
  TestBinaryRunner(driver::TestBinary binary, ScheduleRunner* fallback)
      : binary_(std::move(binary)), fallback_(fallback) {}

  bool Run(const schedule::Schedule& s, const std::string& schedule_path,
           const RunOptions& opt, RunOutput* out, std::string* err) override;

  // Whether s is run from the binary (else by the fallback).
  bool Fits(const schedule::Schedule& s) const;

 private:
  driver::TestBinary binary_;
  ScheduleRunner* fallback_;
};

}  // namespace gordian::pipeline
