// Tests of the runtime hook set: the patch file format, patch application
// and its errors, and the real hook set against the installed GOROOT (every
// anchor matches exactly once; the added files do not collide).
#include "gordian/instrument/runtime_hooks.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace gordian::instrument {
namespace {
namespace fs = std::filesystem;

std::string SourceDir() {
  const char* s = std::getenv("GORDIAN_SOURCE_DIR");
  return s ? s : GORDIAN_SOURCE_DIR_DEFAULT;
}

// The installed GOROOT, from `go env GOROOT`, or "" when go is missing.
std::string Goroot() {
  static std::string root = [] {
    std::string out;
    FILE* p = popen("go env GOROOT 2>/dev/null", "r");
    if (p == nullptr) return out;
    char buf[4096];
    while (fgets(buf, sizeof buf, p) != nullptr) out += buf;
    pclose(p);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out;
  }();
  return root;
}

std::string ReadAll(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(ParseStdPatches, ParsesAllOperations) {
  const char* text =
      "# comment\n"
      "\n"
      "== runtime/a.go\n"
      "# why\n"
      "@@ insert-after\n"
      "func f() {\n"
      "@@ with\n"
      "\thook()\n"
      "@@ end\n"
      "@@ replace\n"
      "\tx := 1\n"
      "\ty := 2\n"
      "@@ with\n"
      "@@ end\n"
      "== sync/b.go\n"
      "@@ insert-before\n"
      "}\n"
      "@@ with\n"
      "\t// last\n"
      "@@ end\n";
  std::vector<StdPatch> p;
  std::string err;
  ASSERT_TRUE(ParseStdPatches(text, "p.txt", &p, &err)) << err;
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].file, "runtime/a.go");
  EXPECT_EQ(p[0].op, StdPatch::Op::kInsertAfter);
  EXPECT_EQ(p[0].anchor, "func f() {\n");
  EXPECT_EQ(p[0].text, "\thook()\n");
  EXPECT_EQ(p[0].line, 5);
  EXPECT_EQ(p[1].op, StdPatch::Op::kReplace);
  EXPECT_EQ(p[1].anchor, "\tx := 1\n\ty := 2\n");
  EXPECT_EQ(p[1].text, "");
  EXPECT_EQ(p[2].file, "sync/b.go");
  EXPECT_EQ(p[2].op, StdPatch::Op::kInsertBefore);
}

TEST(ParseStdPatches, Errors) {
  const std::pair<const char*, const char*> cases[] = {  // {patch file, error}
      {"@@ replace\nx\n@@ with\n@@ end\n", "p.txt:1: patch before any '== file' line"},
      {"== a.go\n@@ move\n",
       "p.txt:2: unknown operation 'move' (insert-before, insert-after, replace)"},
      {"== a.go\n@@ replace\nx\n@@ with\ny\n", "p.txt:2: patch not closed with '@@ end'"},
      {"== a.go\n@@ replace\n@@ with\n@@ end\n", "p.txt:2: empty anchor"},
      {"== ../a.go\n", "p.txt:1: bad file name '../a.go'"},
      {"junk\n", "p.txt:1: expected '== file', '@@ op' or a comment, got 'junk'"},
  };
  for (const auto& [text, want] : cases) {
    std::vector<StdPatch> p;
    std::string err;
    EXPECT_FALSE(ParseStdPatches(text, "p.txt", &p, &err)) << text;
    EXPECT_EQ(err, want);
  }
}

TEST(ApplyStdPatches, InsertsAndReplaces) {
  StdPatch a{"f.go", StdPatch::Op::kInsertAfter, "func f() {\n", "\thook()\n", 1};
  StdPatch b{"f.go", StdPatch::Op::kInsertBefore, "\treturn\n", "\tpre()\n", 2};
  StdPatch c{"f.go", StdPatch::Op::kReplace, "\tx := 1\n", "\tx := 2\n", 3};
  std::string out, err;
  // Given out of order: application is by position.
  ASSERT_TRUE(ApplyStdPatches("package p\nfunc f() {\n\tx := 1\n\treturn\n}\n", {&b, &c, &a},
                              "f.go", &out, &err))
      << err;
  EXPECT_EQ(out, "package p\nfunc f() {\n\thook()\n\tx := 2\n\tpre()\n\treturn\n}\n");
}

TEST(ApplyStdPatches, MissingAmbiguousOverlapping) {
  StdPatch a{"f.go", StdPatch::Op::kInsertAfter, "func g() {\n", "x\n", 7};
  std::string out, err;
  EXPECT_FALSE(ApplyStdPatches("func f() {\n}\n", {&a}, "/go/src/f.go (go1.99)", &out, &err));
  EXPECT_EQ(err, "patches.txt:7: anchor not found in /go/src/f.go (go1.99): \"func g() {\"");
  EXPECT_FALSE(ApplyStdPatches("func g() {\n}\nfunc g() {\n}\n", {&a}, "f.go", &out, &err));
  EXPECT_EQ(err, "patches.txt:7: anchor occurs more than once in f.go: \"func g() {\"");
  StdPatch b{"f.go", StdPatch::Op::kReplace, "}\nfunc g() {\n", "", 9};
  EXPECT_FALSE(ApplyStdPatches("func f() {\n}\nfunc g() {\n}\n", {&a, &b}, "f.go", &out, &err));
  EXPECT_EQ(err, "patches.txt:9 and :7: anchors overlap in f.go");
}

TEST(OverlayJson, Format) {
  EXPECT_EQ(OverlayJson({{"/go/src/runtime/chan.go", "/w/std/runtime/chan.go"}}),
            "{\n \"Replace\": {\n  \"/go/src/runtime/chan.go\": \"/w/std/runtime/chan.go\"\n }\n}\n");
}

// The real hook set applies to the installed Go: every anchor of
// runtime/std/patches.txt matches exactly once, every patched file and added
// file is in the overlay, and the patched copies contain the hooks.
TEST(BuildStdOverlay, InstalledGoroot) {
  const std::string goroot = Goroot();
  if (goroot.empty()) GTEST_SKIP() << "no Go toolchain on PATH";
  const fs::path work = fs::path(testing::TempDir()) / "gordian_hooks_test";
  fs::remove_all(work);
  std::vector<OverlayPair> replace;
  std::string err;
  ASSERT_TRUE(BuildStdOverlay(goroot, SourceDir() + "/runtime/std", work.string(), &replace, &err))
      << err;
  std::vector<StdPatch> patches;
  ASSERT_TRUE(ParseStdPatches(ReadAll(SourceDir() + "/runtime/std/patches.txt"), "patches.txt",
                              &patches, &err))
      << err;
  EXPECT_GE(patches.size(), 40u);
  auto find = [&](const std::string& orig) -> const OverlayPair* {
    for (const OverlayPair& p : replace) {
      if (p.first == orig) return &p;
    }
    return nullptr;
  };
  for (const StdPatch& p : patches) {
    const std::string orig = goroot + "/src/" + p.file;
    const OverlayPair* pair = find(orig);
    ASSERT_NE(pair, nullptr) << orig;
    const std::string patched = ReadAll(pair->second);
    if (!p.text.empty()) {
      EXPECT_NE(patched.find(p.text), std::string::npos)
          << "patches.txt:" << p.line << ": text missing from " << pair->second;
    }
  }
  for (const char* added : {"runtime/gordian.go", "runtime/gordian_chan.go", "sync/gordian_sync.go",
                            "testing/gordian_testing.go"}) {
    const OverlayPair* pair = find(goroot + "/src/" + added);
    ASSERT_NE(pair, nullptr) << added;
    EXPECT_EQ(ReadAll(pair->second), ReadAll(SourceDir() + "/runtime/std/" + added));
  }
  // No hook file replaces a real GOROOT file by accident.
  for (const OverlayPair& p : replace) {
    if (p.first.find("/gordian_") != std::string::npos) {
      EXPECT_FALSE(fs::exists(p.first)) << p.first;
    }
  }
}

TEST(BuildStdOverlay, MissingAnchorNamesFileAndVersion) {
  const std::string goroot = Goroot();
  if (goroot.empty()) GTEST_SKIP() << "no Go toolchain on PATH";
  const fs::path hooks = fs::path(testing::TempDir()) / "gordian_bad_hooks";
  fs::remove_all(hooks);
  fs::create_directories(hooks);
  std::ofstream(hooks / "patches.txt") << "== runtime/chan.go\n@@ insert-after\nfunc noSuchFunction() {\n"
                                          "@@ with\n\thook()\n@@ end\n";
  std::vector<OverlayPair> replace;
  std::string err;
  EXPECT_FALSE(BuildStdOverlay(goroot, hooks.string(), (hooks / "work").string(), &replace, &err));
  EXPECT_NE(err.find("patches.txt:2: anchor not found in " + goroot + "/src/runtime/chan.go"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("func noSuchFunction() {"), std::string::npos) << err;
  EXPECT_NE(err.find("do not support this Go version"), std::string::npos) << err;
}

}  // namespace
}  // namespace gordian::instrument
