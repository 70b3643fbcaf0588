// Round-trips every .go file under $(go env GOROOT)/src outside testdata
// directories through the printer: parse, print, re-parse. Each output must
// parse without errors to a tree EqualTrees to the original, with the same
// comment texts in the same order, each comment still starting its line if
// (and only if) it did, and //line directives still in column 1. Prints how
// many files come out byte-identical (GOROOT is gofmt-formatted).
//
// The stress tests then feed the printer the same files in layouts gofmt
// never produces, with equal trees: a comment between every two tokens,
// every line joined that can be, a newline after every token that allows
// one, statements without positions inserted into every block (as a rewrite
// does), and no positions at all (the hand-built-tree path). To keep the
// sanitizer run short they take every third file, or all of them when
// GORDIAN_ROUNDTRIP_ALL is set. Skipped when Go is not installed.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gordian/syntax/equal.h"
#include "gordian/syntax/parser_testing.h"
#include "gordian/syntax/printer.h"
#include "gordian/syntax/scanner.h"
#include "gordian/syntax/syntax.h"
#include "gordian/syntax/walk.h"
#include "gordian/util/sanitized.h"

namespace gordian::syntax {
namespace {

namespace fs = std::filesystem;

std::string InstalledGoRootSrc() {
  for (const char* go : {"go", "/usr/local/go/bin/go"}) {
    std::string out = testing::GoEnvGoRoot(go);
    if (!out.empty() && fs::is_directory(out + "/src")) return out + "/src";
  }
  return "";
}

bool StartsLine(const SourceFile& src, Pos p) {
  std::string_view t = src.content();
  uint32_t o = src.OffsetOf(p);
  while (o > 0 && (t[o - 1] == ' ' || t[o - 1] == '\t')) o--;
  return o == 0 || t[o - 1] == '\n';
}

// Checks the printed text `out` of file `f` (parsed from `src`); returns a
// description of the first problem, or "" when the round trip holds.
std::string CheckPrinted(const SourceFile& src, const File& f, const std::string& out,
                         bool check_comment_lines) {
  SourceSet set;
  SourceFile* psrc = set.AddFile(src.filename() + ".printed", out);
  Arena arena;
  std::string first;
  ParseResult r = Parse(*psrc, &arena, [&](const Error& e) {
    if (first.empty()) first = FormatError(*psrc, e);
  });
  if (r.error_count > 0) return "printed output does not parse: " + first;
  std::string diff;
  if (!EqualTrees(&f, r.file, &diff)) return "trees differ: " + diff;
  if (f.comments.size() != r.file->comments.size()) {
    return "comment count " + std::to_string(f.comments.size()) + " vs " +
           std::to_string(r.file->comments.size());
  }
  for (size_t i = 0; i < f.comments.size(); i++) {
    const Comment& a = f.comments[i];
    const Comment& b = r.file->comments[i];
    std::string where = src.PositionAt(src.OffsetOf(a.pos)).String();
    if (a.text != b.text) return where + ": comment text changed";
    if (!check_comment_lines) continue;
    if (StartsLine(src, a.pos) != StartsLine(*psrc, b.pos)) {
      return where + ": comment " + (StartsLine(src, a.pos) ? "no longer starts" : "now starts") +
             " its line";
    }
    if (a.text.starts_with("//line ") && src.PositionAt(src.OffsetOf(a.pos)).column == 1 &&
        psrc->PositionAt(psrc->OffsetOf(b.pos)).column != 1) {
      return where + ": //line directive left column 1";
    }
  }
  return "";
}

// Rewrites a file's layout without changing its tokens:
//   kComments: a /*N*/ before every token, a //N after every line-ending token;
//   kJoin: every newline that is not needed replaced by a blank or ";";
//   kNewlines: a newline after every token where that inserts no semicolon.
enum class Mangling { kComments, kJoin, kNewlines };

std::string Mangle(const SourceFile& src, Mangling how) {
  Scanner s(src, nullptr, nullptr);
  std::string_view text = src.content();
  std::string out;
  out.reserve(text.size() * 2);
  uint32_t prev = 0;
  int n = 0;
  bool prev_nlsemi = false;
  for (s.Next(); s.tok != Token::EOF_; s.Next()) {
    if (s.tok == Token::Semi && s.lit != "semicolon") continue;  // automatic
    uint32_t b = src.OffsetOf(s.pos), e = src.OffsetOf(s.end);
    std::string_view gap = text.substr(prev, b - prev);
    bool has_comment = gap.find("//") != std::string_view::npos ||
                       gap.find("/*") != std::string_view::npos;
    bool has_newline = gap.find('\n') != std::string_view::npos;
    switch (how) {
      case Mangling::kComments:
        if (has_newline && !has_comment && prev > 0) out += " //" + std::to_string(n++);
        out += gap;
        out += " /*" + std::to_string(n++) + "*/";
        break;
      case Mangling::kJoin:
        if (has_newline && !has_comment) {
          out += prev_nlsemi ? "; " : " ";
        } else {
          out += gap;
        }
        break;
      case Mangling::kNewlines:
        out += gap;
        break;
    }
    out += text.substr(b, e - b);
    prev = e;
    prev_nlsemi = s.tok == Token::Name || s.tok == Token::Literal || s.tok == Token::Break ||
                  s.tok == Token::Continue || s.tok == Token::Fallthrough ||
                  s.tok == Token::Return || s.tok == Token::IncOp || s.tok == Token::Rparen ||
                  s.tok == Token::Rbrack || s.tok == Token::Rbrace;
    if (how == Mangling::kNewlines && !prev_nlsemi && s.tok != Token::Semi &&
        s.tok != Token::Package && s.tok != Token::Import) {
      out += '\n';
    }
  }
  out += text.substr(prev);
  return out;
}

// Runs check(path, source) for every GOROOT file that parses; failures are
// reported with their file names (at most 20).
struct Totals {
  size_t files = 0;
  size_t identical = 0;
  std::vector<std::string> parse_failures;
  size_t failures = 0;
};

// Under the sanitizers the round trips take every 8th file: they check the
// printer, which only tests use, and cost about 13 minutes of CPU there over
// all of GOROOT, the better part of CI. The release run reads every file
// (GORDIAN_ROUNDTRIP_ALL=1 does so under the sanitizers too), and
// GoRoot.EveryFileParsesWithoutErrors still parses all of them under ASan.
constexpr size_t kSanitizerStride = util::kSanitized ? 8 : 1;

void ForEachGoRootFile(
    const std::function<std::string(const SourceFile&, const File&, bool* identical)>& check,
    Totals* t, size_t stride = 1) {
  std::string dir = InstalledGoRootSrc();
  if (dir.empty()) GTEST_SKIP() << "go is not installed";
  std::vector<std::string> files = testing::GoFilesUnder(dir);
  ASSERT_GT(files.size(), 1000u);
  stride *= kSanitizerStride;
  if (std::getenv("GORDIAN_ROUNDTRIP_ALL") != nullptr) stride = 1;
  for (size_t i = 0; i < files.size(); i += stride) {
    const std::string& path = files[i];
    SourceSet set;  // one per file: memory stays flat
    std::string err;
    SourceFile* src = set.ReadFile(path, &err);
    ASSERT_NE(src, nullptr) << err;
    Arena arena;
    ParseResult r = Parse(*src, &arena, {});
    if (r.error_count > 0) {
      // The parser's own test (goroot_test.cc) fails on these.
      t->parse_failures.push_back(FormatError(*src, r.first_error));
      continue;
    }
    t->files++;
    bool identical = false;
    std::string problem = check(*src, *r.file, &identical);
    t->identical += identical;
    if (!problem.empty() && ++t->failures <= 20) ADD_FAILURE() << path << ": " << problem;
  }
  for (const std::string& e : t->parse_failures) {
    std::printf("not checked (parse error): %s\n", e.c_str());
  }
}

TEST(RoundTripGoRoot, EveryFilePrintsToAnEqualTree) {
  Totals t;
  ForEachGoRootFile(
      [](const SourceFile& src, const File& f, bool* identical) {
        std::string out = PrintFile(f);
        *identical = out == src.content();
        return CheckPrinted(src, f, out, true);
      },
      &t);
  if (::testing::Test::IsSkipped()) return;
  std::printf("round trip: %zu files, %zu byte-identical to their source, %zu failed, "
              "%zu not parsed\n",
              t.files, t.identical, t.failures, t.parse_failures.size());
  EXPECT_EQ(t.failures, 0u);
  // GOROOT is gofmt-formatted: nearly all files must print unchanged.
  EXPECT_GT(t.identical, t.files * 99 / 100);
}

void StressTest(Mangling how) {
  Totals t;
  ForEachGoRootFile(
      [how](const SourceFile& orig, const File&, bool*) -> std::string {
        SourceSet set;
        SourceFile* src = set.AddFile(orig.filename() + ".mangled", Mangle(orig, how));
        Arena arena;
        std::string first;
        ParseResult r = Parse(*src, &arena, [&](const Error& e) {
          if (first.empty()) first = FormatError(*src, e);
        });
        if (r.error_count > 0) return "mangled source does not parse (test bug): " + first;
        return CheckPrinted(*src, *r.file, PrintFile(*r.file), true);
      },
      &t, 3);
  if (::testing::Test::IsSkipped()) return;
  EXPECT_EQ(t.failures, 0u);
}

TEST(RoundTripGoRoot, CommentsBetweenAllTokens) { StressTest(Mangling::kComments); }
TEST(RoundTripGoRoot, JoinedLines) { StressTest(Mangling::kJoin); }
TEST(RoundTripGoRoot, NewlinesAfterAllTokens) { StressTest(Mangling::kNewlines); }

TEST(RoundTripGoRoot, InsertedStatements) {
  // As a rewrite does: a statement without positions at the start and the
  // end of every block, among the original statements and comments.
  Totals t;
  ForEachGoRootFile(
      [](const SourceFile& src, const File& f, bool*) -> std::string {
        Arena arena;
        Inspect(const_cast<File*>(&f), [&](Node* n) {
          auto* b = As<BlockStmt>(n);
          if (b == nullptr) return true;
          auto hook = [&]() {
            auto* name = arena.New<Name>();
            name->value = "hook";
            auto* call = arena.New<CallExpr>();
            call->fun = name;
            auto* s = arena.New<ExprStmt>();
            s->x = call;
            return s;
          };
          std::vector<Stmt*> list;
          list.push_back(hook());
          list.insert(list.end(), b->list.begin(), b->list.end());
          list.push_back(hook());
          b->list = arena.Copy(list.data(), list.size());
          return true;
        });
        return CheckPrinted(src, f, PrintFile(f), true);
      },
      &t, 3);
  if (::testing::Test::IsSkipped()) return;
  EXPECT_EQ(t.failures, 0u);
}

TEST(RoundTripGoRoot, NoPositions) {
  Totals t;
  ForEachGoRootFile(
      [](const SourceFile& src, const File& f, bool*) -> std::string {
        // Strip every position, the source and the comments: the printer's
        // default layout must still produce an equal tree.
        Inspect(const_cast<File*>(&f), [](Node* n) {
          n->pos = n->begin = n->end = kNoPos;
          return true;
        });
        File bare = f;
        bare.source = nullptr;
        bare.comments = {};
        return CheckPrinted(src, bare, PrintFile(bare), false);
      },
      &t, 3);
  if (::testing::Test::IsSkipped()) return;
  EXPECT_EQ(t.failures, 0u);
}

}  // namespace
}  // namespace gordian::syntax
