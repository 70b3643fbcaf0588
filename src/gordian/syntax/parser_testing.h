// This file holds test helpers for the parser: CheckTree verifies the
// structural invariants every tree returned by Parse must satisfy, with or
// without syntax errors. ParseString parses a file held in a string.
// GoEnvGoRoot and GoFilesUnder find the installed Go's sources. Used by the
// parser's tests only (and, for the GOROOT files, by bench/parse_perftest).
#pragma once

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "gordian/syntax/nodes.h"
#include "gordian/syntax/source.h"
#include "gordian/syntax/syntax.h"
#include "gordian/syntax/walk.h"

namespace gordian::syntax::testing {

// Returns "" if the tree of f is well formed, else a description of the
// first problem found:
//   - no null child where nodes.h says "never null";
//   - every node: begin <= pos <= end, inside the file;
//   - children lie inside their parent's extent and follow each other in
//     source order without overlapping (except the type and tag that fields
//     declared together share: those lie after the earlier fields);
//   - a Name's value and a BasicLit's value are their source text (a name
//     made up after an error is "_" with an empty extent);
//   - comments are in source order and do not overlap.
inline std::string CheckTree(const File* f, const SourceFile& src) {
  if (f == nullptr) return "null file";
  const Pos lo = src.base(), hi = src.base() + src.size();
  auto where = [&](const Node* n) {
    Position p = src.PositionAt(src.Contains(n->pos) ? src.OffsetOf(n->pos) : 0);
    return fmt::format("{} {}:{} [{}, {})", NodeKindName(n->kind), p.line, p.column,
                       n->begin - lo, n->end - lo);
  };
  auto text = [&](const Node* n) {
    return src.content().substr(n->begin - lo, n->end - n->begin);
  };
  std::unordered_set<const Node*> seen;
  std::vector<const Node*> stack{f};
  std::string problem;
  while (!stack.empty() && problem.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (!(n->begin <= n->end && n->begin >= lo && n->end <= hi)) {
      return "bad extent: " + where(n);
    }
    if (!Is<File>(n) && !(n->begin <= n->pos && n->pos <= n->end)) {
      return "pos outside extent: " + where(n);
    }
    if (auto* nm = As<Name>(n)) {
      if (text(n) != nm->value && !(nm->value == "_" && n->begin == n->end) &&
          !(nm->value == "." && text(n) == ".")) {
        return fmt::format("name {:?} has text {:?}: {}", nm->value, text(n), where(n));
      }
    }
    if (auto* lit = As<BasicLit>(n); lit != nullptr && text(n) != lit->value) {
      return fmt::format("literal {:?} has text {:?}", lit->value, text(n));
    }
    // Required children (nodes.h: pointer fields without "nil means").
    bool missing = false;
    switch (n->kind) {
      case NodeKind::SelectorExpr: missing = !As<SelectorExpr>(n)->x || !As<SelectorExpr>(n)->sel; break;
      case NodeKind::IndexExpr: missing = !As<IndexExpr>(n)->x || !As<IndexExpr>(n)->index; break;
      case NodeKind::Operation: missing = !As<Operation>(n)->x; break;
      case NodeKind::CallExpr: missing = !As<CallExpr>(n)->fun; break;
      case NodeKind::ParenExpr: missing = !As<ParenExpr>(n)->x; break;
      case NodeKind::KeyValueExpr: missing = !As<KeyValueExpr>(n)->key || !As<KeyValueExpr>(n)->value; break;
      case NodeKind::ArrayType: missing = !As<ArrayType>(n)->elem; break;
      case NodeKind::SliceType: missing = !As<SliceType>(n)->elem; break;
      case NodeKind::MapType: missing = !As<MapType>(n)->key || !As<MapType>(n)->value; break;
      case NodeKind::ChanType: missing = !As<ChanType>(n)->elem; break;
      case NodeKind::FuncLit: missing = !As<FuncLit>(n)->type || !As<FuncLit>(n)->body; break;
      case NodeKind::IfStmt: missing = !As<IfStmt>(n)->then; break;
      case NodeKind::ForStmt: missing = !As<ForStmt>(n)->body; break;
      case NodeKind::FuncDecl: missing = !As<FuncDecl>(n)->name || !As<FuncDecl>(n)->type; break;
      case NodeKind::TypeDecl: missing = !As<TypeDecl>(n)->name || !As<TypeDecl>(n)->type; break;
      case NodeKind::AssignStmt: missing = !As<AssignStmt>(n)->lhs; break;
      case NodeKind::File: missing = !As<File>(n)->pkg_name; break;
      case NodeKind::Field: missing = !As<Field>(n)->type; break;
      case NodeKind::StructType: {
        auto* st = As<StructType>(n);
        missing = !st->tags.empty() && st->tags.size() != st->fields.size();
        break;
      }
      default: break;
    }
    if (missing) return "missing child: " + where(n);

    const Node* prev = nullptr;
    std::vector<const Node*> kids;
    ForEachChild(n, [&](const Node* c) { kids.push_back(c); });
    for (const Node* c : kids) {
      bool shared = false;
      if (auto* fld = As<Field>(n)) shared = c == fld->type && c->end > n->end;
      if (!seen.insert(c).second) {
        if (Is<BasicLit>(c) || (Is<Field>(n) && c == As<Field>(n)->type)) continue;  // shared tag or type
        return "node reached twice: " + where(c);
      }
      if (!shared && !Is<File>(n) && (c->begin < n->begin || c->end > n->end)) {
        return fmt::format("child {} outside parent {}", where(c), where(n));
      }
      if (prev != nullptr && !shared && !(Is<StructType>(n) && Is<BasicLit>(c)) &&
          c->begin < prev->end) {
        return fmt::format("child {} overlaps previous {} in {}", where(c), where(prev), where(n));
      }
      // Tags of fields declared together are shared: order fields only.
      if (!shared && !(Is<StructType>(n) && Is<BasicLit>(c))) prev = c;
      stack.push_back(c);
    }
  }
  Pos last = lo;
  for (const Comment& c : f->comments) {
    if (c.pos < last || c.end < c.pos || c.end > hi) return "comments out of order";
    last = c.end;
  }
  return problem;
}

// A file parsed from a string, with the storage its tree lives in.
struct Parsed {
  SourceSet set;
  Arena arena;
  File* file = nullptr;
  int errors = 0;
  std::string first_error;  // formatted; "" when there are none
};

inline std::unique_ptr<Parsed> ParseString(const std::string& text,
                                           const std::string& name = "test.go") {
  auto p = std::make_unique<Parsed>();
  SourceFile* src = p->set.AddFile(name, text);
  ParseResult r = Parse(*src, &p->arena, [&](const Error& e) {
    if (p->first_error.empty()) p->first_error = FormatError(*src, e);
  });
  p->file = r.file;
  p->errors = r.error_count;
  return p;
}

// The GOROOT that `<go> env GOROOT` prints, or "" when that fails.
inline std::string GoEnvGoRoot(const std::string& go = "go") {
  std::string out;
  if (FILE* f = popen((go + " env GOROOT 2>/dev/null").c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    pclose(f);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// The .go files below dir, outside testdata directories, sorted.
inline std::vector<std::string> GoFilesUnder(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory() && it->path().filename() == "testdata") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".go") {
      files.push_back(it->path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace gordian::syntax::testing
