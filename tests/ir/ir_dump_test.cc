// End-to-end tests of `gordian ir dump` (docs/ir-format.md) on the module in
// pool/: the generator is built with the go command into a fresh cache on
// first use and reused after; the IR it prints reads back and has the pool's
// operations at their lines; --no-tests leaves the test out; a package that
// does not compile and a malformed IR file are exit 2 with the reason.
// Needs the go command and the gordian binary (label "go").
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../e2e_env.h"
#include "gordian/driver/process.h"
#include "gordian/ir/reader.h"

namespace gordian {
namespace {

namespace fs = std::filesystem;

class IrDumpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = fs::temp_directory_path() / ("gordian-ir-" + std::to_string(getpid()));
    fs::remove_all(root_);
    // The generator's cache is shared by the test processes and kept
    // between runs (it is keyed by the Go version and the generator's
    // sources), so that only the first run pays for building it.
    std::string bin = e2e::Env("GORDIAN_BINARY_DIR");
    cache_ = bin.empty() ? root_ / "cache" : fs::path(bin) / "ir-e2e-cache";
    fs::create_directories(cache_);
    fs::create_directories(root_);
    std::error_code ec;
    fs::copy(e2e::SourceDir() + "/tests/ir/pool", root_ / "pool", fs::copy_options::recursive, ec);
  }
  // A failed SetUpTestSuite would only skip the tests; fail them instead.
  void SetUp() override {
    ASSERT_TRUE(fs::exists(root_ / "pool" / "go.mod")) << "cannot copy tests/ir/pool to " << root_;
  }
  static void TearDownTestSuite() { fs::remove_all(root_); }

  driver::ProcessResult Gordian(std::vector<std::string> args) {
    driver::ProcessSpec spec;
    spec.argv = {e2e::Gordian()};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.cwd = (root_ / "pool").string();
    spec.set_env["GORDIAN_CACHE"] = cache_.string();
    spec.pass_through = false;
    spec.timeout_seconds = 300;
    driver::ProcessResult r;
    std::string err;
    EXPECT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
    return r;
  }

  // The ops of kind at pool.go:line in functions whose name ends in fn.
  static std::vector<const ir::Op*> OpsAt(const ir::Program& p, const std::string& fn,
                                          ir::OpKind kind, int line) {
    std::vector<const ir::Op*> out;
    for (const ir::Function& f : p.functions) {
      if (!f.name.ends_with(fn)) continue;
      for (const ir::Block& b : f.blocks) {
        for (const ir::Op& op : b.ops) {
          if (op.kind == kind && op.pos.line == line && p.files[op.pos.file] == "pool.go") out.push_back(&op);
        }
      }
    }
    return out;
  }

  static std::vector<fs::path> Generators() {
    std::vector<fs::path> bins;
    std::error_code ec;
    for (auto& e : fs::recursive_directory_iterator(cache_ / "irgen", ec)) {
      if (e.path().filename() == "irgen") bins.push_back(e.path());
    }
    return bins;
  }

  static fs::path root_, cache_;
};

fs::path IrDumpTest::root_, IrDumpTest::cache_;

TEST_F(IrDumpTest, DumpsThePoolAndCachesTheGenerator) {
  driver::ProcessResult r = Gordian({"ir", "dump", "./..."});
  ASSERT_TRUE(r.Succeeded()) << r.Describe() << "\n" << r.err;
  ir::Program p;
  std::string err;
  ASSERT_TRUE(ir::ReadProgram(r.out, "dump", &p, &err)) << err;
  ASSERT_EQ(p.packages.size(), 1u);
  EXPECT_EQ(p.packages[0].path, "example.com/pool");

  auto mk = OpsAt(p, "pool.Sum", ir::OpKind::kMakeChan, 20);
  ASSERT_EQ(mk.size(), 1u);
  EXPECT_EQ(*mk[0]->fields.Get(ir::Key::kCap), "(len p0)");
  EXPECT_EQ(OpsAt(p, "pool.Sum", ir::OpKind::kWgAdd, 24).size(), 1u);
  EXPECT_EQ(OpsAt(p, "pool.Sum", ir::OpKind::kGo, 25).size(), 1u);
  EXPECT_EQ(OpsAt(p, "pool.Sum$1", ir::OpKind::kWgDone, 26).size(), 1u);
  auto rng = OpsAt(p, "pool.Sum$1", ir::OpKind::kRecv, 27);
  ASSERT_EQ(rng.size(), 1u);
  EXPECT_TRUE(rng[0]->fields.Flag(ir::Key::kRange));
  EXPECT_EQ(OpsAt(p, "pool.Sum", ir::OpKind::kSend, 33).size(), 1u);
  EXPECT_EQ(OpsAt(p, "pool.Sum", ir::OpKind::kClose, 35).size(), 1u);
  EXPECT_EQ(OpsAt(p, "pool.Sum", ir::OpKind::kWgWait, 36).size(), 1u);
  EXPECT_EQ(OpsAt(p, "Totals).add", ir::OpKind::kLock, 14).size(), 1u);
  EXPECT_EQ(OpsAt(p, "Totals).add", ir::OpKind::kUnlock, 16).size(), 1u);
  // The workers loop: bound workers (p1) from 0 by 1.
  bool bounded = false;
  for (const ir::Function& f : p.functions) {
    if (!f.name.ends_with("pool.Sum")) continue;
    for (const ir::Loop& lp : f.loops) {
      const std::string* cond = lp.fields.Get(ir::Key::kCond);
      const std::string* var = lp.fields.Get(ir::Key::kVar);
      if (lp.pos.line == 23 && cond && var && *cond == "(< " + *var + " p1)" &&
          *lp.fields.Get(ir::Key::kInit) == "0") {
        bounded = true;
      }
    }
  }
  EXPECT_TRUE(bounded) << "no loop at pool.go:23 bounded by p1";
  bool has_test = false;
  for (const ir::Function& f : p.functions) has_test |= f.kind == "test" && f.name.ends_with("TestSum");
  EXPECT_TRUE(has_test);

  // gordian prints what it read: byte for byte what the generator wrote.
  {
    std::vector<fs::path> gens = Generators();
    ASSERT_FALSE(gens.empty());
    fs::path newest = gens[0];
    for (const fs::path& g : gens) {
      if (fs::last_write_time(g) > fs::last_write_time(newest)) newest = g;
    }
    driver::ProcessSpec spec;
    spec.argv = {newest.string(), "-test", "./..."};
    spec.cwd = (root_ / "pool").string();
    spec.pass_through = false;
    spec.timeout_seconds = 300;
    driver::ProcessResult raw;
    ASSERT_TRUE(driver::RunProcess(spec, &raw, &err)) << err;
    ASSERT_TRUE(raw.Succeeded()) << raw.err;
    EXPECT_EQ(raw.out, r.out);
  }

  // The generator is in the cache; a second run reuses it (builds none).
  std::vector<fs::path> bins = Generators();
  ASSERT_GE(bins.size(), 1u);
  std::vector<fs::file_time_type> built;
  for (const fs::path& b : bins) built.push_back(fs::last_write_time(b));
  driver::ProcessResult again = Gordian({"ir", "dump", "--no-tests", "./..."});
  ASSERT_TRUE(again.Succeeded()) << again.err;
  ASSERT_EQ(Generators(), bins);
  for (size_t i = 0; i < bins.size(); i++) EXPECT_EQ(fs::last_write_time(bins[i]), built[i]);
  EXPECT_EQ(again.out.find("TestSum"), std::string::npos);
  EXPECT_NE(again.out.find("pool.Sum"), std::string::npos);
}

TEST_F(IrDumpTest, PackageThatDoesNotCompileIsExit2WithTheCompilersMessage) {
  fs::create_directories(root_ / "pool" / "broken");
  std::ofstream(root_ / "pool" / "broken" / "b.go") << "package broken\n\nfunc F() { undefinedThing() }\n";
  driver::ProcessResult r = Gordian({"ir", "dump", "./broken"});
  fs::remove_all(root_ / "pool" / "broken");
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_NE(r.err.find("b.go:3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("undefinedThing"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(IrDumpTest, DashCIsRelativeToTheCurrentDirectory) {
  // From the parent of the module: -C pool names it.
  driver::ProcessSpec spec;
  spec.argv = {e2e::Gordian(), "ir", "dump", "--no-tests", "-C", "pool", "./..."};
  spec.cwd = root_.string();
  spec.set_env["GORDIAN_CACHE"] = cache_.string();
  spec.pass_through = false;
  spec.timeout_seconds = 300;
  driver::ProcessResult r;
  std::string err;
  ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
  ASSERT_TRUE(r.Succeeded()) << r.err;
  ir::Program p;
  ASSERT_TRUE(ir::ReadProgram(r.out, "dump", &p, &err)) << err;
  EXPECT_EQ(p.root, (root_ / "pool").string());
  EXPECT_FALSE(OpsAt(p, "pool.Sum", ir::OpKind::kMakeChan, 20).empty());
  spec.argv = {e2e::Gordian(), "ir", "dump", "-C", "nowhere", "./..."};
  ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nowhere: no such directory"), std::string::npos) << r.err;
}

TEST_F(IrDumpTest, MalformedIrFileIsExit2NamingTheLine) {
  std::ofstream(root_ / "bad.ir") << "gordian-ir 1\nfunc F1 name=x kind=func results=0\nblock 0\nop send pos=a.go:1:1 ch=t1\nend\n";
  driver::ProcessResult r = Gordian({"ir", "dump", "--file", (root_ / "bad.ir").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.ir:4: op send: missing field val="), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gordian
