// Tests of the runtime hook set: the patch file format, patch application
// and its errors, and the real hook set against the installed GOROOT (every
// anchor matches exactly once; the added files do not collide).
#include "gordian/instrument/runtime_hooks.h"

#include "gordian/instrument/go_release.h"
#include "gordian/util/file_text_test.h"

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

std::string SourceTree() {
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

TEST(ParseStdPatches, ReleaseRanges) {
  const char* text =
      "== runtime/a.go\n"
      "@@ insert-after go1.25+\nA\n@@ with\n@@ end\n"
      "@@ insert-after go1.23-go1.24\nB\n@@ with\n@@ end\n"
      "@@ replace go1.23\nC\n@@ with\n@@ end\n"
      "@@ replace\nD\n@@ with\n@@ end\n";
  std::vector<StdPatch> p;
  std::string err;
  ASSERT_TRUE(ParseStdPatches(text, "p.txt", &p, &err)) << err;
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].op, StdPatch::Op::kInsertAfter);
  EXPECT_EQ(std::make_pair(p[0].min_minor, p[0].max_minor), std::make_pair(25, 0));
  EXPECT_EQ(std::make_pair(p[1].min_minor, p[1].max_minor), std::make_pair(23, 24));
  EXPECT_EQ(p[2].op, StdPatch::Op::kReplace);
  EXPECT_EQ(std::make_pair(p[2].min_minor, p[2].max_minor), std::make_pair(23, 23));
  EXPECT_EQ(std::make_pair(p[3].min_minor, p[3].max_minor), std::make_pair(0, 0));
  const bool want[4][5] = {// 1.22 .. 1.26
                           {false, false, false, true, true},
                           {false, true, true, false, false},
                           {false, true, false, false, false},
                           {true, true, true, true, true}};
  for (int i = 0; i < 4; i++) {
    for (int minor = 22; minor <= 26; minor++) {
      EXPECT_EQ(p[i].AppliesTo(minor), want[i][minor - 22]) << "patch " << i << " go1." << minor;
    }
  }
  for (const char* bad : {"go1.25-", "go1.24-go1.23", "1.25+", "go1.x", "go1.25 go1.26",
                          "go1.23-go1.24+"}) {
    std::string t = std::string("== a.go\n@@ replace ") + bad + "\nx\n@@ with\n@@ end\n";
    EXPECT_FALSE(ParseStdPatches(t, "p.txt", &p, &err)) << bad;
    EXPECT_EQ(err, std::string("p.txt:2: bad release range '") + bad +
                       "' (go1.25+, go1.23-go1.24 or go1.23)");
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
  ASSERT_TRUE(BuildStdOverlay(goroot, SourceTree() + "/runtime/std", work.string(), &replace, &err))
      << err;
  std::vector<StdPatch> patches;
  ASSERT_TRUE(ParseStdPatches(util::FileText(SourceTree() + "/runtime/std/patches.txt"), "patches.txt",
                              &patches, &err))
      << err;
  EXPECT_GE(patches.size(), 40u);
  auto find = [&](const std::string& orig) -> const OverlayPair* {
    for (const OverlayPair& p : replace) {
      if (p.first == orig) return &p;
    }
    return nullptr;
  };
  int minor = 0;
  ASSERT_TRUE(GoMinorOfRoot(goroot, &minor, &err)) << err;
  for (const StdPatch& p : patches) {
    if (!p.AppliesTo(minor)) continue;
    const std::string orig = goroot + "/src/" + p.file;
    const OverlayPair* pair = find(orig);
    ASSERT_NE(pair, nullptr) << orig;
    const std::string patched = util::FileText(pair->second);
    if (!p.text.empty()) {
      EXPECT_NE(patched.find(p.text), std::string::npos)
          << "patches.txt:" << p.line << ": text missing from " << pair->second;
    }
  }
  for (const char* added : {"runtime/gordian.go", "runtime/gordian_chan.go", "sync/gordian_sync.go",
                            "testing/gordian_testing.go"}) {
    const OverlayPair* pair = find(goroot + "/src/" + added);
    ASSERT_NE(pair, nullptr) << added;
    EXPECT_EQ(util::FileText(pair->second), util::FileText(SourceTree() + "/runtime/std/" + added));
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
  // The release is supported, so the message says what to do about a
  // patch release whose sources changed.
  EXPECT_NE(err.find("do not fit these sources although Go 1."), std::string::npos) << err;
  EXPECT_NE(err.find("and report this"), std::string::npos) << err;
}

// A fake GOROOT of release go1.<minor> with src/runtime/a.go.
fs::path FakeGoroot(const std::string& name, int minor) {
  const fs::path root = fs::path(testing::TempDir()) / name;
  fs::remove_all(root);
  fs::create_directories(root / "src/runtime");
  fs::create_directories(root / "src/internal/goversion");
  std::ofstream(root / "src/internal/goversion/goversion.go")
      << "package goversion\n\nconst Version = " << minor << "\n";
  std::ofstream(root / "VERSION") << "go1." << minor << ".3\ntime 2026-01-01\n";
  std::ofstream(root / "src/runtime/a.go") << "package runtime\nfunc old() {\n}\nfunc both() {\n}\n";
  return root;
}

fs::path WriteHooks(const std::string& name, const std::string& patches) {
  const fs::path hooks = fs::path(testing::TempDir()) / name;
  fs::remove_all(hooks);
  fs::create_directories(hooks);
  std::ofstream(hooks / "patches.txt") << patches;
  return hooks;
}

// Only the patches for the GOROOT's release are applied: an anchor that
// exists only in other releases is not looked for.
TEST(BuildStdOverlay, AppliesOnlyTheReleasesPatches) {
  const fs::path hooks = WriteHooks("gordian_release_hooks",
                                    "== runtime/a.go\n"
                                    "@@ insert-after go1.25+\nfunc renamed() {\n@@ with\n\tnew()\n@@ end\n"
                                    "@@ insert-after go1.23-go1.24\nfunc old() {\n@@ with\n\told()\n@@ end\n"
                                    "@@ insert-after\nfunc both() {\n@@ with\n\tboth()\n@@ end\n");
  const fs::path root = FakeGoroot("gordian_fake_go124", 24);
  std::vector<OverlayPair> replace;
  std::string err;
  // The work directory is outside hooks/: files there would count as hooks.
  const fs::path work = fs::path(testing::TempDir()) / "gordian_release_hooks_work";
  fs::remove_all(work);
  ASSERT_TRUE(BuildStdOverlay(root.string(), hooks.string(), (work / "24").string(), &replace,
                              &err))
      << err;
  ASSERT_EQ(replace.size(), 1u);
  EXPECT_EQ(util::FileText(replace[0].second),
            "package runtime\nfunc old() {\n\told()\n}\nfunc both() {\n\tboth()\n}\n");
  // On 1.25 the go1.25+ patch is looked for, and its anchor is missing.
  const fs::path root25 = FakeGoroot("gordian_fake_go125", 25);
  replace.clear();
  EXPECT_FALSE(BuildStdOverlay(root25.string(), hooks.string(), (work / "25").string(),
                               &replace, &err));
  EXPECT_NE(err.find("patches.txt:2: anchor not found in " + (root25 / "src/runtime/a.go").string() +
                     " (go1.25.3): \"func renamed() {\""),
            std::string::npos)
      << err;
}

// An unsupported release is refused before any patch is tried, with the
// supported releases named.
TEST(BuildStdOverlay, UnsupportedReleaseIsRefusedAtOnce) {
  const fs::path hooks = WriteHooks("gordian_unsupported_hooks",
                                    "== runtime/a.go\n@@ insert-after\nfunc missing() {\n@@ with\nx\n@@ end\n");
  const fs::path work = fs::path(testing::TempDir()) / "gordian_unsupported_work";
  fs::remove_all(work);
  for (int minor : {22, 27}) {
    const fs::path root = FakeGoroot("gordian_fake_go1" + std::to_string(minor), minor);
    std::vector<OverlayPair> replace;
    std::string err;
    EXPECT_FALSE(BuildStdOverlay(root.string(), hooks.string(), work.string(), &replace, &err));
    EXPECT_EQ(err.rfind("Go 1." + std::to_string(minor) + " (go1." + std::to_string(minor) +
                            ".3) is not supported: gordian records with Go 1.23, 1.24, 1.25 "
                            "and 1.26.",
                        0),
              0u)
        << err;
    EXPECT_EQ(err.find("anchor"), std::string::npos) << err;
    EXPECT_TRUE(replace.empty());
    EXPECT_FALSE(fs::exists(work)) << "nothing is written for a refused release";
  }
}

}  // namespace
}  // namespace gordian::instrument
