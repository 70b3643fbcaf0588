// Test helpers for the *_go_test.cc files: build Go programs with the runtime
// hooks (once per test binary), run them with recording on or off, and read
// their traces with the C++ reader.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gordian/instrument/runtime_hooks.h"
#include "gordian/trace/trace.h"

namespace gordian::instrument::gotest {

namespace fs = std::filesystem;

inline std::string SourceDir() {
  const char* s = std::getenv("GORDIAN_SOURCE_DIR");
  return s ? s : GORDIAN_SOURCE_DIR_DEFAULT;
}

inline std::string TestdataDir() { return SourceDir() + "/runtime/testdata/record"; }

inline std::string ReadFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

struct RunResult {
  int status = -1;  // exit status, or 128+signal
  std::string out, err;
};

// Runs a shell command line with stdout and stderr captured into files of
// dir. Returns the exit status.
inline RunResult Shell(const std::string& cmd, const fs::path& dir) {
  RunResult r;
  const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  std::string line = "( " + cmd + " ) >" + ShellQuote(out.string()) + " 2>" + ShellQuote(err.string());
  int st = std::system(line.c_str());
  if (st == -1) return r;
  if (WIFEXITED(st)) {
    r.status = WEXITSTATUS(st);
  } else if (WIFSIGNALED(st)) {
    r.status = 128 + WTERMSIG(st);
  }
  r.out = ReadFile(out);
  r.err = ReadFile(err);
  return r;
}

// The per-binary setup: GOROOT and the std overlay with the hooks.
class Env {
 public:
  static Env& Get() {
    static Env env;
    return env;
  }
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  const fs::path& work() const { return work_; }
  const std::string& overlay() const { return overlay_; }

  // The work directory is per process (ctest runs each test in its own):
  // removed at exit, or every test run would leave its 40 MB of hooks.
  ~Env() {
    std::error_code ec;
    if (!work_.empty()) fs::remove_all(work_, ec);
  }
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  // go build [-overlay] -o out src (a .go file or a package directory).
  // Returns "" or the build output.
  std::string Build(const std::string& src, const fs::path& out, bool hooks) {
    std::string cmd;
    if (fs::is_directory(src)) cmd = "cd " + ShellQuote(src) + " && ";
    cmd += "go build";
    if (hooks) cmd += " -overlay=" + ShellQuote(overlay_);
    cmd += " -o " + ShellQuote(out.string()) + " ";
    cmd += fs::is_directory(src) ? "." : ShellQuote(src);
    fs::create_directories(out.parent_path());
    RunResult r = Shell(cmd, out.parent_path());
    return r.status == 0 ? "" : "go build failed: " + r.out + r.err;
  }

  // go test -c [-overlay] -o out in dir.
  std::string BuildTest(const std::string& dir, const fs::path& out, bool hooks) {
    std::string cmd = "cd " + ShellQuote(dir) + " && go test -c";
    if (hooks) cmd += " -overlay=" + ShellQuote(overlay_);
    cmd += " -o " + ShellQuote(out.string());
    fs::create_directories(out.parent_path());
    RunResult r = Shell(cmd, out.parent_path());
    return r.status == 0 ? "" : "go test -c failed: " + r.out + r.err;
  }

 private:
  Env() {
    std::string goroot;
    {
      FILE* p = popen("go env GOROOT 2>/dev/null", "r");
      if (p != nullptr) {
        char buf[4096];
        while (fgets(buf, sizeof buf, p) != nullptr) goroot += buf;
        pclose(p);
      }
      while (!goroot.empty() && (goroot.back() == '\n' || goroot.back() == '\r')) goroot.pop_back();
    }
    if (goroot.empty()) {
      error_ = "no Go toolchain on PATH";
      return;
    }
    work_ = fs::path(testing::TempDir()) / ("gordian_record_gotest_" + std::to_string(getpid()));
    fs::remove_all(work_);
    std::vector<OverlayPair> replace;
    std::string err;
    if (!BuildStdOverlay(goroot, SourceDir() + "/runtime/std", (work_ / "hooks").string(), &replace,
                         &err)) {
      error_ = err;
      return;
    }
    overlay_ = (work_ / "hooks" / "overlay.json").string();
    std::ofstream(overlay_) << OverlayJson(replace);
  }

  std::string error_;
  fs::path work_;
  std::string overlay_;
};

// Runs bin with args; with trace_dir non-empty, recording into it (with
// GORDIAN_ROOTS = the testdata directory). extra_env is prepended as-is.
inline RunResult RunProgram(const fs::path& bin, const std::string& args, const fs::path& trace_dir,
                            const std::string& extra_env = "", int timeout_s = 120) {
  std::string env;
  if (!trace_dir.empty()) {
    fs::remove_all(trace_dir);
    env = "GORDIAN_TRACE_DIR=" + ShellQuote(trace_dir.string()) +
          " GORDIAN_ROOTS=" + ShellQuote(TestdataDir()) + " ";
  }
  std::string cmd = "env " + env + extra_env + " timeout -s KILL " + std::to_string(timeout_s) +
                    " " + ShellQuote(bin.string()) + " " + args;
  return Shell(cmd, bin.parent_path());
}

// Records of one goroutine of a kind.
inline std::vector<trace::Record> OfKind(const trace::Trace& t, const trace::Goroutine& g,
                                         trace::Kind k) {
  std::vector<trace::Record> out;
  for (const trace::Record& r : t.RecordsOf(g)) {
    if (r.kind == k) out.push_back(r);
  }
  return out;
}

inline size_t CountKind(const trace::Trace& t, trace::Kind k) {
  size_t n = 0;
  for (const trace::Record& r : t.records) n += r.kind == k;
  return n;
}

inline const trace::Goroutine* ByStableId(const trace::Trace& t, const std::string& id) {
  for (const trace::Goroutine& g : t.goroutines) {
    if (g.stable_id == id) return &g;
  }
  return nullptr;
}

}  // namespace gordian::instrument::gotest
