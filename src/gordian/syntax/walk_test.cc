// Tests of ForEachChild and Inspect: child order, completeness over every
// node kind, skipping, pre/post nesting and shared field types.
#include "gordian/syntax/walk.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gordian/syntax/dump.h"
#include "gordian/syntax/parser_testing.h"
#include "gordian/syntax/syntax.h"

namespace gordian::syntax {
namespace {

std::unique_ptr<testing::Parsed> ParseOK(const std::string& text) {
  auto p = testing::ParseString(text, "walk.go");
  EXPECT_EQ(p->errors, 0) << p->first_error;
  return p;
}

// The first node of kind T in pre-order.
template <class T>
T* Find(Node* root) {
  T* found = nullptr;
  Inspect(root, [&](Node* n) {
    if (found == nullptr && Is<T>(n)) found = static_cast<T*>(n);
    return found == nullptr;
  });
  return found;
}

std::vector<std::string> ChildKinds(Node* n) {
  std::vector<std::string> out;
  ForEachChild(n, [&](Node* c) { out.emplace_back(NodeKindName(c->kind)); });
  return out;
}

using Kinds = std::vector<std::string>;

TEST(WalkTest, ChildrenInSourceOrder) {
  auto p = ParseOK(
      "package p\n"
      "type S struct { a int `t`; B }\n"
      "func f() {\n"
      "\t_ = x[1:n:m]\n"
      "\t_ = y[:n]\n"
      "\tif v := 1; v > 0 { } else { }\n"
      "}\n");
  auto* st = Find<StructType>(p->file);
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(ChildKinds(st), (Kinds{"Field", "BasicLit", "Field"}));

  auto* sl = Find<SliceExpr>(p->file);
  ASSERT_NE(sl, nullptr);
  EXPECT_EQ(ChildKinds(sl), (Kinds{"Name", "BasicLit", "Name", "Name"}));

  auto* is = Find<IfStmt>(p->file);
  ASSERT_NE(is, nullptr);
  EXPECT_EQ(ChildKinds(is), (Kinds{"AssignStmt", "Operation", "BlockStmt", "BlockStmt"}));

  // Absent children are skipped: y[:n] has x and index[1] only.
  SliceExpr* second = nullptr;
  Inspect(p->file, [&](Node* n) {
    if (auto* s = As<SliceExpr>(n); s != nullptr && s != sl) second = s;
    return true;
  });
  ASSERT_NE(second, nullptr);
  std::vector<Node*> kids;
  ForEachChild(second, [&](Node* c) { kids.push_back(c); });
  ASSERT_EQ(kids.size(), 2u);
  EXPECT_EQ(kids[1], second->index[1]);

  // The const overload sees the same children.
  std::vector<const Node*> ckids;
  ForEachChild(static_cast<const Node*>(second), [&](const Node* c) { ckids.push_back(c); });
  EXPECT_EQ(ckids, std::vector<const Node*>(kids.begin(), kids.end()));
}

TEST(WalkTest, SharedFieldTypeVisitedOnce) {
  auto p = ParseOK("package p\nfunc f(a, b, c int, d string) {}\n");
  auto* ft = Find<FuncType>(p->file);
  ASSERT_NE(ft, nullptr);
  ASSERT_EQ(ft->params.size(), 4u);
  ASSERT_EQ(ft->params[0]->type, ft->params[2]->type);
  // ForEachChild on each Field yields the shared type: 3 times.
  int via_fields = 0;
  for (Field* f : ft->params) {
    ForEachChild(f, [&](Node* c) { via_fields += c == ft->params[0]->type; });
  }
  EXPECT_EQ(via_fields, 3);
  // Inspect visits it once, and still every Field and name.
  int type_visits = 0, fields = 0, names = 0;
  Inspect(ft, [&](Node* n) {
    type_visits += n == ft->params[0]->type;
    fields += Is<Field>(n);
    names += Is<Name>(n);
    return true;
  });
  EXPECT_EQ(type_visits, 1);
  EXPECT_EQ(fields, 4);
  EXPECT_EQ(names, 6);  // a b c int d string
}

TEST(WalkTest, PreFalseSkipsChildrenAndPostNests) {
  auto p = ParseOK(
      "package p\n"
      "func f() { g(func() { h() }) }\n");
  std::vector<std::string> seen;
  std::vector<Node*> stack;
  bool balanced = true;
  Inspect(
      p->file,
      [&](Node* n) {
        seen.emplace_back(NodeKindName(n->kind));
        if (Is<FuncLit>(n)) return false;  // skip the closure's body
        stack.push_back(n);
        return true;
      },
      [&](Node* n) {
        balanced = balanced && !stack.empty() && stack.back() == n;
        if (!stack.empty()) stack.pop_back();
      });
  EXPECT_TRUE(balanced);
  EXPECT_TRUE(stack.empty());
  int calls = 0;
  for (const std::string& k : seen) calls += k == "CallExpr";
  EXPECT_EQ(calls, 1);  // h() inside the FuncLit was not visited
  EXPECT_EQ(seen.back(), "FuncLit");
}

// A file that uses every node kind but BadExpr.
constexpr const char* kEveryKind = R"(package p

import f "fmt"

const c, d int = 1, 2

type (
	T[P any] struct {
		a, b []P `tag`
		m    map[string]chan<- int
	}
	I interface{ M(...int) }
	A = [4]*int
)

var v = T[int]{a: nil}

func (t *T[P]) g(x any) (int, error) {
	var w int
	switch y := x.(type) {
	case int:
		_ = y
	}
	switch {
	default:
	}
	select {
	case ch <- 1:
	case <-ch:
	}
	for i := range 3 {
		_ = i
	}
	for ; ; w++ {
		break
	}
L:
	if z, ok := x.(int); ok && -z > 0 {
		goto L
	} else {
		;
	}
	go func() {}()
	defer f.Println(t.a[0:1], (w))
	return 0, nil
}
)";

TEST(WalkTest, ReachesEveryNodeKind) {
  auto p = ParseOK(kEveryKind);
  std::set<NodeKind> kinds;
  Inspect(p->file, [&](Node* n) {
    kinds.insert(n->kind);
    return true;
  });
  for (int k = 0; k < static_cast<int>(NodeKind::Count_); k++) {
    auto kind = static_cast<NodeKind>(k);
    if (kind == NodeKind::BadExpr) continue;
    EXPECT_TRUE(kinds.count(kind)) << "never visited: " << NodeKindName(kind);
  }
}

TEST(WalkTest, AgreesWithTheDump) {
  // dump.cc lists children with its own per-kind code: both must find the
  // same nodes (the dump shows a shared type once, like Inspect).
  auto p = ParseOK(kEveryKind);
  int visited = 0;
  Inspect(p->file, [&](Node*) {
    visited++;
    return true;
  });
  std::string dump = DumpFile(*p->file);
  int lines = 0;
  size_t start = 0;
  while (start < dump.size()) {
    size_t nl = dump.find('\n', start);
    std::string_view line(dump.data() + start, nl - start);
    if (line == "comments:") break;
    lines += line.find(" @") != std::string_view::npos;
    start = nl + 1;
  }
  EXPECT_EQ(visited, lines) << dump;
}

}  // namespace
}  // namespace gordian::syntax
