// This file declares Record: build a Go program or its tests with the
// stock toolchain and the runtime hooks overlaid on std (`-overlay`), run it
// with the recorder switched on, and leave the trace(s) in a directory.
//
//   test mode: go test -overlay=O -count=1 -exec '<gordian> record --exec-wrapper'
//              <user's go test flags and packages>
//     go test runs each package's test binary through the wrapper, in the
//     package directory; the wrapper gives the binary its own trace directory
//     (trace_dirs.h) and execs it, so go test's output, caching rules and exit
//     status are untouched (except -count=1: a cached result records nothing).
//   run mode:  go build -overlay=O -o <scratch>/<name> <build flags> <package>,
//              then the binary with the user's arguments, in the user's cwd.
//
// The user's tree is never written to (the overlay and binaries live in the
// cache directory, work_dir.h), except the trace directory asked for.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gordian/driver/build_errors.h"
#include "gordian/driver/process.h"
#include "gordian/driver/trace_dirs.h"

namespace gordian::driver {

enum class RecordMode { kTest, kRun };

struct RecordOptions {
  RecordMode mode = RecordMode::kRun;
  // test: go test flags, packages, test binary flags, as given to go test.
  // run:  go build flags, then the package (or .go files), then the
  //       program's arguments (a leading "--" before them is dropped).
  std::vector<std::string> args;
  std::string out_dir = "gordian-trace";  // relative to cwd unless absolute
  std::string cwd;                        // "": the current directory
  // Kill the run after this (0: never), its build included: in test mode
  // it covers go test as a whole, in run mode the build (which has its own
  // limit too, build_seconds) and the program together.
  double wall_seconds = 600;
  double build_seconds = 1800;
  bool pass_through = true;               // the program's output to our stdout/stderr
  bool stdout_to_stderr = false;          // its stdout to our stderr (--json - on stdout)
  std::map<std::string, std::string> env; // more environment for the program
  // GOMAXPROCS of the program only (0: unchanged). The go command that
  // builds it keeps all cores: in test mode the exec wrapper sets it just
  // before it runs the test binary.
  int gomaxprocs = 0;
  // test mode: false adds -vet=off (unless args set -vet). Replays and
  // fuzz runs of a recorded test turn it off: the recording already went
  // through vet, and vet is a third of a short replay's time.
  bool vet = true;
  std::string self_exe;                   // the gordian binary ("": this process)
  // Keep the binary that ran in its trace directory (kKeptBinaryFile), so
  // that the replays that confirm its findings run it again without a go
  // test or go build that links it again. test mode: the exec wrapper
  // keeps each package's test binary; run mode: the program is moved there
  // (RecordResult::program says how to run it).
  bool keep_binary = false;
  // test mode: watches go test's output and ticks (ProcessSpec::observe).
  std::function<void(int stream, std::string_view data)> observe;
};

// The program of a `gordian run` recording, kept (RecordOptions::
// keep_binary) to be run again under schedules without go build.
struct ProgramBinary {
  std::string path;                       // "" when none was kept
  std::string cwd;                        // where it ran
  std::string record_cwd;                 // RecordOptions::cwd (else the current directory)
  std::vector<std::string> record_args;   // RecordOptions::args it was built and run from
  std::vector<std::string> program_args;  // its own arguments among them
  std::vector<std::string> roots;         // GORDIAN_ROOTS
};

struct RecordResult {
  std::string out_dir;       // absolute
  std::string go_version;
  std::vector<std::string> roots;  // GORDIAN_ROOTS
  bool build_failed = false;
  std::vector<BuildError> build_errors;
  // test: the go test command; run: the program (after a successful build).
  ProcessResult run;
  std::vector<PackageTrace> traces;
  std::string command;       // what was run, for messages ("go test ...")
  ProgramBinary program;     // run mode with keep_binary
};

// Returns false with *err when gordian itself cannot proceed (no go, no
// hooks, an anchor that no longer matches std, the output directory). A
// build failure or a failing, panicking, deadlocked or killed program is a
// successful Record: see *result.
bool Record(const RecordOptions& opts, RecordResult* result, std::string* err);

// A package's test binary, built once with the hooks overlaid, to be run
// many times without the go command (gordian fuzz: a go test per run
// links the binary again, which is most of a short test's run time).
struct TestBinary {
  std::string path;         // the executable (<package name>.test)
  std::string package_dir;  // where it runs (go test runs it there)
  std::string import_path;
  std::vector<std::string> roots;  // GORDIAN_ROOTS
  bool race = false;        // built with -race
  std::string go_version;
};

// The test binary a test-mode recording kept beside the trace of one of its
// packages (RecordOptions::keep_binary), ready for a TestBinaryRunner:
// false when none was kept there.
bool KeptTestBinary(const PackageTrace& p, const RecordResult& rec, TestBinary* out);

// Builds the test binary of the package in package_dir as Record's test
// mode would (`go test -c -overlay=O -o BIN [-race] [build_flags] .`), into
// bin_dir (which must exist). A build failure is false with the compiler's
// first errors in *err.
bool BuildTestBinary(const std::string& package_dir, bool race,
                     const std::vector<std::string>& build_flags, const std::string& bin_dir,
                     double wall_seconds, TestBinary* out, std::string* err);

// One run of a kept or built binary (RecordTestBinary, RecordProgramBinary).
struct BinaryRun {
  std::vector<std::string> args;           // test binary flags (-test.run=...), or a program's
  std::string out_dir;                     // the recording's directory (as Record's)
  std::map<std::string, std::string> env;  // more environment for the binary
  int gomaxprocs = 0;
  double wall_seconds = 600;
  bool pass_through = true;
};

// Runs b with the recorder on, as go test would run it through the exec
// wrapper (in its package directory, -test.paniconexit0 first), and lists
// the trace it left: *result as Record's in test mode (never build_failed).
bool RecordTestBinary(const TestBinary& b, const BinaryRun& run, RecordResult* result,
                      std::string* err);

// Runs the kept program b with the recorder on, as Record's run mode ran
// it (in its directory, its stdin inherited), with run.args as its
// arguments, and lists the trace it left in run.out_dir.
bool RecordProgramBinary(const ProgramBinary& b, const BinaryRun& run, RecordResult* result,
                         std::string* err);

// The go test exec wrapper: `gordian record --exec-wrapper BINARY ARGS...`.
// Claims a trace directory for the package in the current directory under
// $GORDIAN_RECORD_OUT, sets GORDIAN_TRACE_DIR and execs BINARY. Returns only
// on failure (exit status 2 after a message).
int ExecWrapper(const std::vector<std::string>& args);

// The flag go test is given to invoke the wrapper.
inline constexpr const char* kExecWrapperFlag = "--exec-wrapper";

}  // namespace gordian::driver
