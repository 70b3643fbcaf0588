// Tests of the corpus directory (corpus.h): what is stored comes back,
// named by its content and not by the machine it was found on; a file
// that is not a schedule is named in a warning and skipped.
#include "gordian/fuzz/corpus.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace gordian::fuzz {
namespace {

namespace fs = std::filesystem;

class CorpusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = (fs::temp_directory_path() / "gordian-corpus-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(root_.data()), nullptr);
    dir_ = root_ + "/testdata/gordian-fuzz/TestX";
  }
  void TearDown() override { fs::remove_all(root_); }

  // main receives from goroutine 1.0 first.
  static schedule::Schedule Sample(const std::string& cwd) {
    schedule::Schedule s;
    s.cmd.mode = "test";
    s.cmd.cwd = cwd;
    s.cmd.args = {"-test.run=^TestX$", "."};
    s.origin = "fuzz partner";
    s.goroutines = {"1", "1.0"};
    schedule::Op send;
    send.g = 1;
    send.kind = trace::Kind::ChanSend;
    send.obj = 3;
    send.site = cwd + "/a.go:10";
    schedule::Op recv;
    recv.g = 0;
    recv.kind = trace::Kind::ChanRecv;
    recv.obj = 3;
    recv.site = cwd + "/a.go:30";
    s.ops = {send, recv};
    return s;
  }

  std::string root_, dir_;
};

TEST_F(CorpusTest, AMissingDirectoryIsAnEmptyCorpus) {
  std::vector<std::string> warnings;
  EXPECT_TRUE(LoadCorpus(dir_, "", &warnings).empty());
  EXPECT_TRUE(warnings.empty());
  EXPECT_FALSE(fs::exists(dir_)) << "reading makes nothing";
}

TEST_F(CorpusTest, WhatIsStoredComesBackUnderTheNameOfItsContent) {
  bool added = false;
  std::string err;
  ASSERT_TRUE(AddToCorpus(dir_, Sample("/home/a/m"), &added, &err)) << err;
  EXPECT_TRUE(added);
  // The same schedule from another checkout is the same file.
  ASSERT_TRUE(AddToCorpus(dir_, Sample("/home/b/m"), &added, &err)) << err;
  EXPECT_FALSE(added);
  EXPECT_EQ(CorpusName(Sample("/home/a/m")), CorpusName(Sample("/home/b/m")));
  schedule::Schedule other = Sample("/home/a/m");
  std::swap(other.ops[0], other.ops[1]);
  other.ops[0].index = other.ops[1].index = 0;
  EXPECT_NE(CorpusName(other), CorpusName(Sample("/home/a/m")));

  std::vector<std::string> warnings;
  std::vector<CorpusEntry> got = LoadCorpus(dir_, "", &warnings);
  EXPECT_TRUE(warnings.empty()) << warnings[0];
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(fs::path(got[0].path).filename().string(), CorpusName(Sample("/x")));
  EXPECT_EQ(got[0].schedule.goroutines, Sample("/x").goroutines);
  ASSERT_EQ(got[0].schedule.ops.size(), 2u);
  // Stored relative to the package; read back under the package given.
  EXPECT_EQ(got[0].schedule.ops[0].site, "./a.go:10");
  EXPECT_EQ(got[0].schedule.ops[1].site, "./a.go:30");
  got = LoadCorpus(dir_, "/home/c/m", &warnings);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].schedule.ops[0].site, "/home/c/m/a.go:10");
  EXPECT_TRUE(got[0].schedule.cmd.mode.empty()) << "no invocation is stored";
  EXPECT_TRUE(got[0].schedule.cmd.cwd.empty());
}

// The directives of the free run (preferences, delay points) are stored
// relative to the package as the prefix is, and a chain's lines are kept,
// so that a later campaign can mutate the chain again.
TEST_F(CorpusTest, PreferencesDelaysAndTheChainComeBack) {
  auto with_directives = [](const std::string& cwd) {
    schedule::Schedule s = Sample(cwd);
    s.prefers.push_back(schedule::Preference{1, 4000, cwd + "/a.go:12"});
    s.delays.push_back(schedule::Delay{2, 300, cwd + "/a.go:14"});
    s.chain = {{1, 0}, {0, 0}};
    return s;
  };
  EXPECT_EQ(CorpusName(with_directives("/home/a/m")), CorpusName(with_directives("/home/b/m")));
  EXPECT_NE(CorpusName(with_directives("/home/a/m")), CorpusName(Sample("/home/a/m")));
  bool added = false;
  std::string err;
  ASSERT_TRUE(AddToCorpus(dir_, with_directives("/home/a/m"), &added, &err)) << err;
  std::vector<std::string> warnings;
  std::vector<CorpusEntry> got = LoadCorpus(dir_, "/home/c/m", &warnings);
  EXPECT_TRUE(warnings.empty()) << warnings[0];
  ASSERT_EQ(got.size(), 1u);
  ASSERT_EQ(got[0].schedule.prefers.size(), 1u);
  EXPECT_EQ(got[0].schedule.prefers[0].site, "/home/c/m/a.go:12");
  EXPECT_EQ(got[0].schedule.prefers[0].wait_ms, 4000u);
  ASSERT_EQ(got[0].schedule.delays.size(), 1u);
  EXPECT_EQ(got[0].schedule.delays[0].site, "/home/c/m/a.go:14");
  ASSERT_EQ(got[0].schedule.chain.size(), 2u);
  EXPECT_EQ(got[0].schedule.chain[0].g, 1u);
  EXPECT_EQ(got[0].schedule.chain[1].g, 0u);
}

TEST_F(CorpusTest, ACorruptFileIsNamedAndSkipped) {
  bool added = false;
  std::string err;
  ASSERT_TRUE(AddToCorpus(dir_, Sample("/m"), &added, &err)) << err;
  std::ofstream(dir_ + "/0000000000000bad") << "gordian-schedule 1\ng 1\no 0 5 - send\n";
  std::ofstream(dir_ + "/notes.txt") << "what these are\n";
  std::ofstream(dir_ + "/.half-written.tmp") << "garbage";
  fs::create_directories(dir_ + "/sub");
  std::vector<std::string> warnings;
  std::vector<CorpusEntry> got = LoadCorpus(dir_, "", &warnings);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(fs::path(got[0].path).filename().string(), CorpusName(Sample("/m")));
  ASSERT_EQ(warnings.size(), 3u);
  std::string all = warnings[0] + "\n" + warnings[1] + "\n" + warnings[2];
  EXPECT_NE(all.find(dir_ + "/0000000000000bad: "), std::string::npos) << all;
  EXPECT_NE(all.find(dir_ + "/notes.txt: "), std::string::npos) << all;
  EXPECT_NE(all.find(dir_ + "/sub: not a file"), std::string::npos) << all;
  EXPECT_EQ(all.find(".half-written"), std::string::npos) << all;
  EXPECT_TRUE(fs::exists(dir_ + "/0000000000000bad")) << "never removed";
}

TEST_F(CorpusTest, AnUnwritableCorpusIsAnError) {
  std::ofstream(root_ + "/file") << "x";
  bool added = true;
  std::string err;
  EXPECT_FALSE(AddToCorpus(root_ + "/file/corpus", Sample("/m"), &added, &err));
  EXPECT_FALSE(added);
  EXPECT_NE(err.find(root_ + "/file/corpus"), std::string::npos) << err;
}

}  // namespace
}  // namespace gordian::fuzz
