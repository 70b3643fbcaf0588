// Parses every .go file under $(go env GOROOT)/src outside testdata
// directories and asserts that each one parses without errors (branch checks
// included) into a well formed tree (parser_testing.h). Skipped when Go is
// not installed.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gordian/syntax/parser_testing.h"
#include "gordian/syntax/syntax.h"
#include "gordian/syntax/walk.h"

namespace gordian::syntax {
namespace {

namespace fs = std::filesystem;

std::string GoRootSrc() {
  std::string root = testing::GoEnvGoRoot();
  return root.empty() ? root : root + "/src";
}

// The source tree from the environment, else the one this test was built
// from (__FILE__ is relative in builds that use ccache with base_dir, so it
// cannot locate testdata from another directory). Absolute either way.
fs::path SyntaxTestdataDir() {
  const char* src = getenv("GORDIAN_SOURCE_DIR");
  fs::path root = src != nullptr && *src ? src : GORDIAN_SOURCE_DIR_DEFAULT;
  return fs::absolute(root / "src/gordian/syntax/testdata");
}

TEST(GoRoot, EveryFileParsesWithoutErrors) {
  std::string src_dir = GoRootSrc();
  if (src_dir.empty() || !fs::is_directory(src_dir)) GTEST_SKIP() << "go is not installed";
  std::vector<std::string> files = testing::GoFilesUnder(src_dir);
  ASSERT_GT(files.size(), 1000u);

  SourceSet set;
  size_t bytes = 0, failed = 0, malformed = 0;
  double parse_secs = 0;
  for (const std::string& path : files) {
    std::string err;
    SourceFile* src = set.ReadFile(path, &err);
    ASSERT_NE(src, nullptr) << err;
    bytes += src->size();
    Arena arena;
    std::vector<std::string> errors;
    auto t0 = std::chrono::steady_clock::now();
    // kCheckBranches: the standard library has no misplaced labels or
    // branches either.
    ParseResult r = Parse(*src, &arena, [&](const Error& e) {
      if (errors.size() < 3) errors.push_back(FormatError(*src, e));
    }, kCheckBranches);
    parse_secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r.error_count != 0) {
      if (++failed <= 10) ADD_FAILURE() << path << ": " << errors[0];
      continue;
    }
    std::string problem = testing::CheckTree(r.file, *src);
    if (!problem.empty() && ++malformed <= 10) ADD_FAILURE() << path << ": " << problem;
  }
  std::printf("parsed %zu files, %zu bytes (%.1f MB) in %.2fs (%.1f MB/s); %zu with errors, "
              "%zu malformed trees\n",
              files.size(), bytes, static_cast<double>(bytes) / 1e6, parse_secs,
              static_cast<double>(bytes) / 1e6 / parse_secs, failed, malformed);
  EXPECT_EQ(failed, 0u);
  EXPECT_EQ(malformed, 0u);
}

// ----------------------------------------------------------------------------
// Extents against go/ast: testdata/goast (a Go program, built here) prints
// the extent of every node go/parser finds; our trees must have the same
// multiset of (kind, begin, end).

using Extent = std::tuple<std::string, uint32_t, uint32_t>;

// Our counterpart of testdata/goast's output for one file.
std::map<Extent, int> OurExtents(File* f, const SourceFile& src) {
  std::map<Extent, int> out;
  std::unordered_set<const Node*> seen, decl_types;
  std::vector<Node*> stack{f};
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;  // shared types and tags once
    ForEachChild(n, [&](Node* c) { stack.push_back(c); });
    if (auto* fd = As<FuncDecl>(n)) decl_types.insert(fd->type);
    const char* k = nullptr;
    Pos b = n->begin;
    switch (n->kind) {
      case NodeKind::Name: k = "id"; break;
      case NodeKind::BasicLit: k = "lit"; break;
      case NodeKind::CompositeLit: k = "complit"; break;
      case NodeKind::FuncLit: k = "funclit"; break;
      case NodeKind::ParenExpr: k = "paren"; break;
      case NodeKind::SelectorExpr: k = "sel"; break;
      case NodeKind::IndexExpr: k = "index"; break;
      case NodeKind::SliceExpr: k = "slice"; break;
      case NodeKind::AssertExpr: k = "assert"; break;
      case NodeKind::TypeSwitchGuard:  // go/ast: a TypeAssertExpr without its lhs
        k = "assert";
        b = static_cast<TypeSwitchGuard*>(n)->x->begin;
        break;
      case NodeKind::CallExpr: k = "call"; break;
      case NodeKind::Operation: k = static_cast<Operation*>(n)->y ? "binary" : "unary"; break;
      case NodeKind::KeyValueExpr: k = "kv"; break;
      case NodeKind::ArrayType:
      case NodeKind::SliceType: k = "array"; break;
      case NodeKind::DotsType: k = "dots"; break;
      case NodeKind::StructType: k = "struct"; break;
      case NodeKind::FuncType: k = decl_types.count(n) ? nullptr : "functype"; break;
      case NodeKind::InterfaceType: k = "iface"; break;
      case NodeKind::MapType: k = "map"; break;
      case NodeKind::ChanType: k = "chan"; break;
      case NodeKind::ExprStmt: k = "exprstmt"; break;
      case NodeKind::SendStmt: k = "send"; break;
      case NodeKind::AssignStmt: k = "assign"; break;
      case NodeKind::CallStmt: k = static_cast<CallStmt*>(n)->tok == Token::Go ? "go" : "defer"; break;
      case NodeKind::ReturnStmt: k = "return"; break;
      case NodeKind::BranchStmt: k = "branch"; break;
      case NodeKind::BlockStmt: k = "block"; break;
      case NodeKind::IfStmt: k = "if"; break;
      case NodeKind::CaseClause: k = "case"; break;
      case NodeKind::SwitchStmt: k = "switch"; break;
      case NodeKind::CommClause: k = "comm"; break;
      case NodeKind::SelectStmt: k = "select"; break;
      case NodeKind::ForStmt: k = "for"; break;
      case NodeKind::LabeledStmt: k = "label"; break;
      case NodeKind::DeclStmt: k = "declstmt"; break;
      case NodeKind::ImportDecl:
      case NodeKind::ConstDecl:
      case NodeKind::TypeDecl:
      case NodeKind::VarDecl: k = "decl"; break;
      case NodeKind::FuncDecl: k = "funcdecl"; break;
      default: break;
    }
    if (k != nullptr) out[{k, b - src.base(), n->end - src.base()}]++;
  }
  return out;
}

TEST(GoRoot, ExtentsMatchGoAst) {
  std::string src_dir = GoRootSrc();
  if (src_dir.empty() || !fs::is_directory(src_dir)) GTEST_SKIP() << "go is not installed";
  fs::path tool_src = SyntaxTestdataDir() / "goast/main.go";
  ASSERT_TRUE(fs::is_regular_file(tool_src)) << tool_src << " not found";
  fs::path tmp = fs::temp_directory_path() / fmt::format("gordian-goast-{}", getpid());
  fs::create_directories(tmp);
  std::string tool = (tmp / "goast").string();
  // Built from outside any module (the program uses only the standard
  // library, so nothing is downloaded); a failure is reported with go's
  // output rather than skipped, so that the comparison cannot go unnoticed.
  std::string cmd = fmt::format("cd '{}' && go build -o '{}' '{}' 2>&1", tmp.string(), tool,
                                tool_src.string());
  if (std::system(cmd.c_str()) != 0) {
    fs::remove_all(tmp);
    FAIL() << "cannot build " << tool_src << " (go's output above)";
  }

  // Every 11th file of GOROOT/src: some 600 files of every kind.
  std::vector<std::string> all = testing::GoFilesUnder(src_dir), files;
  for (size_t i = 0; i < all.size(); i += 11) files.push_back(all[i]);
  std::string list = (tmp / "files").string();
  {
    std::ofstream out(list);
    for (const std::string& f : files) out << f << "\n";
  }
  std::string outfile = (tmp / "out").string();
  ASSERT_EQ(std::system(fmt::format("xargs '{}' < '{}' > '{}'", tool, list, outfile).c_str()), 0);

  std::map<std::string, std::map<Extent, int>> theirs;
  {
    std::ifstream in(outfile);
    std::string line, cur;
    while (std::getline(in, line)) {
      std::istringstream ls(line);
      std::string k;
      ls >> k;
      if (k == "FILE" || k == "ERR") {
        ls >> cur;
        theirs[cur];
        continue;
      }
      uint32_t b, e;
      ls >> b >> e;
      theirs[cur][{k, b, e}]++;
    }
  }
  fs::remove_all(tmp);
  ASSERT_EQ(theirs.size(), files.size());

  SourceSet set;
  size_t nodes = 0, differing = 0;
  for (const std::string& path : files) {
    std::string err;
    SourceFile* src = set.ReadFile(path, &err);
    ASSERT_NE(src, nullptr) << err;
    Arena arena;
    ParseResult r = Parse(*src, &arena, nullptr);
    ASSERT_EQ(r.error_count, 0) << path;
    std::map<Extent, int> ours = OurExtents(r.file, *src);
    const std::map<Extent, int>& go = theirs[path];
    for (auto& [x, n] : ours) nodes += n;
    if (ours == go) continue;
    if (++differing > 5) continue;
    std::string diff;
    for (auto& [x, n] : go) {
      auto it = ours.find(x);
      if (it == ours.end() || it->second != n) {
        diff += fmt::format(" go:{}@[{},{})", std::get<0>(x), std::get<1>(x), std::get<2>(x));
      }
    }
    for (auto& [x, n] : ours) {
      auto it = go.find(x);
      if (it == go.end() || it->second != n) {
        diff += fmt::format(" us:{}@[{},{})", std::get<0>(x), std::get<1>(x), std::get<2>(x));
      }
    }
    ADD_FAILURE() << path << ":" << diff.substr(0, 600);
  }
  std::printf("compared %zu nodes in %zu files with go/ast: %zu files differ\n", nodes,
              files.size(), differing);
  EXPECT_EQ(differing, 0u);
}

}  // namespace
}  // namespace gordian::syntax
