// Tests of the IR reader and writer on small IR texts: a well-formed
// program reads into the expected structs and prints back byte for byte;
// each kind of malformed input is an error naming the line and the
// problem; random damage to a valid text never crashes the reader.
#include "gordian/ir/reader.h"

#include <gtest/gtest.h>

#include <random>

#include "gordian/ir/expr.h"
#include "gordian/ir/writer.h"

namespace gordian::ir {
namespace {

// A worker pool: Run makes a channel of capacity len(jobs), starts a
// closure per worker, sends, closes, waits; the closure ranges over the
// channel under a mutex. Written by hand in the generator's format.
constexpr const char* kGood = R"IR(gordian-ir 1
meta go=go1.26.8 callgraph=vta root=/tmp/m
package example.com/m name=m dir=/tmp/m tests=1
func F1 name=example.com/m.Run pkg=example.com/m kind=func pos=m.go:5:6 exported=1 results=0
param p0 name=jobs type=[]int
param p1 name=workers type=int
block 0 comment=entry succs=1
op alloc pos=m.go:7:6 dst=t0 type=sync.WaitGroup prim=waitgroup heap=1
op make-chan pos=m.go:6:12 dst=t1 elem=int cap="(len p0)"
block 1 comment=for.loop succs=2,3 preds=0,2
op if pos=m.go:8:16 cond="(< t2 p1)"
block 2 comment=for.body succs=1 preds=1
op wg-add pos=m.go:9:9 on=t0 delta=1
op closure pos=m.go:10:6 dst=t4 fn=fn:F2 bind=t0,t1
op go pos=m.go:10:3 mode=closure fn=t4 callee=F2
block 3 comment=for.done preds=1
op select pos=m.go:12:2 dst=t5 blocking=0 default=1 cases=2
case 0 dir=send ch=t1 val=1 target=2 pos=m.go:13:9
case 1 dir=recv ch=t1 target=3 pos=m.go:14:7
op close pos=m.go:16:7 ch=t1
op wg-wait pos=m.go:17:9 on=t0
op call pos=m.go:18:13 mode=static callee=F3 args="t1"
op return pos=m.go:19:1
loop header=1 blocks=1,2 comment=for.loop cond="(< t2 p1)" exitwhen=0 var=t2 init=0 step="(+ t2 1)" pos=m.go:8:2
func F2 name=example.com/m.Run$1 pkg=example.com/m kind=closure pos=m.go:10:6 parent=F1 results=0
free f0 name=wg type=*sync.WaitGroup prim=waitgroup
free f1 name=ch type="chan int" prim=chan
block 0 comment=entry succs=1
op wg-done pos=m.go:11:4 via=defer on=f0
block 1 comment=rangechan.loop succs=1,2 preds=0,1
op recv pos=m.go:12:4 dst=t0 ch=f1 commaok=1 range=1
op if pos=m.go:12:4 cond="(extract t0 1)"
block 2 comment=rangechan.done preds=1
op run-defers pos=m.go:13:3
op return pos=m.go:13:3
loop header=1 blocks=1 comment=rangechan.loop cond="(extract t0 1)" exitwhen=0 pos=m.go:12:4
extern F3 name=fmt.Println pkg=fmt
end
)IR";

TEST(IrReader, ReadsAWellFormedProgram) {
  Program p;
  std::string err;
  ASSERT_TRUE(ReadProgram(kGood, "good.ir", &p, &err)) << err;
  EXPECT_EQ(p.go_version, "go1.26.8");
  ASSERT_EQ(p.packages.size(), 1u);
  EXPECT_TRUE(p.packages[0].tests);
  ASSERT_EQ(p.functions.size(), 2u);
  const Function& run = p.functions[0];
  EXPECT_EQ(run.name, "example.com/m.Run");
  EXPECT_TRUE(run.exported);
  ASSERT_EQ(run.params.size(), 2u);
  EXPECT_EQ(run.params[1].name, "workers");
  ASSERT_EQ(run.blocks.size(), 4u);
  const Op& mk = run.blocks[0].ops[1];
  EXPECT_EQ(mk.kind, OpKind::kMakeChan);
  EXPECT_EQ(p.PosString(mk.pos), "m.go:6:12");
  Expr cap;
  ASSERT_TRUE(ParseExpr(*mk.fields.Get(Key::kCap), &cap, &err));
  EXPECT_EQ(FreeRefs(cap), std::vector<std::string>{"p0"});
  const Op& sel = run.blocks[3].ops[0];
  EXPECT_EQ(sel.kind, OpKind::kSelect);
  ASSERT_EQ(sel.cases.size(), 2u);
  EXPECT_TRUE(sel.cases[0].send);
  EXPECT_EQ(*sel.cases[1].fields.Get(Key::kTarget), "3");
  EXPECT_EQ(p.PosString(sel.cases[1].pos), "m.go:14:7");
  EXPECT_EQ(run.blocks[3].ops[1].kind, OpKind::kClose);
  EXPECT_EQ(CategoryOf(run.blocks[2].ops[0].kind), OpCategory::Sync);
  ASSERT_EQ(run.loops.size(), 1u);
  EXPECT_EQ(run.loops[0].blocks, (std::vector<int>{1, 2}));
  EXPECT_EQ(*run.loops[0].fields.Get(Key::kVar), "t2");
  const Function& clo = p.functions[1];
  EXPECT_EQ(clo.parent, "F1");
  ASSERT_EQ(clo.frees.size(), 2u);
  EXPECT_EQ(clo.frees[1].prim, Prim::kChan);
  EXPECT_TRUE(clo.blocks[1].ops[0].fields.Flag(Key::kRange));
  EXPECT_EQ(*clo.blocks[0].ops[0].fields.Get(Key::kVia), "defer");
  EXPECT_EQ(p.FindFunction("F2"), &clo);
  ASSERT_NE(p.FindExtern("F3"), nullptr);
  EXPECT_EQ(p.FindExtern("F3")->name, "fmt.Println");
  EXPECT_EQ(p.FindFunction("F3"), nullptr);
}

TEST(IrReader, WritesBackTheSameText) {
  Program p;
  std::string err;
  ASSERT_TRUE(ReadProgram(kGood, "good.ir", &p, &err)) << err;
  // args="t1" is quoted needlessly in kGood; the writer prints it bare.
  std::string want = kGood;
  want.replace(want.find("args=\"t1\""), 9, "args=t1");
  EXPECT_EQ(WriteProgram(p), want);
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

struct BadCase {
  std::string text;
  std::string want;  // in the error
};

TEST(IrReader, MalformedInputIsAClearError) {
  std::string g = kGood;
  std::vector<BadCase> cases = {
      {"", "empty"},
      {"hello\n", "not a gordian IR file"},
      {Replace(g, "gordian-ir 1", "gordian-ir 3"), "version 3; this gordian reads versions 1 to 2"},
      {Replace(g, "gordian-ir 1", "gordian-ir 0"), "version 0; this gordian reads versions 1 to 2"},
      {Replace(g, "gordian-ir 1", "gordian-ir x"), "bad version line"},
      {g.substr(0, g.size() - 4), "no end line"},
      {g.substr(0, g.size() - 1), "no newline"},
      {g + "op send ch=t1 val=t2\n", "text after the end line"},
      {Replace(g, "op close", "op shut"), "good.ir:20: unknown op kind \"shut\""},
      {Replace(g, "op close pos=m.go:16:7 ch=t1", "op close pos=m.go:16:7"), "good.ir:20: op close: missing field ch="},
      {Replace(g, "ch=t1\nop wg-wait", "ch=t1 color=red\nop wg-wait"), "unknown field color="},
      {Replace(g, "op close pos=m.go:16:7 ch=t1", "op close pos=m.go:16:7 ch=t1 ch=t2"), "given twice"},
      {Replace(g, "cap=\"(len p0)\"", "cap=\"(len p0\""), "missing ')'"},
      {Replace(g, "blocking=0", "blocking=maybe"), "want 0 or 1"},
      {Replace(g, "pos=m.go:16:7", "pos=m.go"), "want file:line:col"},
      {Replace(g, "pos=m.go:16:7", "pos=m.go:-3:1"), "want file:line:col"},
      {Replace(g, "callee=F3", "callee=F9"), "names F9, which no func or extern record defines"},
      {Replace(g, "callee=F3", "callee=main"), "want a function id"},
      {Replace(g, "fn=fn:F2", "fn=fn:F77"), "names F77"},
      {Replace(g, "default=1", "default=9"), "select default: block 9 does not exist in F1"},
      {Replace(g, "target=3", "target=12"), "block 12 does not exist"},
      {Replace(g, "succs=2,3", "succs=2,30"), "block 30 does not exist"},
      {Replace(g, "loop header=1 blocks=1,2", "loop header=7 blocks=1,2"), "loop header: block 7"},
      {Replace(g, "case 1 dir=recv ch=t1 target=3 pos=m.go:14:7\n", ""), "announced 1 more case"},
      {Replace(g, "case 0 dir=send ch=t1 val=1", "case 0 dir=send ch=t1"), "a send case needs val="},
      {Replace(g, "case 0 dir=send", "case 0 dir=sideways"), "dir= must be send or recv"},
      {Replace(g, "case 1 dir=recv", "case 5 dir=recv"), "expected case 1"},
      {Replace(g, "block 2 comment=for.body", "block 7 comment=for.body"), "expected block 2"},
      {Replace(g, "param p1 name=workers", "param p3 name=workers"), "expected p1"},
      {Replace(g, "func F2 name", "func F1 name"), "function id F1 defined twice"},
      {Replace(g, "func F2 name", "func main name"), "bad id"},
      {Replace(g, "prim=waitgroup heap", "prim=semaphore heap"), "unknown primitive kind"},
      {Replace(g, "block 0 comment=entry succs=1\nop alloc", "op alloc"), "op outside a block"},
      {Replace(g, "extern F3", "frobnicate F3"), "unknown record \"frobnicate\""},
      {Replace(g, "op return pos=m.go:19:1", "op return  pos=m.go:19:1"), "good.ir:23: "},
      {Replace(g, "meta go", "package x name=x\nmeta go"), "meta must be the second line"},
      {Replace(g, "op wg-wait", "case 0 dir=recv ch=t1\nop wg-wait"), "case record without a select"},
      {Replace(g, "results=0\nparam p0", "results=-1\nparam p0"), "non-negative integer"},
      {Replace(g, "op close pos=m.go:16:7 ch=t1", "op close pos=m.go:16:7 ch=\"t 1\""), "not a value reference"},
      {Replace(g, "op close pos=m.go:16:7 ch=t1", "op close pos=m.go:16:7 ch=t1\r"), "control character"},
  };
  for (const BadCase& c : cases) {
    Program p;
    std::string err;
    EXPECT_FALSE(ReadProgram(c.text, "good.ir", &p, &err)) << "accepted, want error: " << c.want;
    EXPECT_NE(err.find(c.want), std::string::npos) << "error: " << err << "\nwant: " << c.want;
  }
}

TEST(IrReader, HugeLineIsRefused) {
  std::string t = std::string("gordian-ir 1\nop ") + std::string(kMaxLineBytes + 1, 'x') + "\nend\n";
  Program p;
  std::string err;
  EXPECT_FALSE(ReadProgram(t, "big.ir", &p, &err));
  EXPECT_NE(err.find("longer than"), std::string::npos) << err;
}

// Random damage (byte flips, deletions, duplicated lines, truncation) to a
// valid text: the reader answers, never crashes; what it accepts prints.
TEST(IrReader, RandomDamageNeverCrashes) {
  std::mt19937 rng(14);
  const std::string g = kGood;
  int accepted = 0;
  for (int i = 0; i < 8000; i++) {
    std::string t = g;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !t.empty(); e++) {
      size_t at = rng() % t.size();
      switch (rng() % 4) {
        case 0: t[at] = static_cast<char>(rng() % 256); break;
        case 1: t.erase(at, 1 + rng() % 8); break;
        case 2: {
          size_t ls = t.rfind('\n', at);
          ls = ls == std::string::npos ? 0 : ls + 1;
          size_t le = t.find('\n', at);
          if (le != std::string::npos) t.insert(ls, t.substr(ls, le - ls + 1));
          break;
        }
        case 3: t.resize(at); break;
      }
    }
    Program p;
    std::string err;
    if (ReadProgram(t, "x.ir", &p, &err)) {
      accepted++;
      Program q;
      ASSERT_TRUE(ReadProgram(WriteProgram(p), "again.ir", &q, &err)) << err;
    } else {
      ASSERT_FALSE(err.empty());
    }
  }
  EXPECT_LT(accepted, 8000);
}

}  // namespace
}  // namespace gordian::ir
