// This file declares the ScheduleRunners that run a binary already built
// directly under each schedule, instead of a `go test` or `go build` per
// run (GoScheduleRunner), which links the binary again every time: most
// of a short program's replay. The binary is the same one, so the runs and
// their traces are the same.
//   TestBinaryRunner: one package's test binary, run as go test would run
//   it through gordian's exec wrapper: a fuzz campaign's, built once
//   (driver::BuildTestBinary), or the one a recording ran, which the exec
//   wrapper kept (driver::kKeptBinaryFile) for the replays that confirm its
//   findings.
//   ProgramBinaryRunner: the program a `gordian run` recording ran, kept
//   beside its trace (driver::ProgramBinary), run with its arguments.
// Schedules whose invocation is not the binary's (another package or cwd,
// another mode, -race when the binary was built without) go to the
// fallback runner.
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

class ProgramBinaryRunner final : public ScheduleRunner {
 public:
  // race: the program was built with -race (its trace says so).
  ProgramBinaryRunner(driver::ProgramBinary binary, bool race, ScheduleRunner* fallback)
      : binary_(std::move(binary)), race_(race), fallback_(fallback) {}

  bool Run(const schedule::Schedule& s, const std::string& schedule_path,
           const RunOptions& opt, RunOutput* out, std::string* err) override;

  // Whether s is run from the binary: a run of the same arguments from the
  // same directory (else by the fallback).
  bool Fits(const schedule::Schedule& s) const;

 private:
  driver::ProgramBinary binary_;
  bool race_;
  ScheduleRunner* fallback_;
};

}  // namespace gordian::pipeline
