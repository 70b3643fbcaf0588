// This file implements TestBinaryRunner and ProgramBinaryRunner (binary_runner.h).
#include "gordian/pipeline/binary_runner.h"

#include <filesystem>

namespace gordian::pipeline {

namespace fs = std::filesystem;

namespace {

// The run of a binary under schedule s (the file at schedule_path), with
// args as the binary's own arguments.
driver::BinaryRun ReplayRun(const schedule::Schedule& s, const std::string& schedule_path,
                            const RunOptions& opt, std::vector<std::string> args) {
  driver::BinaryRun run;
  run.args = std::move(args);
  run.out_dir = opt.out_dir;
  run.wall_seconds = opt.wall_seconds;
  run.pass_through = opt.pass_through;
  run.gomaxprocs = s.cmd.gomaxprocs;
  run.env = ReplayEnvironment(schedule_path, opt);
  return run;
}

}  // namespace

bool TestBinaryRunner::Fits(const schedule::Schedule& s) const {
  if (s.cmd.mode != "test" || s.cmd.race != binary_.race) return false;
  std::error_code ec;
  if (!fs::equivalent(s.cmd.cwd, binary_.package_dir, ec)) return false;
  // Only test binary flags and the package "." (schedule::InvocationOf).
  for (const std::string& a : s.cmd.args) {
    if (a != "." && a.rfind("-test.", 0) != 0) return false;
  }
  return true;
}

bool TestBinaryRunner::Run(const schedule::Schedule& s, const std::string& schedule_path,
                           const RunOptions& opt, RunOutput* out,
                           std::string* err) {
  if (!Fits(s)) {
    if (fallback_ == nullptr) {
      *err = "the schedule is not of the test binary's package";
      return false;
    }
    return fallback_->Run(s, schedule_path, opt, out, err);
  }
  *out = RunOutput();
  std::vector<std::string> args;
  for (const std::string& a : s.cmd.args) {
    if (a != ".") args.push_back(a);
  }
  driver::BinaryRun run = ReplayRun(s, schedule_path, opt, std::move(args));
  if (!driver::RecordTestBinary(binary_, run, &out->record, err)) return false;
  return ReadScheduledTrace(out, err);
}

bool ProgramBinaryRunner::Fits(const schedule::Schedule& s) const {
  if (s.cmd.mode != "run" || s.cmd.race != race_ || s.cmd.args != binary_.record_args) {
    return false;
  }
  std::error_code ec;
  return fs::equivalent(s.cmd.cwd.empty() ? "." : s.cmd.cwd, binary_.record_cwd, ec);
}

bool ProgramBinaryRunner::Run(const schedule::Schedule& s, const std::string& schedule_path,
                              const RunOptions& opt, RunOutput* out, std::string* err) {
  if (!Fits(s)) {
    if (fallback_ == nullptr) {
      *err = "the schedule is not of the recorded program";
      return false;
    }
    return fallback_->Run(s, schedule_path, opt, out, err);
  }
  *out = RunOutput();
  driver::BinaryRun run = ReplayRun(s, schedule_path, opt, binary_.program_args);
  if (!driver::RecordProgramBinary(binary_, run, &out->record, err)) return false;
  return ReadScheduledTrace(out, err);
}

}  // namespace gordian::pipeline
