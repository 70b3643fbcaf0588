// Unit tests of the driver pieces that need no Go toolchain: processes
// (status, capture, limits, process-group kill), build-error parsing, and
// the record output layout.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "gordian/driver/build_errors.h"
#include "gordian/driver/process.h"
#include "gordian/driver/record.h"
#include "gordian/driver/trace_dirs.h"
#include "gordian/util/temp_dir_test.h"

namespace gordian::driver {
namespace {

namespace fs = std::filesystem;

ProcessResult RunSh(std::vector<std::string> argv, double timeout = 0) {
  ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.pass_through = false;
  spec.timeout_seconds = timeout;
  spec.kill_grace_seconds = 0.5;
  ProcessResult r;
  std::string err;
  EXPECT_TRUE(RunProcess(spec, &r, &err)) << err;
  return r;
}

TEST(ProcessTest, ExitStatusAndCapture) {
  ProcessResult r = RunSh({"sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.Describe(), "exit status 3");
}

TEST(ProcessTest, EnvironmentAndCwd) {
  ProcessSpec spec;
  spec.argv = {"sh", "-c", "echo \"$GD_X:$HOME:$(pwd)\""};
  spec.set_env["GD_X"] = "1";
  spec.unset_env = {"HOME"};
  spec.cwd = "/";
  spec.pass_through = false;
  ProcessResult r;
  std::string err;
  ASSERT_TRUE(RunProcess(spec, &r, &err)) << err;
  EXPECT_EQ(r.out, "1::/\n");
}

TEST(ProcessTest, NotFound) {
  ProcessSpec spec;
  spec.argv = {"gordian-no-such-program"};
  ProcessResult r;
  std::string err;
  EXPECT_FALSE(RunProcess(spec, &r, &err));
  EXPECT_NE(err.find("not found"), std::string::npos) << err;
  spec.argv = {"sh"};
  spec.cwd = "/no/such/dir";
  EXPECT_FALSE(RunProcess(spec, &r, &err));
  EXPECT_NE(err.find("no such directory"), std::string::npos) << err;
}

TEST(ProcessTest, KilledBySignal) {
  ProcessResult r = RunSh({"sh", "-c", "kill -9 $$"});
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_EQ(r.Describe(), "killed by signal 9 (SIGKILL)");
}

TEST(ProcessTest, TimeoutKillsTheWholeGroup) {
  // A grandchild that ignores SIGTERM and holds the pipes: it must still go.
  auto start = std::chrono::steady_clock::now();
  ProcessResult r = RunSh({"sh", "-c", "trap '' TERM; (trap '' TERM; sleep 30) & sleep 30"}, 0.3);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_NE(r.signal, 0);
  EXPECT_LT(secs, 5.0);
}

TEST(ProcessTest, LeftoverBackgroundProcessDoesNotHang) {
  // The child exits at once; its background child keeps stdout open.
  auto start = std::chrono::steady_clock::now();
  ProcessResult r = RunSh({"sh", "-c", "sleep 30 & echo bye"});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "bye\n");
  EXPECT_LT(secs, 5.0);
}

TEST(ProcessTest, CaptureLimit) {
  ProcessSpec spec;
  spec.argv = {"sh", "-c", "head -c 100000 /dev/zero"};
  spec.pass_through = false;
  spec.capture_limit = 1000;
  ProcessResult r;
  std::string err;
  ASSERT_TRUE(RunProcess(spec, &r, &err)) << err;
  EXPECT_EQ(r.out.size(), 1000u);
  EXPECT_EQ(r.dropped, 99000u);
}

TEST(ProcessTest, LookPath) {
  EXPECT_EQ(LookPath("sh").empty(), false);
  EXPECT_EQ(LookPath("gordian-no-such-program"), "");
  EXPECT_EQ(LookPath("/bin/sh"), "/bin/sh");
}

// go run has no -o; with it, go build wrote the binary where -o said and
// the run found nothing to run. Refused before anything is built.
TEST(RecordArgsTest, RunRefusesOutputFlag) {
  fs::path out = fs::temp_directory_path() / ("gordian-o-" + std::to_string(getpid()));
  for (std::vector<std::string> args : {std::vector<std::string>{"-o", out.string(), "."},
                                        std::vector<std::string>{"-o=" + out.string()}}) {
    RecordOptions opts;
    opts.mode = RecordMode::kRun;
    opts.args = args;
    opts.out_dir = (fs::temp_directory_path() / "gordian-o-trace").string();
    RecordResult res;
    std::string err;
    EXPECT_FALSE(Record(opts, &res, &err));
    EXPECT_NE(err.find("-o cannot be used"), std::string::npos) << err;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(opts.out_dir));
  }
}

TEST(BuildErrorsTest, CompilerAndGoCommandErrors) {
  std::string out =
      "# example.com/x\n"
      "./main.go:5:2: undefined: y\n"
      "./main.go:7: syntax error\n"
      "    x_test.go:12: this is test output, not a build error\n"
      "\t/usr/local/go/src/runtime/panic.go:12 +0x1\n"
      "go: cannot find main module, but found .git/config\n"
      "FAIL\texample.com/x [build failed]\n";
  std::vector<BuildError> e = ParseBuildErrors(out);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].String(), "./main.go:5:2: undefined: y");
  EXPECT_EQ(e[0].line, 5u);
  EXPECT_EQ(e[0].column, 2u);
  EXPECT_EQ(e[1].String(), "./main.go:7: syntax error");
  EXPECT_EQ(e[2].file, "");
  EXPECT_TRUE(TestBuildFailed(out));
  EXPECT_FALSE(TestBuildFailed("ok  \texample.com/x\t0.1s\n"));
}

class TraceDirsTest : public util::TempDirTest {
 protected:
  void Touch(const std::string& path, const std::string& text = "") {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path) << text;
  }
};

TEST_F(TraceDirsTest, EscapeAndImportPath) {
  EXPECT_EQ(EscapePackagePath("example.com/x/y-z_w"), "example.com_x_y-z_w");
  EXPECT_EQ(EscapePackagePath("a b/c:d"), "a-b_c-d");
  EXPECT_EQ(EscapePackagePath(""), "pkg");
  EXPECT_EQ(EscapePackagePath(".."), "pkg..");
  Touch(dir_ + "/m/go.mod", "// comment\nmodule \"example.com/m\"\n\ngo 1.22\n");
  fs::create_directories(dir_ + "/m/a/b");
  EXPECT_EQ(ImportPathOfDir(dir_ + "/m"), "example.com/m");
  EXPECT_EQ(ImportPathOfDir(dir_ + "/m/a/b"), "example.com/m/a/b");
  EXPECT_EQ(ImportPathOfDir(dir_), "");
}

TEST_F(TraceDirsTest, ClaimListAndPrepare) {
  std::string base = dir_ + "/out";
  std::string err, d1, d2, d3;
  ASSERT_TRUE(PrepareOutputDir(base, &err)) << err;
  ASSERT_TRUE(ClaimPackageDir(base, "a/b", "/src/a/b", &d1, &err)) << err;
  ASSERT_TRUE(ClaimPackageDir(base, "a_b", "/src/a_b", &d2, &err)) << err;  // clash
  ASSERT_TRUE(ClaimPackageDir(base, "c", "/src/c", &d3, &err)) << err;
  EXPECT_EQ(d1, base + "/a_b");
  EXPECT_EQ(d2, base + "/a_b-2");
  Touch(d1 + "/events.bin");
  Touch(d2 + "/events.bin");  // d3 ran nothing
  std::vector<PackageTrace> ts;
  ASSERT_TRUE(ListTraces(base, &ts, &err)) << err;
  ASSERT_EQ(ts.size(), 2u);
  EXPECT_EQ(ts[0].import_path, "a/b");
  EXPECT_EQ(ts[0].source_dir, "/src/a/b");
  EXPECT_EQ(ts[1].import_path, "a_b");
  // A new recording clears the old traces...
  ASSERT_TRUE(PrepareOutputDir(base, &err)) << err;
  EXPECT_FALSE(fs::exists(d1));
  EXPECT_FALSE(fs::exists(base + "/packages.txt"));
  EXPECT_FALSE(ListTraces(base, &ts, &err));
  // ...but never a directory of the user's.
  Touch(dir_ + "/user/main.go");
  EXPECT_FALSE(PrepareOutputDir(dir_ + "/user", &err));
  EXPECT_NE(err.find("holds no gordian trace"), std::string::npos) << err;
  EXPECT_TRUE(fs::exists(dir_ + "/user/main.go"));
  // A run trace is listed as the directory itself.
  Touch(dir_ + "/run/events.bin");
  ASSERT_TRUE(ListTraces(dir_ + "/run", &ts, &err)) << err;
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0].trace_dir, dir_ + "/run");
}

// `gordian record -o DIR` used to delete every directory an existing
// DIR/packages.txt named. It now deletes only package directories it can
// prove it wrote, and removes nothing when the index names anything else.
TEST_F(TraceDirsTest, PrepareDeletesOnlyWhatGordianWrote) {
  std::string base = dir_ + "/out";
  std::string err;
  Touch(base + "/pkg_a/events.bin");
  Touch(base + "/pkg_a/sites.txt");
  Touch(base + "/pkg_a/race.1234");
  Touch(base + "/src/main.go");  // the user's, named by a crafted index
  Touch(base + "/packages.txt", "pkg_a\texample.com/a\t/src/a\nsrc\texample.com/src\t/x\n");
  EXPECT_FALSE(PrepareOutputDir(base, &err));
  EXPECT_NE(err.find("gordian did not write; nothing was removed"), std::string::npos) << err;
  EXPECT_TRUE(fs::exists(base + "/src/main.go"));
  EXPECT_TRUE(fs::exists(base + "/pkg_a/events.bin"));
  // A symlink to elsewhere is never followed, even when its target looks
  // like a trace.
  Touch(dir_ + "/elsewhere/events.bin");
  fs::remove_all(base + "/src");
  fs::create_directory_symlink(dir_ + "/elsewhere", base + "/src");
  EXPECT_FALSE(PrepareOutputDir(base, &err));
  EXPECT_TRUE(fs::exists(dir_ + "/elsewhere/events.bin"));
  // Only the trace's own entries: the clean case still clears it.
  fs::remove(base + "/src");
  ASSERT_TRUE(PrepareOutputDir(base, &err)) << err;
  EXPECT_FALSE(fs::exists(base + "/pkg_a"));
}

}  // namespace
}  // namespace gordian::driver
