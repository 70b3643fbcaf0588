// Tests for the parser's error reporting and recovery, in the style of Go's
// cmd/compile/internal/syntax/error_test.go.
//
// Files under testdata/ carry error comments where errors are expected:
//   // ERROR rx      on the line of the error (only the line must match)
//   /* ERROR rx */   just before the token where the error is reported
//                   (line and column must match)
// rx is a regular expression (ECMAScript) matched against the message; it may
// be written in double quotes. Reported and declared errors are compared in
// both directions: a missing error and an unexpected one both fail.
//
// The same harness also runs over Go's own syntax testdata (read from
// $(go env GOROOT) at test time, when Go is installed), as a conformance check.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gordian/syntax/parser_testing.h"
#include "gordian/syntax/scanner.h"
#include "gordian/syntax/syntax.h"

namespace gordian::syntax {
namespace {

namespace fs = std::filesystem;

// The source tree from the environment, else the one this test was built
// from (__FILE__ is relative in builds that use ccache with base_dir).
fs::path TestdataDir() {
  const char* src = getenv("GORDIAN_SOURCE_DIR");
  fs::path root = src != nullptr && *src ? src : GORDIAN_SOURCE_DIR_DEFAULT;
  return root / "src/gordian/syntax/testdata";
}

// The GOROOT of the installed Go, or "" when there is none.
std::string GoRoot() {
  static std::string root = testing::GoEnvGoRoot();
  return root;
}

struct LineCol {
  uint32_t line, col;  // col 0: any column on the line
  bool operator<(const LineCol& o) const {
    return line < o.line || (line == o.line && col < o.col);
  }
};

// Go's regexps (RE2) take a '{' or '}' that is not part of a repetition
// literally; ECMAScript rejects them. Escape those.
std::string ToECMAScript(std::string_view rx) {
  std::string out;
  for (size_t i = 0; i < rx.size(); i++) {
    char c = rx[i];
    if (c == '\\' && i + 1 < rx.size()) {
      out += c;
      out += rx[++i];
      continue;
    }
    if (c == '{') {
      size_t j = i + 1;
      while (j < rx.size() && ((rx[j] >= '0' && rx[j] <= '9') || rx[j] == ',')) j++;
      if (j > i + 1 && j < rx.size() && rx[j] == '}') {
        out.append(rx.substr(i, j + 1 - i));  // a repetition {n,m}
        i = j;
        continue;
      }
    }
    if (c == '{' || c == '}') out += '\\';
    out += c;
  }
  return out;
}

std::string Pattern(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return std::string(s);
}

// The error comments of a file, by position.
std::map<LineCol, std::string> DeclaredErrors(const SourceFile& f) {
  std::map<LineCol, std::string> declared;
  std::vector<Comment> comments;
  Scanner s(f, nullptr, &comments);
  size_t seen = 0;
  std::string pending;  // from a /* ERROR */ comment, waiting for the next token
  for (;;) {
    s.Next();
    for (; seen < comments.size(); seen++) {
      std::string_view text = comments[seen].text;
      Position p = f.PositionAt(f.OffsetOf(comments[seen].pos));
      if (text.starts_with("// ERROR ")) {
        declared[{p.line, 0}] = Pattern(text.substr(9));
      } else if (text.starts_with("/* ERROR ")) {
        pending = Pattern(text.substr(9, text.size() - 11));
      }
    }
    if (!pending.empty()) {
      Position p = f.PositionAt(f.OffsetOf(s.pos));
      declared[{p.line, p.column}] = pending;
      pending.clear();
    }
    if (s.tok == Token::EOF_) break;
  }
  return declared;
}

// Parses path and returns the differences between declared and reported
// errors, one line each (empty when they agree). With one_per_line, a
// declared error that is missing is accepted when a syntax error was reported
// earlier on its line: Go's own testdata declares such errors, which gc (and
// Parse) suppress.
std::vector<std::string> CheckErrors(const fs::path& path, unsigned mode,
                                     bool one_per_line = false) {
  SourceSet set;
  std::string err;
  SourceFile* f = set.ReadFile(path.string(), &err);
  if (f == nullptr) return {err};
  std::map<LineCol, std::string> declared = DeclaredErrors(*f);
  std::vector<std::string> problems;
  std::string name = path.filename().string();
  std::vector<uint32_t> syntax_lines;
  ErrorHandler errh = [&](const Error& e) {
    Position p = f->PositionAt(f->OffsetOf(e.pos));
    if (e.msg.starts_with("syntax error")) syntax_lines.push_back(p.line);
    auto it = declared.find({p.line, p.column});
    if (it == declared.end()) it = declared.find({p.line, 0});
    if (it == declared.end()) {
      problems.push_back(fmt::format("{}:{}:{}: unexpected error: {}", name, p.line, p.column, e.msg));
      return;
    }
    try {
      std::regex rx(ToECMAScript(it->second));
      if (!std::regex_search(e.msg, rx)) {
        problems.push_back(fmt::format("{}:{}:{}: {:?} does not match {:?}", name, p.line,
                                       p.column, e.msg, it->second));
        return;
      }
    } catch (const std::regex_error& ex) {
      problems.push_back(fmt::format("{}: bad pattern {:?}: {}", name, it->second, ex.what()));
      return;
    }
    declared.erase(it);
  };
  Arena arena;
  Parse(*f, &arena, errh, mode);
  for (auto& [pos, rx] : declared) {
    if (one_per_line && std::find(syntax_lines.begin(), syntax_lines.end(), pos.line) !=
                            syntax_lines.end()) {
      continue;
    }
    problems.push_back(fmt::format("{}:{}:{}: missing error: {}", name, pos.line, pos.col, rx));
  }
  return problems;
}

std::vector<fs::path> GoFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".go") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(ParserErrors, Testdata) {
  std::vector<fs::path> files = GoFiles(TestdataDir());
  ASSERT_GE(files.size(), 15u) << "testdata not found at " << TestdataDir();
  for (const fs::path& p : files) {
    SCOPED_TRACE(p.filename().string());
    unsigned mode = p.filename().string().starts_with("branches") ? kCheckBranches : kParseDefault;
    for (const std::string& problem : CheckErrors(p, mode)) ADD_FAILURE() << problem;
  }
}

// Go's own syntax error tests, parsed with kCheckBranches as Go's
// error_test.go does.
TEST(ParserErrors, GoSyntaxTestdata) {
  std::string root = GoRoot();
  if (root.empty()) GTEST_SKIP() << "go is not installed";
  fs::path dir = fs::path(root) / "src/cmd/compile/internal/syntax/testdata";
  std::vector<fs::path> files = GoFiles(dir);
  if (files.empty()) GTEST_SKIP() << "no Go syntax testdata at " << dir;
  for (const fs::path& p : files) {
    SCOPED_TRACE(p.filename().string());
    for (const std::string& problem : CheckErrors(p, kCheckBranches, true)) {
      ADD_FAILURE() << problem;
    }
  }
}

// ----------------------------------------------------------------------------
// Exact messages, formatted as the Go compiler prints them.

std::vector<std::string> Errors(const std::string& src, unsigned mode = kParseDefault,
                                int* count = nullptr) {
  SourceSet set;
  SourceFile* f = set.AddFile("x.go", src);
  std::vector<std::string> out;
  Arena arena;
  ParseResult r = Parse(*f, &arena, [&](const Error& e) { out.push_back(FormatError(*f, e)); },
                        mode);
  if (count != nullptr) *count = r.error_count;
  EXPECT_EQ(r.error_count, static_cast<int>(out.size()));
  if (!out.empty()) {
    EXPECT_EQ(FormatError(*f, r.first_error), out[0]);
  }
  return out;
}

using Msgs = std::vector<std::string>;

TEST(ParserErrors, ExactMessages) {
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tif x\n\t{\n\t}\n}\n"),
            Msgs{"x.go:3:6: syntax error: unexpected newline, expected { after if clause"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tfor i := 0; i < 10; i++\n\t{\n\t}\n}\n"),
            Msgs{"x.go:3:25: syntax error: unexpected newline, expected { after for clause"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tx := 1 +\n}\n"),
            Msgs{"x.go:4:1: syntax error: unexpected }, expected expression"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tif x = 1 {\n\t}\n}\n"),
            Msgs{"x.go:3:7: syntax error: cannot use assignment x = 1 as value"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tif a+b = c*d {\n\t}\n}\n"),
            Msgs{"x.go:3:9: syntax error: cannot use assignment (a + b) = (c * d) as value"});
  EXPECT_EQ(Errors("package p\nx := 1\n"),
            Msgs{"x.go:2:1: syntax error: non-declaration statement outside function body"});
  EXPECT_EQ(Errors("package p\nfunc f()\n{\n}\n"),
            Msgs{"x.go:3:1: syntax error: unexpected semicolon or newline before {"});
  EXPECT_EQ(Errors("package p\nimport \"fmt\"\nvar x int\nimport \"os\"\n"),
            Msgs{"x.go:4:1: syntax error: imports must appear before other declarations"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tgo (f())\n}\n"),
            Msgs{"x.go:3:5: expression in go must not be parenthesized"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tdefer func() {}\n\tx[1:2:]\n}\n"),
            Msgs{"x.go:4:8: final index required in 3-index slice"});
  EXPECT_EQ(Errors("package p\nfunc f(a, b int, c) {}\n"),
            Msgs{"x.go:2:19: syntax error: missing parameter type"});
  EXPECT_EQ(Errors("package p\nfunc f(a int, string) {}\n"),
            Msgs{"x.go:2:21: syntax error: missing parameter type"});
  EXPECT_EQ(Errors("package p\nfunc f(a, b int, []string) {}\n"),
            Msgs{"x.go:2:18: syntax error: missing parameter name"});
  EXPECT_EQ(Errors("package p\nfunc () {}\n"),
            (Msgs{"x.go:2:9: method has no receiver",
                  "x.go:2:9: syntax error: unexpected {, expected name"}));
  EXPECT_EQ(Errors("package p\nfunc f(a ...int, b int) {}\n"),
            Msgs{"x.go:2:10: can only use ... with final parameter"});
  EXPECT_EQ(Errors("package p\ntype T[P] int\n"), Msgs{});  // an array type
  EXPECT_EQ(Errors("package p\ntype T[P any, Q] int\n"),
            Msgs{"x.go:2:16: syntax error: missing type constraint"});
  EXPECT_EQ(Errors("package p\nfunc (T) m[P any]() {}\n"),
            Msgs{"x.go:2:11: syntax error: method must have no type parameters"});
  EXPECT_EQ(Errors("package p\nvar f func[P any]()\n"),
            Msgs{"x.go:2:11: syntax error: function type must have no type parameters"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tfor i := 0; i < 3; j := 1 {\n\t}\n}\n"),
            Msgs{"x.go:3:23: syntax error: cannot declare in post statement of for loop"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tswitch x {\n\tcase 1\n\t}\n}\n"),
            Msgs{"x.go:4:8: syntax error: unexpected newline, expected :"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tL:\n}\n"), Msgs{});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tvar x = T{1, 2\n\t}\n}\n"),
            Msgs{"x.go:3:16: syntax error: unexpected newline in composite literal; possibly "
                 "missing comma or }"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tf(a b)\n}\n"),
            Msgs{"x.go:3:6: syntax error: unexpected name b in argument list; possibly missing "
                 "comma or )"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tx.(type)\n\ty := <-<-chan int(nil)\n}\n"), Msgs{});
  EXPECT_EQ(Errors("package p\nvar _ = (<-chan<- a.b)(nil)\n"),
            Msgs{"x.go:2:22: syntax error: unexpected a.b, expected chan"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tif x++ {\n\t}\n\tif f(a, b...) += g[i] {\n\t}\n}\n"),
            (Msgs{"x.go:3:6: syntax error: cannot use x++ as value",
                  "x.go:5:16: syntax error: cannot use f(a, b...) += g[i] as value"}));
  EXPECT_EQ(Errors("package p\nvar c <-chan<- int\n"),
            Msgs{"x.go:2:16: syntax error: unexpected name int, expected keyword chan"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\telse {}\n}\n"),
            Msgs{"x.go:3:2: syntax error: unexpected keyword else, expected }"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tx++ 1\n}\n"),
            Msgs{"x.go:3:6: syntax error: unexpected literal 1 at end of statement"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tx += += 1\n}\n"),
            Msgs{"x.go:3:7: syntax error: unexpected +=, expected expression"});
}

TEST(ParserErrors, PackageClause) {
  EXPECT_EQ(Errors("func f() {}\n"),
            Msgs{"x.go:1:1: syntax error: package statement must be first"});
  EXPECT_EQ(Errors(""), Msgs{"x.go:1:1: syntax error: package statement must be first"});
  EXPECT_EQ(Errors("package\n"), Msgs{"x.go:2:1: syntax error: unexpected EOF, expected name"});
  // Nothing after a broken package clause is reported.
  EXPECT_EQ(Errors("package 1\nfunc {\n"),
            Msgs{"x.go:1:9: syntax error: unexpected literal 1, expected name"});
}

TEST(ParserErrors, OnePerLineQuietAfterEOF) {
  // Several errors on one line: only the first is reported, like gc.
  EXPECT_EQ(Errors("package p\nvar x = ) ) ) ) )\n"),
            Msgs{"x.go:2:9: syntax error: unexpected ), expected expression"});
  // Several errors in one file, one per line.
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tx := \n\ty := )\n\tz = 1\n}\nvar = 1\n"),
            (Msgs{"x.go:4:4: syntax error: unexpected := at end of statement",
                  "x.go:7:5: syntax error: unexpected =, expected name"}));
  // An unterminated function: one error at EOF, no cascade.
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tif x {\n\t\tfor {\n"),
            Msgs{"x.go:5:1: syntax error: unexpected EOF, expected }"});
}

TEST(ParserErrors, ScannerErrorsGoThroughTheParser) {
  int count = 0;
  Msgs got = Errors("package p\nvar s = \"abc\nvar r = 'ab'\n", kParseDefault, &count);
  ASSERT_GE(got.size(), 2u);
  EXPECT_TRUE(got[0].starts_with("x.go:2:13: newline in string")) << got[0];
  EXPECT_EQ(count, static_cast<int>(got.size()));
}

TEST(ParserErrors, Branches) {
  const char* src =
      "package p\n"
      "func f() {\n"
      "\tbreak\n"
      "\tcontinue\n"
      "L:\n"
      "\tfor {\n"
      "\t\tcontinue L\n"
      "\t}\n"
      "M:\n"
      "\tgoto N\n"
      "\tswitch {\n"
      "\tcase true:\n"
      "\t\tfallthrough\n"
      "\tdefault:\n"
      "\t\tfallthrough\n"
      "\t}\n"
      "}\n";
  EXPECT_EQ(Errors(src, kCheckBranches),
            (Msgs{"x.go:3:2: break is not in a loop, switch, or select",
                  "x.go:4:2: continue is not in a loop",
                  "x.go:9:1: label M defined and not used",
                  "x.go:10:7: label N not defined",
                  "x.go:15:3: cannot fallthrough final case in switch"}));
  // Without the mode, nothing is checked.
  EXPECT_EQ(Errors(src), Msgs{});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tgoto L\n\tx := 1\nL:\n\t_ = x\n}\n", kCheckBranches),
            Msgs{"x.go:3:7: goto L jumps over declaration of x at x.go:4:4"});
  EXPECT_EQ(Errors("package p\nfunc f() {\n\tgoto L\n\t{\n\tL:\n\t}\n}\n", kCheckBranches),
            Msgs{"x.go:3:7: goto L jumps into block starting at x.go:4:2"});
  EXPECT_EQ(Errors("package p\nfunc f() {\nL:\nL:\n\tgoto L\n}\n", kCheckBranches),
            Msgs{"x.go:4:1: label L already defined at x.go:3:1"});
}

}  // namespace
}  // namespace gordian::syntax
