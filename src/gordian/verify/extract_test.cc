// Tests of model extraction (extract.h) on IR written by hand in the
// generator's format (docs/ir-format.md) and read with the IR reader: which
// functions are entry points; the shape of each model (templates, their
// inputs, parameters and whether they are mandatory, the instruction kinds
// in order); inlining bounds, recursion and untracked values as notes; and
// every model passes Validate.
#include "gordian/verify/extract.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "gordian/ir/reader.h"
#include "gordian/verify/checker.h"

namespace gordian::verify {
namespace {

using K = InstrKind;

ir::Program Read(const std::string& body) {
  std::string text = "gordian-ir 2\nmeta go=go1.26.8 callgraph=vta root=/tmp/m\n"
                     "package example.com/m name=m dir=/tmp/m tests=1\n" +
                     body + "end\n";
  ir::Program p;
  std::string err;
  EXPECT_TRUE(ir::ReadProgram(text, "test", &p, &err)) << err;
  return p;
}

Model One(const ir::Program& p, const std::string& name, ExtractOptions opts = {}) {
  for (const ir::Function& f : p.functions) {
    if (f.name == name) {
      Model m = ExtractModel(p, f, opts);
      std::string err;
      EXPECT_TRUE(Validate(m, &err)) << err << "\n" << Print(m);
      return m;
    }
  }
  ADD_FAILURE() << "no function " << name;
  return {};
}

// The kinds of a template's code without jumps, assignments and nops (the
// control-flow glue), for asserting the order of the operations.
std::vector<K> Ops(const Template& t) {
  std::vector<K> out;
  for (const Instr& in : t.code) {
    if (in.kind != K::kJump && in.kind != K::kAssign && in.kind != K::kNop) out.push_back(in.kind);
  }
  return out;
}

const Parameter* Param(const Model& m, const std::string& name) {
  for (const Parameter& p : m.params) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

bool HasNote(const Model& m, const std::string& part) {
  return std::any_of(m.notes.begin(), m.notes.end(),
                     [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

// Run(jobs []int, workers int): a channel of capacity len(jobs), a loop of
// `workers` iterations that Adds 1 and starts a closure that defers Done and
// sends on the channel; then Wait.
constexpr const char* kPool = R"IR(func F1 name=example.com/m.Run pkg=example.com/m kind=func pos=m.go:5:6 exported=1 results=0
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
op wg-wait pos=m.go:17:9 on=t0
op return pos=m.go:18:1
loop header=1 blocks=1,2 comment=for.loop cond="(< t2 p1)" exitwhen=0 var=t2 init=0 step="(+ t2 1)" pos=m.go:8:2
func F2 name=example.com/m.Run$1 pkg=example.com/m kind=closure pos=m.go:10:6 parent=F1 results=0
free f0 name=wg type=*sync.WaitGroup prim=waitgroup
free f1 name=ch type="chan int" prim=chan
block 0 comment=entry
op wg-done pos=m.go:11:10 via=defer on=f0
op send pos=m.go:12:6 ch=f1 val=1
op run-defers pos=m.go:13:3
op return pos=m.go:13:3
)IR";

TEST(Extract, PoolHasATemplatePerGoStatementAndItsParameters) {
  ir::Program p = Read(kPool);
  Model m = One(p, "example.com/m.Run");
  ASSERT_EQ(m.templates.size(), 2u);
  EXPECT_EQ(m.templates[1].name, "example.com/m.Run$1");
  const Parameter* cap = Param(m, "len(jobs)");
  const Parameter* workers = Param(m, "workers");
  ASSERT_NE(cap, nullptr);
  ASSERT_NE(workers, nullptr);
  EXPECT_TRUE(cap->mandatory);
  EXPECT_TRUE(workers->mandatory);  // the loop contains a go statement
  EXPECT_EQ(Ops(m.templates[0]), (std::vector<K>{K::kMakeWaitGroup, K::kMakeChan, K::kBranch, K::kWgAdd,
                                                 K::kGo, K::kWgWait, K::kEnd}));
  // The go passes the WaitGroup and the channel: the worker's slots 0 and 1.
  for (const Instr& in : m.templates[0].code) {
    if (in.kind == K::kGo) {
      EXPECT_EQ(in.b, 1);
      EXPECT_EQ(in.args.size(), 2u);
    }
  }
  // The deferred Done runs after the send, behind its flag.
  std::vector<K> worker = Ops(m.templates[1]);
  auto send = std::find(worker.begin(), worker.end(), K::kSend);
  auto done = std::find(worker.begin(), worker.end(), K::kWgAdd);
  ASSERT_NE(send, worker.end());
  ASSERT_NE(done, worker.end());
  EXPECT_LT(send - worker.begin(), done - worker.begin());
  EXPECT_EQ(worker.back(), K::kEnd);
}

TEST(Extract, LoopBoundIsAnExpressionOverTheParameter) {
  ir::Program p = Read(kPool);
  Model m = One(p, "example.com/m.Run");
  const Parameter* workers = Param(m, "workers");
  ASSERT_NE(workers, nullptr);
  int index = static_cast<int>(workers - m.params.data());
  bool found = false;
  for (const Instr& in : m.templates[0].code) {
    if (in.kind != K::kBranch) continue;
    for (const ExprNode& n : in.expr.nodes) found = found || (n.op == ExprOp::kParam && n.index == index);
    EXPECT_EQ(in.expr.nodes.back().op, ExprOp::kLt);
  }
  EXPECT_TRUE(found);
}

// A select with a default, a range over a channel, a Once, a Cond, a
// context with cancel, a timer; and helpers that are or are not entries.
constexpr const char* kMixed = R"IR(func F1 name=example.com/m.Poll pkg=example.com/m kind=func pos=m.go:5:6 exported=1 results=0
block 0 comment=entry succs=1,2
op make-chan pos=m.go:6:12 dst=t0 elem=int cap=1
op select pos=m.go:7:2 dst=t1 blocking=0 default=2 cases=1
case 0 dir=send ch=t0 val=1 target=1 pos=m.go:8:7
block 1 comment=select.body succs=3 preds=0
op close pos=m.go:9:8 ch=t0
block 2 comment=select.default succs=3 preds=0
block 3 comment=rangechan.loop succs=4,5 preds=1,2,4
op recv pos=m.go:11:2 dst=t2 ch=t0 commaok=1 range=1
op if pos=m.go:11:2 cond="(extract t2 1)"
block 4 comment=rangechan.body succs=3 preds=3
block 5 comment=rangechan.done preds=3
op return pos=m.go:13:1
loop header=3 blocks=3,4 comment=rangechan.loop cond="(extract t2 1)" exitwhen=0 pos=m.go:11:2
func F2 name=example.com/m.setup pkg=example.com/m kind=func pos=m.go:20:6 results=0
block 0 comment=entry
op alloc pos=m.go:21:6 dst=t0 type=sync.Once prim=once heap=0
op alloc pos=m.go:22:6 dst=t1 type=sync.Mutex prim=mutex heap=0
op cond-new pos=m.go:23:16 dst=t2 locker=t1
op closure pos=m.go:24:9 dst=t3 fn=fn:F3 bind=t2
op once-do pos=m.go:24:9 on=t0 fn=t3
op ctx-root pos=m.go:25:30 dst=t4
op ctx-cancel pos=m.go:25:30 dst=t5 parent=t4
op copy pos=m.go:25:2 dst=t6 src=t5 how=extract index=0 prim=context
op copy pos=m.go:25:2 dst=t7 src=t5 how=extract index=1 prim=cancel
op ctx-done pos=m.go:26:12 dst=t8 on=t6
op cancel pos=m.go:27:8 on=t7
op recv pos=m.go:28:2 dst=t9 ch=t8
op timer-after pos=m.go:29:18 dst=t10 dur=1000
op recv pos=m.go:29:2 dst=t11 ch=t10
op return pos=m.go:30:1
func F3 name=example.com/m.setup$1 pkg=example.com/m kind=closure pos=m.go:24:10 parent=F2 results=0
free f0 name=c type=*sync.Cond prim=cond
block 0 comment=entry
op cond-broadcast pos=m.go:24:30 on=f0
op return pos=m.go:24:40
func F4 name=example.com/m.helper pkg=example.com/m kind=func pos=m.go:32:6 results=0
param p0 name=ch type="chan int" prim=chan
block 0 comment=entry
op close pos=m.go:33:7 ch=p0
op return pos=m.go:34:1
func F5 name=example.com/m.TestPoll pkg=example.com/m kind=test pos=m_test.go:5:6 results=0
param p0 name=t type=*testing.T
block 0 comment=entry
op call pos=m_test.go:6:6 mode=static callee=F1
op return pos=m_test.go:7:1
)IR";

TEST(Extract, EntryPointsAreTestsExportedAndMakersWithoutPrimitiveParameters) {
  ir::Program p = Read(kMixed);
  std::vector<std::string> names;
  for (const ir::Function* f : EntryPoints(p)) names.push_back(f->name);
  // helper takes a channel and makes none; setup$1 is a closure.
  EXPECT_EQ(names, (std::vector<std::string>{"example.com/m.Poll", "example.com/m.setup",
                                             "example.com/m.TestPoll"}));
  std::vector<Model> all = ExtractModels(p, {});
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[2].test, "TestPoll");
  EXPECT_EQ(all[0].test, "");
}

TEST(Extract, SelectWithDefaultAndRangeOverChannel) {
  ir::Program p = Read(kMixed);
  Model m = One(p, "example.com/m.Poll");
  ASSERT_EQ(m.templates.size(), 1u);
  EXPECT_EQ(Ops(m.templates[0]),
            (std::vector<K>{K::kMakeChan, K::kSelect, K::kClose, K::kRecv, K::kBranch, K::kEnd}));
  const Template& t = m.templates[0];
  for (size_t pc = 0; pc < t.code.size(); pc++) {
    const Instr& in = t.code[pc];
    if (in.kind == K::kSelect) {
      EXPECT_GE(in.a, 0);  // the default
      ASSERT_EQ(in.cases.size(), 1u);
      EXPECT_TRUE(in.cases[0].send);
    }
    if (in.kind == K::kRecv) {
      EXPECT_GE(in.b, 0);  // the ok of the range
      ASSERT_LT(pc + 1, t.code.size());
      const Instr& br = t.code[pc + 1];
      ASSERT_EQ(br.kind, K::kBranch);
      ASSERT_EQ(br.expr.nodes.size(), 1u);
      EXPECT_EQ(br.expr.nodes[0].op, ExprOp::kLocal);
      EXPECT_EQ(br.expr.nodes[0].index, in.b);
    }
  }
}

// A non-blocking select whose chosen case the program does not use: go/ssa
// writes no branch on it, so neither the case nor the default has a block
// of its own; both continue after the select (they used to jump to block 0,
// re-running the function from its start).
constexpr const char* kTrySend = R"IR(func F1 name=example.com/m.Stop pkg=example.com/m kind=func pos=m.go:5:6 exported=1 results=0
block 0 comment=entry
op make-chan pos=m.go:6:10 dst=t0 elem=int cap=0
op select pos=m.go:7:2 dst=t1 blocking=0 cases=1
case 0 dir=send ch=t0 val=1 pos=m.go:8:7
op return pos=m.go:11:1
)IR";

TEST(Extract, SelectWithoutTargetsContinuesAfterIt) {
  ir::Program p = Read(kTrySend);
  Model m = One(p, "example.com/m.Stop");
  ASSERT_EQ(m.templates.size(), 1u);
  const Template& t = m.templates[0];
  ASSERT_EQ(Ops(t), (std::vector<K>{K::kMakeChan, K::kSelect, K::kEnd}));
  const Instr& sel = t.code[1];
  EXPECT_EQ(sel.a, 2);  // the default: the end, not the entry
  ASSERT_EQ(sel.cases.size(), 1u);
  EXPECT_EQ(sel.cases[0].target, 2);
}

// A method value of sync.Mutex.Unlock called through a variable: its
// unlock is in go/ssa's $bound wrapper, positioned at the method's
// declaration in the standard library; the model places it at the call.
constexpr const char* kBoundUnlock = R"IR(func F1 name=example.com/m.Update pkg=example.com/m kind=func pos=m.go:5:6 exported=1 results=0
block 0 comment=entry
op alloc pos=m.go:6:6 dst=t0 type=sync.Mutex prim=mutex heap=1
op lock pos=m.go:7:9 on=t0
op closure pos=m.go:8:12 dst=t1 fn=fn:F2 bind=t0
op call pos=m.go:9:9 mode=dynamic fn=t1 unresolved=1
op return pos=m.go:10:1
func F2 name=(*sync.Mutex).Unlock$bound pkg=sync kind=wrapper pos=mutex.go:64:17 exported=1 results=0
free f0 name=recv type=*sync.Mutex prim=mutex
block 0 comment=entry
op unlock pos=mutex.go:64:17 on=f0
op return pos=mutex.go:64:17
)IR";

TEST(Extract, WrapperOperationsAreAtTheCallSite) {
  ir::Program p = Read(kBoundUnlock);
  Model m = One(p, "example.com/m.Update");
  ASSERT_EQ(m.templates.size(), 1u);
  const Template& t = m.templates[0];
  int unlocks = 0;
  for (const Instr& in : t.code) {
    if (in.kind != K::kUnlock) continue;
    unlocks++;
    EXPECT_EQ(in.pos.line, 9);
    EXPECT_EQ(in.pos.col, 9);
  }
  EXPECT_EQ(unlocks, 1);
}

TEST(Extract, OnceCondContextAndTimer) {
  ir::Program p = Read(kMixed);
  Model m = One(p, "example.com/m.setup");
  EXPECT_EQ(Ops(m.templates[0]),
            (std::vector<K>{K::kMakeOnce, K::kMakeMutex, K::kMakeCond, K::kOnceBegin, K::kCondBroadcast,
                            K::kOnceEnd, K::kMakeContext, K::kMakeContext, K::kCtxDone, K::kCancel, K::kRecv,
                            K::kMakeTimer, K::kRecv, K::kEnd}));
  // Cancel acts on the derived context, Done reads it, its parent is the root.
  const Template& t = m.templates[0];
  int root = -1, derived = -1;
  for (const Instr& in : t.code) {
    if (in.kind == K::kMakeContext && in.b < 0) root = in.a;
    if (in.kind == K::kMakeContext && in.b >= 0) {
      derived = in.a;
      EXPECT_EQ(in.b, root);
    }
  }
  for (const Instr& in : t.code) {
    if (in.kind == K::kCancel) { EXPECT_EQ(in.a, derived); }
    if (in.kind == K::kCtxDone) { EXPECT_EQ(in.b, derived); }
    if (in.kind == K::kOnceBegin) { EXPECT_GT(in.b, 0); }
  }
}

TEST(Extract, TestInlinesTheFunctionItCalls) {
  ir::Program p = Read(kMixed);
  Model m = One(p, "example.com/m.TestPoll");
  EXPECT_EQ(Ops(m.templates[0]),
            (std::vector<K>{K::kMakeChan, K::kSelect, K::kClose, K::kRecv, K::kBranch, K::kEnd}));
}

// Calls: a chain A -> B -> C -> D that makes a channel at the bottom, a
// recursive function, an interface call with two callees, a defer inside
// a loop and a channel taken from a slice.
constexpr const char* kCalls = R"IR(func F1 name=example.com/m.A pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0
block 0 comment=entry
op call pos=m.go:2:3 mode=static callee=F2
op return pos=m.go:3:1
func F2 name=example.com/m.b pkg=example.com/m kind=func pos=m.go:4:6 results=0
block 0 comment=entry
op call pos=m.go:5:3 mode=static callee=F3
op return pos=m.go:6:1
func F3 name=example.com/m.c pkg=example.com/m kind=func pos=m.go:7:6 results=0
block 0 comment=entry
op call pos=m.go:8:3 mode=static callee=F4
op return pos=m.go:9:1
func F4 name=example.com/m.d pkg=example.com/m kind=func pos=m.go:10:6 results=0
block 0 comment=entry
op make-chan pos=m.go:11:8 dst=t0 elem=int cap=0
op close pos=m.go:12:8 ch=t0
op return pos=m.go:13:1
func F5 name=example.com/m.Rec pkg=example.com/m kind=func pos=m.go:20:6 exported=1 results=0
block 0 comment=entry
op make-chan pos=m.go:21:8 dst=t0 elem=int cap=0
op call pos=m.go:22:5 mode=static callee=F5
op return pos=m.go:23:1
func F6 name=example.com/m.Iface pkg=example.com/m kind=func pos=m.go:30:6 exported=1 results=0
param p0 name=s type=example.com/m.Stopper
block 0 comment=entry
op call pos=m.go:31:8 mode=invoke recv=p0 method=Stop callees=F7,F8
op return pos=m.go:32:1
func F7 name=(*example.com/m.X).Stop pkg=example.com/m kind=method pos=m.go:40:6 results=0
param p0 name=x type=*example.com/m.X
block 0 comment=entry
op alloc pos=m.go:41:6 dst=t0 type=sync.Mutex prim=mutex heap=0
op lock pos=m.go:42:8 on=t0
op return pos=m.go:43:1
func F8 name=(*example.com/m.Y).Stop pkg=example.com/m kind=method pos=m.go:50:6 results=0
param p0 name=y type=*example.com/m.Y
block 0 comment=entry
op alloc pos=m.go:51:6 dst=t0 type=sync.WaitGroup prim=waitgroup heap=0
op wg-wait pos=m.go:52:8 on=t0
op return pos=m.go:53:1
func F9 name=example.com/m.Loop pkg=example.com/m kind=func pos=m.go:60:6 exported=1 results=0
param p0 name=chans type="[]chan int"
block 0 comment=entry succs=1
op alloc pos=m.go:61:6 dst=t0 type=sync.Mutex prim=mutex heap=0
block 1 comment=for.loop succs=2,3 preds=0,2
op if pos=m.go:62:16 cond="(< t1 3)"
block 2 comment=for.body succs=1 preds=1
op lock pos=m.go:63:8 on=t0
op unlock pos=m.go:64:14 via=defer on=t0
op copy pos=m.go:65:9 dst=t2 src=p0 how=index prim=chan
op send pos=m.go:65:12 ch=t2 val=1
block 3 comment=for.done preds=1
op run-defers pos=m.go:67:1
op return pos=m.go:67:1
loop header=1 blocks=1,2 comment=for.loop cond="(< t1 3)" exitwhen=0 var=t1 init=0 step="(+ t1 1)" pos=m.go:62:2
)IR";

TEST(Extract, InliningStopsAtTheDepthBoundWithANote) {
  ir::Program p = Read(kCalls);
  ExtractOptions deep;
  deep.inline_depth = 3;
  Model m = One(p, "example.com/m.A", deep);
  EXPECT_EQ(Ops(m.templates[0]), (std::vector<K>{K::kMakeChan, K::kClose, K::kEnd}));
  EXPECT_FALSE(HasNote(m, "deeper"));
  ExtractOptions shallow;
  shallow.inline_depth = 2;
  Model s = One(p, "example.com/m.A", shallow);
  EXPECT_EQ(Ops(s.templates[0]), (std::vector<K>{K::kEnd}));
  EXPECT_TRUE(HasNote(s, "call of example.com/m.d deeper than 2 calls"));
}

TEST(Extract, RecursionIsANoteNotALoop) {
  ir::Program p = Read(kCalls);
  Model m = One(p, "example.com/m.Rec");
  EXPECT_EQ(Ops(m.templates[0]), (std::vector<K>{K::kMakeChan, K::kEnd}));
  EXPECT_TRUE(HasNote(m, "recursive call of example.com/m.Rec"));
}

TEST(Extract, InterfaceCallIsAChoiceAmongItsCallees) {
  ir::Program p = Read(kCalls);
  Model m = One(p, "example.com/m.Iface");
  EXPECT_EQ(Ops(m.templates[0]), (std::vector<K>{K::kChoice, K::kMakeMutex, K::kLock, K::kMakeWaitGroup,
                                                 K::kWgWait, K::kEnd}));
}

TEST(Extract, DeferInALoopAndAChannelFromASliceAreNotes) {
  ir::Program p = Read(kCalls);
  Model m = One(p, "example.com/m.Loop");
  EXPECT_TRUE(HasNote(m, "a defer inside a loop"));
  EXPECT_TRUE(HasNote(m, "slice, array or map"));
  std::vector<K> ops = Ops(m.templates[0]);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), K::kSend), 0);
  // The deferred Unlock runs once, at return, behind its flag.
  EXPECT_EQ(std::count(ops.begin(), ops.end(), K::kUnlock), 1);
  auto unlock = std::find(ops.begin(), ops.end(), K::kUnlock);
  ASSERT_NE(unlock, ops.begin());
  EXPECT_EQ(*(unlock - 1), K::kBranch);
  // The loop bound is a constant: no parameter.
  EXPECT_TRUE(m.params.empty());
}

// A struct with a mutex and a channel made by New and used by a goroutine
// through a pointer it captured: the goroutine's template gets the field
// slots as inputs, the mutex made once in the prologue.
constexpr const char* kHolder = R"IR(func F1 name=example.com/m.New pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0
block 0 comment=entry
op alloc pos=m.go:2:7 dst=t0 type=example.com/m.S prim=holder heap=1
op field pos=m.go:2:12 dst=t1 base=t0 field=ch prim=chan addr=1
op make-chan pos=m.go:2:20 dst=t2 elem=int cap=0
op store pos=m.go:2:12 addr=t1 val=t2 prim=chan
op closure pos=m.go:3:5 dst=t3 fn=fn:F2 bind=t0
op go pos=m.go:3:2 mode=closure fn=t3 callee=F2
op field pos=m.go:4:4 dst=t4 base=t0 field=mu prim=mutex addr=1
op lock pos=m.go:4:11 on=t4
op field pos=m.go:5:8 dst=t5 base=t0 field=ch prim=chan addr=1
op load pos=m.go:5:8 dst=t6 addr=t5 prim=chan
op recv pos=m.go:5:4 dst=t7 ch=t6
op return pos=m.go:6:1
func F2 name=example.com/m.New$1 pkg=example.com/m kind=closure pos=m.go:3:5 parent=F1 results=0
free f0 name=s type=*example.com/m.S prim=holder
block 0 comment=entry
op field pos=m.go:3:20 dst=t0 base=f0 field=mu prim=mutex addr=1
op lock pos=m.go:3:23 on=t0
op field pos=m.go:3:30 dst=t1 base=f0 field=ch prim=chan addr=1
op load pos=m.go:3:30 dst=t2 addr=t1 prim=chan
op send pos=m.go:3:33 ch=t2 val=1
op return pos=m.go:3:40
)IR";

TEST(Extract, HolderFieldsAreSlotsPassedToTheGoroutine) {
  ir::Program p = Read(kHolder);
  Model m = One(p, "example.com/m.New");
  ASSERT_EQ(m.templates.size(), 2u);
  const Template& main = m.templates[0];
  const Instr* go = nullptr;
  int mutex = -1, chan_cell = -1;
  for (const Instr& in : main.code) {
    if (in.kind == K::kGo) go = &in;
    if (in.kind == K::kMakeMutex) mutex = in.a;
    if (in.kind == K::kLock) { EXPECT_EQ(in.a, mutex); }
  }
  ASSERT_NE(go, nullptr);
  ASSERT_GE(mutex, 0);
  // The mutex is made once, in the prologue, before the code of New runs
  // (a zero sync value of a struct exists from the start).
  std::vector<K> ops = Ops(main);
  EXPECT_EQ(ops[0], K::kMakeMutex);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), K::kMakeMutex), 1);
  // The worker received the mutex and the channel's cell: two inputs.
  ASSERT_EQ(go->args.size(), 2u);
  EXPECT_NE(std::find(go->args.begin(), go->args.end(), mutex), go->args.end());
  for (int a : go->args) {
    if (a != mutex) chan_cell = a;
  }
  // The cell was assigned the channel made by make-chan.
  bool assigned = false;
  for (const Instr& in : main.code) {
    if (in.kind == K::kAssign && in.a == chan_cell && in.expr.nodes.size() == 1 &&
        in.expr.nodes[0].op == ExprOp::kLocal) {
      assigned = true;
    }
  }
  EXPECT_TRUE(assigned);
  const Template& w = m.templates[1];
  EXPECT_EQ(Ops(w), (std::vector<K>{K::kLock, K::kSend, K::kEnd}));
  // In the worker, the lock is on input slot of the mutex.
  size_t mutex_input = std::find(go->args.begin(), go->args.end(), mutex) - go->args.begin();
  for (const Instr& in : w.code) {
    if (in.kind == K::kLock) { EXPECT_EQ(in.a, static_cast<int>(mutex_input)); }
  }
}

// Whatever the IR, extraction gives a valid model: every function of the
// texts above as an entry at every depth.
TEST(Extract, EveryFunctionAtEveryDepthGivesAValidModel) {
  for (const char* text : {kPool, kMixed, kCalls, kHolder}) {
    ir::Program p = Read(text);
    for (int depth = 0; depth <= 4; depth++) {
      ExtractOptions o;
      o.inline_depth = depth;
      for (const ir::Function& f : p.functions) {
        Model m = ExtractModel(p, f, o);
        std::string err;
        EXPECT_TRUE(Validate(m, &err)) << f.name << " depth " << depth << ": " << err << "\n" << Print(m);
      }
    }
  }
}

}  // namespace
}  // namespace gordian::verify

namespace gordian::verify {
namespace {

// A plain test reads a parameter only when something that shapes
// concurrency reads it too; a function that returns the channel it makes
// is no entry point.
constexpr const char* kTests = R"IR(func F1 name=example.com/m.Run pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0
param p0 name=jobs type=[]int
param p1 name=fail type=bool
block 0 comment=entry succs=1,2
op if pos=m.go:2:5 cond="(== (len p0) 0)"
block 1 comment=if.then preds=0
op return pos=m.go:3:3
block 2 comment=if.done succs=3,4 preds=0
op make-chan pos=m.go:4:8 dst=t0 elem=int cap="(len p0)"
op if pos=m.go:5:5 cond=p1
block 3 comment=if.then preds=2
op close pos=m.go:6:9 ch=t0
op return pos=m.go:7:3
block 4 comment=if.done preds=2
op return pos=m.go:8:1
func F2 name=example.com/m.gen pkg=example.com/m kind=func pos=m.go:10:6 results=1
block 0 comment=entry
op make-chan pos=m.go:11:9 dst=t0 elem=int cap=0
op return pos=m.go:12:2 vals=t0
)IR";

TEST(Extract, PlainTestsReadOnlyParametersThatShapeConcurrency) {
  ir::Program p = Read(kTests);
  Model m = One(p, "example.com/m.Run");
  ASSERT_EQ(m.params.size(), 1u);  // len(jobs); fail is data
  EXPECT_EQ(m.params[0].name, "len(jobs)");
  EXPECT_TRUE(m.params[0].mandatory);
  std::vector<const Instr*> branches;
  for (const Instr& in : m.templates[0].code) {
    if (in.kind == K::kBranch) branches.push_back(&in);
  }
  ASSERT_EQ(branches.size(), 2u);
  EXPECT_FALSE(branches[0]->expr.Unknown());  // len(jobs) == 0
  EXPECT_EQ(branches[0]->expr.nodes.back().op, ExprOp::kEq);
  EXPECT_TRUE(branches[1]->expr.Unknown());  // fail: either branch
}

TEST(Extract, AFunctionReturningItsChannelIsNoEntryPoint) {
  ir::Program p = Read(kTests);
  std::vector<std::string> names;
  for (const ir::Function* f : EntryPoints(p)) names.push_back(f->name);
  EXPECT_EQ(names, (std::vector<std::string>{"example.com/m.Run"}));
}

// A package-level RWMutex written first and read after (syscall.ForkLock,
// database/sql's driversMu in the standard library): the lock op's prim
// says it is an RWMutex, so the object made where it is first used is one,
// and the RLock after the Lock is no model error (the GOROOT scale run
// found 22 models cut by "RLock of a Mutex" before).
constexpr const char* kGlobalRW = R"IR(func F1 name=example.com/m.Update pkg=example.com/m kind=func pos=m.go:5:6 exported=1 results=0
block 0 comment=entry
op lock pos=m.go:6:9 on=g:example.com/m.mu prim=rwmutex
op unlock pos=m.go:7:11 on=g:example.com/m.mu prim=rwmutex
op rlock pos=m.go:8:10 on=g:example.com/m.mu
op runlock pos=m.go:9:12 on=g:example.com/m.mu
op trylock pos=m.go:10:12 on=g:example.com/m.mu dst=t0 prim=rwmutex
op return pos=m.go:11:1
func F2 name=example.com/m.Plain pkg=example.com/m kind=func pos=m.go:15:6 exported=1 results=0
block 0 comment=entry
op lock pos=m.go:16:9 on=g:example.com/m.plain prim=mutex
op unlock pos=m.go:17:11 on=g:example.com/m.plain
op return pos=m.go:18:1
)IR";

TEST(Extract, AGlobalRWMutexLockedFirstIsMadeAsAnRWMutex) {
  ir::Program p = Read(kGlobalRW);
  Model m = One(p, "example.com/m.Update");
  EXPECT_EQ(Ops(m.templates[0]), (std::vector<K>{K::kMakeRWMutex, K::kLock, K::kUnlock, K::kRLock, K::kRUnlock,
                                                 K::kTryLock, K::kEnd}));
  CheckOptions o;
  CheckResult r = Check(m, o);
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  EXPECT_TRUE(r.violations.empty());
  // A Mutex stays a Mutex (and a lock op without prim, as a Locker's, too).
  Model plain = One(p, "example.com/m.Plain");
  EXPECT_EQ(Ops(plain.templates[0]), (std::vector<K>{K::kMakeMutex, K::kLock, K::kUnlock, K::kEnd}));
}

}  // namespace
}  // namespace gordian::verify

namespace gordian::verify {
namespace {

// A loop around a go statement whose bound reads data the model does not
// track counts its iterations against a parameter of its own; the loop
// variable nothing reads any more is not assigned (no state per iteration).
constexpr const char* kUnknownBound = R"IR(func F1 name=example.com/m.Spawn pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0
block 0 comment=entry succs=1
op make-chan pos=m.go:2:8 dst=t0 elem=int cap=0
block 1 comment=for.loop succs=2,3 preds=0,2
op if pos=m.go:3:16 cond="(< t2 (field t9 n))"
block 2 comment=for.body succs=1 preds=1
op closure pos=m.go:4:6 dst=t4 fn=fn:F2 bind=t0
op go pos=m.go:4:3 mode=closure fn=t4 callee=F2
block 3 comment=for.done preds=1
op return pos=m.go:6:1
loop header=1 blocks=1,2 comment=for.loop cond="(< t2 (field t9 n))" exitwhen=0 var=t2 init=0 step="(+ t2 1)" pos=m.go:3:2
func F2 name=example.com/m.Spawn$1 pkg=example.com/m kind=closure pos=m.go:4:6 parent=F1 results=0
free f0 name=ch type="chan int" prim=chan
block 0 comment=entry
op send pos=m.go:4:20 ch=f0 val=1
op return pos=m.go:4:30
)IR";

TEST(Extract, AnUnreadableLoopBoundAroundAGoIsAParameterOfItsOwn) {
  ir::Program p = Read(kUnknownBound);
  Model m = One(p, "example.com/m.Spawn");
  ASSERT_EQ(m.params.size(), 1u);
  EXPECT_EQ(m.params[0].name, "iterations(m.go:3)");
  EXPECT_TRUE(m.params[0].mandatory);
  int assigns_to_var = 0, branch_reads = 0;
  for (const Instr& in : m.templates[0].code) {
    if (in.kind == K::kBranch) {
      for (const ExprNode& n : in.expr.nodes) branch_reads += n.op == ExprOp::kParam;
    }
    // Only the iteration counter is assigned (0 and +1): the loop variable t2
    // is read by nothing the model keeps.
    if (in.kind == K::kAssign) assigns_to_var++;
  }
  EXPECT_EQ(branch_reads, 1);
  EXPECT_EQ(assigns_to_var, 2);
}

// A slice literal passed to a function that makes a channel of its length
// and ranges over it (go/ssa: `len(p0)` in both): the caller's `sized` op
// gives that length, so the capacity and the loop bound are one value, not
// an unknown capacity and a loop parameter of its own (which made a false
// deadlock: more sends than buffer). A length that is a parameter of the
// entry becomes one mandatory parameter.
constexpr const char* kSizedArgument = R"IR(func F1 name=example.com/m.source pkg=example.com/m kind=func pos=m.go:1:6 results=1
param p0 name=nums type=[]int
block 0 comment=entry succs=1
op make-chan pos=m.go:2:9 dst=t0 elem=int cap="(len p0)"
block 1 comment=rangeindex.loop succs=2,3 preds=0,2
op if pos=m.go:3:2 cond="(< (+ t3 1) (len p0))"
block 2 comment=rangeindex.body succs=1 preds=1
op send pos=m.go:4:6 ch=t0 val=?
block 3 comment=rangeindex.done preds=1
op close pos=m.go:6:7 ch=t0
op return pos=m.go:7:2 vals=t0
loop header=1 blocks=1,2 comment=rangeindex.loop cond="(< (+ t3 1) (len p0))" exitwhen=0 var=t3 init=-1 step="(+ t3 1)" pos=m.go:3:2
func F2 name=example.com/m.TestFill pkg=example.com/m kind=test pos=m.go:9:6 exported=1 results=0
param p0 name=t type=*testing.T prim=holder
block 0 comment=entry
op sized pos=m.go:10:14 dst=t1 len=3
op call pos=m.go:10:14 dst=t2 mode=static callee=F1 args=t1
op recv pos=m.go:11:2 dst=t3 ch=t2
op return pos=m.go:12:1
func F3 name=example.com/m.Run pkg=example.com/m kind=func pos=m.go:14:6 exported=1 results=0
param p0 name=n type=int
block 0 comment=entry
op sized pos=m.go:15:14 dst=t1 len=p0
op call pos=m.go:15:14 dst=t2 mode=static callee=F1 args=t1
op recv pos=m.go:16:2 dst=t3 ch=t2
op return pos=m.go:17:1
)IR";

TEST(Extract, ASizedArgumentIsTheCalleesLengthAndLoopBound) {
  ir::Program p = Read(kSizedArgument);
  Model m = One(p, "example.com/m.TestFill");
  EXPECT_TRUE(m.params.empty()) << Print(m);
  const Instr* make = nullptr;
  int branch_params = 0;
  for (const Instr& in : m.templates[0].code) {
    if (in.kind == K::kMakeChan) make = &in;
    if (in.kind == K::kBranch) {
      for (const ExprNode& n : in.expr.nodes) branch_params += n.op == ExprOp::kParam;
    }
  }
  ASSERT_NE(make, nullptr);
  ASSERT_EQ(make->expr.nodes.size(), 1u) << Print(m);
  EXPECT_EQ(make->expr.nodes[0].op, ExprOp::kConst);
  EXPECT_EQ(make->expr.nodes[0].value, 3);
  EXPECT_EQ(branch_params, 0) << Print(m);

  Model r = One(p, "example.com/m.Run");
  ASSERT_EQ(r.params.size(), 1u) << Print(r);
  EXPECT_EQ(r.params[0].name, "n");
  EXPECT_TRUE(r.params[0].mandatory);
}

}  // namespace
}  // namespace gordian::verify

namespace gordian::verify {
namespace {

// A Cond predicate loop (`for !g.ready { g.c.Wait() }`) over a field the
// setter writes under the lock before its Broadcast: the field is a tracked
// variable, so a waiter woken after the Broadcast leaves its loop. Ready
// waits for its waiter with a WaitGroup, so a waiter that could wait again
// after the one Broadcast would be a global deadlock.
constexpr const char* kCondPredicate = R"IR(func F1 name=example.com/m.Ready pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0
block 0 comment=entry
op alloc pos=m.go:2:2 dst=t0 type=*example.com/m.Gate prim=holder heap=1
op alloc pos=m.go:2:7 dst=t1 type=example.com/m.Gate prim=holder heap=1
op store pos=m.go:2:2 addr=t0 val=t1 prim=holder
op load pos=m.go:3:2 dst=t2 addr=t0 prim=holder
op field pos=m.go:3:4 dst=t3 base=t2 field=mu prim=mutex addr=1
op cond-new pos=m.go:3:20 dst=t4 locker=t3
op field pos=m.go:3:4 dst=t5 base=t2 field=c prim=cond addr=1
op store pos=m.go:3:4 addr=t5 val=t4 prim=cond
op alloc pos=m.go:4:6 dst=t8 type=sync.WaitGroup prim=waitgroup heap=1
op wg-add pos=m.go:5:8 on=t8 delta=1
op closure pos=m.go:6:5 dst=t9 fn=fn:F2 bind=t8,t0
op go pos=m.go:6:2 mode=closure fn=t9 callee=F2
op load pos=m.go:7:2 dst=t10 addr=t0 prim=holder
op field pos=m.go:7:4 dst=t11 base=t10 field=mu prim=mutex addr=1
op lock pos=m.go:7:11 on=t11 prim=mutex
op load pos=m.go:8:2 dst=t12 addr=t0 prim=holder
op var-store pos=m.go:8:4 cell="(field (load t0) ready)" value=true
op field pos=m.go:9:4 dst=t13 base=t12 field=c prim=cond addr=1
op load pos=m.go:9:4 dst=t14 addr=t13 prim=cond
op cond-broadcast pos=m.go:9:15 on=t14
op unlock pos=m.go:10:13 on=t11 prim=mutex
op wg-wait pos=m.go:11:9 on=t8
op return pos=m.go:12:1
func F2 name=example.com/m.Ready$1 pkg=example.com/m kind=closure pos=m.go:6:5 parent=F1 results=0
free f0 name=wg type=*sync.WaitGroup prim=waitgroup
free f1 name=g type=**example.com/m.Gate
block 0 comment=entry succs=3
op load pos=m.go:20:4 dst=t0 addr=f1 prim=holder
op field pos=m.go:20:6 dst=t1 base=t0 field=mu prim=mutex addr=1
op lock pos=m.go:20:13 on=t1 prim=mutex
block 1 comment=for.body succs=3 preds=3
op load pos=m.go:22:5 dst=t3 addr=f1 prim=holder
op field pos=m.go:22:7 dst=t4 base=t3 field=c prim=cond addr=1
op load pos=m.go:22:7 dst=t5 addr=t4 prim=cond
op cond-wait pos=m.go:22:13 on=t5
block 2 comment=for.done preds=3
op unlock pos=m.go:24:15 on=t1 prim=mutex
op wg-done pos=m.go:25:10 on=f0
op return pos=m.go:26:3
block 3 comment=for.loop succs=2,1 preds=0,1
op if pos=m.go:21:11 cond="(load (field (load f1) ready))"
loop header=3 blocks=1,3 comment=for.loop cond="(load (field (load f1) ready))" exitwhen=1 pos=m.go:21:4
)IR";

// The same with a captured local: `done := false`; the goroutine sets it
// under the lock and broadcasts; Wait loops `for !done { c.Wait() }`.
constexpr const char* kCondCaptured = R"IR(func F1 name=example.com/m.Await pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0
block 0 comment=entry succs=2
op var-new pos=m.go:2:2 dst=t0 type=bool name=done
op var-store pos=m.go:2:2 cell=t0 value=false
op alloc pos=m.go:3:6 dst=t1 type=sync.Mutex prim=mutex heap=1
op cond-new pos=m.go:4:16 dst=t2 locker=t1
op closure pos=m.go:5:5 dst=t3 fn=fn:F2 bind=t1,t0,t2
op go pos=m.go:5:2 mode=closure fn=t3 callee=F2
op lock pos=m.go:6:9 on=t1 prim=mutex
block 1 comment=for.body succs=2 preds=2
op cond-wait pos=m.go:8:9 on=t2
block 2 comment=for.loop succs=3,1 preds=0,1
op if pos=m.go:7:7 cond="(load t0)"
block 3 comment=for.done preds=2
op unlock pos=m.go:10:11 on=t1 prim=mutex
op return pos=m.go:11:1
loop header=2 blocks=1,2 comment=for.loop cond="(load t0)" exitwhen=1 pos=m.go:7:2
func F2 name=example.com/m.Await$1 pkg=example.com/m kind=closure pos=m.go:5:5 parent=F1 results=0
free f0 name=mu type=*sync.Mutex prim=mutex
free f1 name=done type=*bool
free f2 name=c type=*sync.Cond prim=cond
block 0 comment=entry
op lock pos=m.go:20:10 on=f0 prim=mutex
op var-store pos=m.go:21:3 cell=f1 value=true
op cond-broadcast pos=m.go:22:14 on=f2
op unlock pos=m.go:23:12 on=f0 prim=mutex
op return pos=m.go:24:2
)IR";

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

bool Has(const Template& t, K k) {
  return std::any_of(t.code.begin(), t.code.end(), [&](const Instr& in) { return in.kind == k; });
}

TEST(Extract, ACondPredicateFieldIsATrackedVariable) {
  Model m = One(Read(kCondPredicate), "example.com/m.Ready");
  ASSERT_EQ(m.templates.size(), 2u);
  EXPECT_TRUE(Has(m.templates[0], K::kMakeVar)) << Print(m);
  EXPECT_TRUE(Has(m.templates[0], K::kStoreVar)) << Print(m);
  EXPECT_TRUE(Has(m.templates[1], K::kLoadVar)) << Print(m);
  EXPECT_FALSE(Has(m.templates[1], K::kMakeVar)) << "the waiter reads its parent's variable\n" << Print(m);
  CheckResult r = Check(m, CheckOptions{});
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  EXPECT_TRUE(r.violations.empty()) << "the waiter woken by the Broadcast sees ready and leaves";

  // The setter writes another field: the predicate never becomes true and
  // the waiter waits for ever (a real deadlock, still found).
  Model other = One(Read(Replace(kCondPredicate, "(field (load t0) ready)", "(field (load t0) other)")),
                    "example.com/m.Ready");
  EXPECT_FALSE(Has(other.templates[0], K::kStoreVar)) << "other is no predicate's variable";
  CheckResult ro = Check(other, CheckOptions{});
  ASSERT_FALSE(ro.violations.empty());
  EXPECT_EQ(ro.violations[0].kind, report::FindingKind::GlobalDeadlock);
}

TEST(Extract, ACondPredicateOverACapturedLocalIsATrackedVariable) {
  Model m = One(Read(kCondCaptured), "example.com/m.Await");
  EXPECT_TRUE(Has(m.templates[0], K::kMakeVar)) << Print(m);
  EXPECT_TRUE(Has(m.templates[0], K::kLoadVar)) << Print(m);
  ASSERT_EQ(m.templates.size(), 2u);
  EXPECT_TRUE(Has(m.templates[1], K::kStoreVar)) << Print(m);
  CheckResult r = Check(m, CheckOptions{});
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  EXPECT_TRUE(r.violations.empty()) << Print(m);

  // Without the goroutine's store the one Broadcast may come before the
  // Wait and nothing sets done: the deadlock is still there.
  Model lost = One(Read(Replace(kCondCaptured, "op var-store pos=m.go:21:3 cell=f1 value=true\n", "")),
                   "example.com/m.Await");
  CheckResult rl = Check(lost, CheckOptions{});
  ASSERT_FALSE(rl.violations.empty());
  EXPECT_EQ(rl.violations[0].kind, report::FindingKind::GlobalDeadlock);
}

}  // namespace
}  // namespace gordian::verify

namespace gordian::verify {
namespace {

// Twice closes a channel twice under a deferred recover(): the second
// close's panic goes to the function's landing pad (the deferred calls run,
// the function returns), so it is no finding. Without recover() it is.
constexpr const char* kRecovered = R"IR(func F1 name=example.com/m.Twice pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0
block 0 comment=entry
op make-chan pos=m.go:2:8 dst=t0 elem=int cap=0
op closure pos=m.go:3:8 dst=t1 fn=fn:F2
op defer pos=m.go:3:2 mode=closure fn=t1 callee=F2
op close pos=m.go:4:7 ch=t0
op close pos=m.go:5:7 ch=t0
op run-defers pos=m.go:6:1
op return pos=m.go:6:1
block 1 comment=recover
op return pos=m.go:6:1
func F2 name=example.com/m.Twice$1 pkg=example.com/m kind=closure pos=m.go:3:8 parent=F1 results=0
block 0 comment=entry
op call pos=m.go:3:20 dst=t0 mode=builtin builtin=recover
op return pos=m.go:3:30
)IR";

TEST(Extract, ADeferredRecoverStopsAPanic) {
  Model m = One(Read(kRecovered), "example.com/m.Twice");
  bool pad = false;
  for (const Instr& in : m.templates[0].code) pad = pad || (in.kind == K::kClose && in.recover >= 0);
  EXPECT_TRUE(pad) << Print(m);
  CheckResult r = Check(m, CheckOptions{});
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  EXPECT_TRUE(r.violations.empty()) << Print(m);

  Model plain = One(Read(Replace(kRecovered, "builtin=recover", "builtin=print")), "example.com/m.Twice");
  CheckResult rp = Check(plain, CheckOptions{});
  ASSERT_EQ(rp.violations.size(), 1u);
  EXPECT_EQ(rp.violations[0].kind, report::FindingKind::CloseOfClosed);
}

// A test starts a goroutine that waits on stop, and registers close(stop)
// with t.Cleanup: it runs when the test ends, so the goroutine is released.
constexpr const char* kCleanup = R"IR(func F1 name=example.com/m.TestEcho pkg=example.com/m kind=test pos=m_test.go:1:6 results=0
param p0 name=t type=*testing.T prim=holder
block 0 comment=entry
op make-chan pos=m_test.go:2:10 dst=t0 elem=int cap=0
op closure pos=m_test.go:3:5 dst=t1 fn=fn:F2 bind=t0
op go pos=m_test.go:3:2 mode=closure fn=t1 callee=F2
op closure pos=m_test.go:4:12 dst=t2 fn=fn:F3 bind=t0
op call pos=m_test.go:4:11 mode=static callee=F9 args=t3,t2
op return pos=m_test.go:5:1
func F2 name=example.com/m.TestEcho$1 pkg=example.com/m kind=closure pos=m_test.go:3:5 parent=F1 results=0
free f0 name=stop type="chan int" prim=chan
block 0 comment=entry
op recv pos=m_test.go:3:12 dst=t0 ch=f0
op return pos=m_test.go:3:20
func F3 name=example.com/m.TestEcho$2 pkg=example.com/m kind=closure pos=m_test.go:4:12 parent=F1 results=0
free f0 name=stop type="chan int" prim=chan
block 0 comment=entry
op close pos=m_test.go:4:25 ch=f0
op return pos=m_test.go:4:30
extern F9 name=(*testing.common).Cleanup pkg=testing
)IR";

TEST(Extract, TestCleanupFunctionsRunAtTheTestsEnd) {
  Model m = One(Read(kCleanup), "example.com/m.TestEcho");
  EXPECT_TRUE(Has(m.templates[0], K::kClose)) << Print(m);
  CheckResult r = Check(m, CheckOptions{});
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  EXPECT_TRUE(r.violations.empty()) << Print(m);

  // Another testing method is no cleanup: the goroutine leaks.
  Model other = One(Read(Replace(kCleanup, "(*testing.common).Cleanup", "(*testing.common).Log")),
                    "example.com/m.TestEcho");
  EXPECT_FALSE(Has(other.templates[0], K::kClose));
  CheckResult ro = Check(other, CheckOptions{});
  ASSERT_EQ(ro.violations.size(), 1u);
  EXPECT_EQ(ro.violations[0].kind, report::FindingKind::GoroutineLeak);
}

}  // namespace
}  // namespace gordian::verify

namespace gordian::verify {
namespace {

// Fan makes two channels, puts them in an array (a variadic call's), starts
// a sender on each and passes the slice to Drain, which receives once from
// each element in a range loop: the collection's cells follow the channels
// through the index, so every send meets its receive.
constexpr const char* kFanIn = R"IR(func F1 name=example.com/m.Fan pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0
block 0 comment=entry
op make-chan pos=m.go:2:8 dst=t0 elem=int cap=0
op make-chan pos=m.go:3:8 dst=t1 elem=int cap=0
op sized pos=m.go:4:7 dst=t9 len=2
op copy pos=m.go:4:9 dst=t2 src=t9 how=index prim=chan at=0
op store pos=m.go:4:9 addr=t2 val=t0 prim=chan
op copy pos=m.go:4:12 dst=t3 src=t9 how=index prim=chan at=1
op store pos=m.go:4:12 addr=t3 val=t1 prim=chan
op closure pos=m.go:5:5 dst=t4 fn=fn:F2 bind=t0
op go pos=m.go:5:2 mode=closure fn=t4 callee=F2
op closure pos=m.go:6:5 dst=t5 fn=fn:F2 bind=t1
op go pos=m.go:6:2 mode=closure fn=t5 callee=F2
op sized pos=m.go:7:7 dst=t8 len=2 src=t9
op call pos=m.go:7:7 mode=static callee=F3 args=t8
op return pos=m.go:8:1
func F2 name=example.com/m.Fan$1 pkg=example.com/m kind=closure pos=m.go:5:5 parent=F1 results=0
free f0 name=ch type="chan int" prim=chan
block 0 comment=entry
op send pos=m.go:5:15 ch=f0 val=1
op return pos=m.go:5:20
func F3 name=example.com/m.Drain pkg=example.com/m kind=func pos=m.go:10:6 results=0
param p0 name=chs type="[]chan int"
block 0 comment=entry succs=1
block 1 comment=rangeindex.loop succs=2,3 preds=0,2
op if pos=m.go:11:2 cond="(< (+ t6 1) (len p0))"
block 2 comment=rangeindex.body succs=1 preds=1
op copy pos=m.go:11:17 dst=t7 src=p0 how=index prim=chan at="(+ t6 1)"
op load pos=m.go:11:17 dst=t8 addr=t7 prim=chan
op recv pos=m.go:12:3 dst=t9 ch=t8
block 3 comment=rangeindex.done preds=1
op return pos=m.go:14:1
loop header=1 blocks=1,2 comment=rangeindex.loop cond="(< (+ t6 1) (len p0))" exitwhen=0 var=t6 init=-1 step="(+ t6 1)" pos=m.go:11:2
)IR";

TEST(Extract, AChannelsCollectionFollowsItsElementsThroughTheIndex) {
  Model m = One(Read(kFanIn), "example.com/m.Fan");
  EXPECT_FALSE(HasNote(m, "slice")) << Print(m);
  CheckResult r = Check(m, CheckOptions{});
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  EXPECT_TRUE(r.violations.empty()) << Print(m);

  // Drain receiving from element 0 each time: the second receive and the
  // other sender block for ever.
  Model wrong = One(Read(Replace(kFanIn, "at=\"(+ t6 1)\"", "at=0")), "example.com/m.Fan");
  CheckResult rw = Check(wrong, CheckOptions{});
  ASSERT_FALSE(rw.violations.empty());
  EXPECT_EQ(rw.violations[0].kind, report::FindingKind::GlobalDeadlock);
}

}  // namespace
}  // namespace gordian::verify

namespace gordian::verify {
namespace {

// An array of two Mutexes (a sharded lock): each element is its own lock.
constexpr const char* kShards = R"IR(func F1 name=example.com/m.Shards pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0
block 0 comment=entry
op sized pos=m.go:2:6 dst=t0 len=2
op copy pos=m.go:3:9 dst=t1 src=t0 how=index prim=mutex at=0
op lock pos=m.go:3:14 on=t1 prim=mutex
op copy pos=m.go:4:9 dst=t2 src=t0 how=index prim=mutex at=1
op lock pos=m.go:4:14 on=t2 prim=mutex
op return pos=m.go:5:1
)IR";

TEST(Extract, AnArrayOfMutexesIsOneLockPerElement) {
  Model m = One(Read(kShards), "example.com/m.Shards");
  CheckResult r = Check(m, CheckOptions{});
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  EXPECT_TRUE(r.violations.empty()) << Print(m);
  // Locking element 0 twice is a double lock.
  Model twice = One(Read(Replace(kShards, "how=index prim=mutex at=1", "how=index prim=mutex at=0")),
                    "example.com/m.Shards");
  CheckResult rt = Check(twice, CheckOptions{});
  ASSERT_EQ(rt.violations.size(), 1u) << Print(twice);
  EXPECT_EQ(rt.violations[0].kind, report::FindingKind::DoubleLock);
}

}  // namespace
}  // namespace gordian::verify

namespace gordian::verify {
namespace {

// Limit is errgroup's shape: a struct whose limit channel only a setter
// makes. Run starts a worker that, when the channel is set, receives a
// token from it; nothing sends. A zero struct's channel is nil, so the
// test `sem != nil` is false and the receive never runs.
constexpr const char* kLimit = R"IR(func F1 name=example.com/m.Run pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0
block 0 comment=entry
op alloc pos=m.go:2:7 dst=t0 type=example.com/m.Group prim=holder heap=1
op call pos=m.go:3:12 mode=static callee=F3 args=t0
op closure pos=m.go:4:5 dst=t1 fn=fn:F2 bind=t0
op go pos=m.go:4:2 mode=closure fn=t1 callee=F2
op return pos=m.go:5:1
func F2 name=example.com/m.Run$1 pkg=example.com/m kind=closure pos=m.go:4:5 parent=F1 results=0
free f0 name=g type=*example.com/m.Group prim=holder
block 0 comment=entry succs=1,2
op field pos=m.go:4:15 dst=t0 base=f0 field=sem prim=chan addr=1
op load pos=m.go:4:15 dst=t1 addr=t0 prim=chan
op if pos=m.go:4:19 cond="(!= (load (field f0 sem)) nil)"
block 1 comment=if.then succs=2 preds=0
op field pos=m.go:4:30 dst=t2 base=f0 field=sem prim=chan addr=1
op load pos=m.go:4:30 dst=t3 addr=t2 prim=chan
op recv pos=m.go:4:28 dst=t4 ch=t3
block 2 comment=if.done preds=0,1
op return pos=m.go:4:40
func F3 name=(*example.com/m.Group).Setup pkg=example.com/m kind=method pos=m.go:8:16 results=0
param p0 name=g type=*example.com/m.Group prim=holder
block 0 comment=entry
op return pos=m.go:9:1
)IR";

// The setter: g.sem = make(chan token, 1).
constexpr const char* kSetLimit = R"(block 0 comment=entry
op field pos=m.go:9:4 dst=t0 base=p0 field=sem prim=chan addr=1
op make-chan pos=m.go:9:14 dst=t1 elem=m.token cap=1
op store pos=m.go:9:8 addr=t0 val=t1 prim=chan
op return pos=m.go:9:1
)";

// The branch on `sem != nil` in a template's code, or nullptr.
const Instr* NilBranch(const Template& t) {
  for (const Instr& in : t.code) {
    if (in.kind == K::kBranch && in.pos.line == 4 && in.pos.col == 19) return &in;
  }
  return nullptr;
}

TEST(Extract, ANilChannelFieldDecidesItsTest) {
  Model m = One(Read(kLimit), "example.com/m.Run");
  ASSERT_EQ(m.templates.size(), 2u);
  const Instr* br = NilBranch(m.templates[1]);
  ASSERT_NE(br, nullptr) << Print(m);
  EXPECT_FALSE(br->expr.Unknown()) << "the worker's copy of the field is nil: the test is decided\n" << Print(m);
  CheckResult r = Check(m, CheckOptions{});
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  EXPECT_TRUE(r.violations.empty()) << "no limit: the receive never runs\n" << Print(m);

  // The setter called: the worker receives on the limit channel, which
  // nothing sends on, and blocks for ever (a real bug, still found).
  Model set = One(Read(Replace(kLimit, "block 0 comment=entry\nop return pos=m.go:9:1\n", kSetLimit)),
                  "example.com/m.Run");
  CheckResult rs = Check(set, CheckOptions{});
  ASSERT_FALSE(rs.violations.empty()) << Print(set);
}

TEST(Extract, ANilTestOfAChannelTheModelDoesNotHaveStaysUnknown) {
  // The setter stores a channel an extern returns: the field's -1 is no
  // nil, so the test takes both sides (and the receive on the channel the
  // model holds as nil blocks, as before).
  std::string untracked = Replace(kSetLimit, "op make-chan pos=m.go:9:14 dst=t1 elem=m.token cap=1",
                                  "op call pos=m.go:9:14 dst=t1 mode=static callee=F9");
  Model m = One(Read(Replace(kLimit, "block 0 comment=entry\nop return pos=m.go:9:1\n", untracked) +
                     "extern F9 name=example.com/other.Chan pkg=example.com/other\n"),
                "example.com/m.Run");
  const Instr* br = NilBranch(m.templates[1]);
  ASSERT_NE(br, nullptr) << Print(m);
  EXPECT_TRUE(br->expr.Unknown()) << Print(m);

  // A struct from outside the model (the entry point's parameter): unknown.
  std::string param = Replace(kLimit, "func F1 name=example.com/m.Run pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0\nblock 0 comment=entry\nop alloc pos=m.go:2:7 dst=t0 type=example.com/m.Group prim=holder heap=1\n",
                              "func F1 name=example.com/m.Run pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0\nparam p0 name=g type=*example.com/m.Group prim=holder\nblock 0 comment=entry\n");
  param = Replace(param, "args=t0", "args=p0");
  param = Replace(param, "bind=t0", "bind=p0");
  Model from = One(Read(param), "example.com/m.Run");
  ASSERT_EQ(from.templates.size(), 2u) << Print(from);
  const Instr* fb = NilBranch(from.templates[1]);
  ASSERT_NE(fb, nullptr) << Print(from);
  EXPECT_TRUE(fb->expr.Unknown()) << Print(from);
}

// Pass calls Send with a nil literal and with a made channel; Send sends
// only when its channel is not nil. A nil argument skips the send; the
// made channel (buffered) takes it.
constexpr const char* kNilArg = R"IR(func F1 name=example.com/m.Pass pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0
block 0 comment=entry
op call pos=m.go:2:6 mode=static callee=F2 args=nil
op make-chan pos=m.go:3:8 dst=t0 elem=int cap=1
op call pos=m.go:4:6 mode=static callee=F2 args=t0
op return pos=m.go:5:1
func F2 name=example.com/m.Send pkg=example.com/m kind=func pos=m.go:7:6 results=0
param p0 name=ch type="chan int" prim=chan
block 0 comment=entry succs=1,2
op if pos=m.go:8:8 cond="(!= p0 nil)"
block 1 comment=if.then succs=2 preds=0
op send pos=m.go:9:6 ch=p0 val=1
block 2 comment=if.done preds=0,1
op return pos=m.go:11:1
)IR";

TEST(Extract, ANilArgumentDecidesTheCalleesTest) {
  Model m = One(Read(kNilArg), "example.com/m.Pass");
  CheckResult r = Check(m, CheckOptions{});
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  EXPECT_TRUE(r.violations.empty()) << "the nil channel's send is skipped\n" << Print(m);
  // An unbuffered channel: the second call's send blocks for ever (found).
  Model unbuf = One(Read(Replace(kNilArg, "elem=int cap=1", "elem=int cap=0")), "example.com/m.Pass");
  CheckResult ru = Check(unbuf, CheckOptions{});
  ASSERT_FALSE(ru.violations.empty()) << Print(unbuf);
  EXPECT_EQ(ru.violations[0].kind, report::FindingKind::GlobalDeadlock);
}

}  // namespace
}  // namespace gordian::verify

namespace gordian::verify {
namespace {

// Stop tests a ticker field, a Cond field and a cancel function field of a
// struct it made: the ticker is made on one path only, the Cond never.
constexpr const char* kFields = R"IR(func F1 name=example.com/m.Stop pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0
param p0 name=on type=bool
block 0 comment=entry succs=1,2
op alloc pos=m.go:2:7 dst=t0 type=example.com/m.S prim=holder heap=1
op if pos=m.go:3:5 cond=p0
block 1 comment=if.then succs=2 preds=0
op timer-new-ticker pos=m.go:4:20 dst=t1 dur=1
op field pos=m.go:4:4 dst=t2 base=t0 field=tk prim=ticker addr=1
op store pos=m.go:4:4 addr=t2 val=t1 prim=ticker
block 2 comment=if.done succs=3,4 preds=0,1
op field pos=m.go:6:7 dst=t3 base=t0 field=tk prim=ticker addr=1
op load pos=m.go:6:7 dst=t4 addr=t3 prim=ticker
op if pos=m.go:6:10 cond="(!= (load (field t0 tk)) nil)"
block 3 comment=if.then succs=4 preds=2
op timer-stop pos=m.go:7:12 on=t4
block 4 comment=if.done succs=5,6 preds=2,3
op field pos=m.go:9:7 dst=t5 base=t0 field=c prim=cond addr=1
op load pos=m.go:9:7 dst=t6 addr=t5 prim=cond
op if pos=m.go:9:9 cond="(== (load (field t0 c)) nil)"
block 5 comment=if.then succs=6 preds=4
op return pos=m.go:10:3
block 6 comment=if.done succs=7,8 preds=4,5
op if pos=m.go:12:14 cond="(!= (load (field t0 cancel)) nil)"
block 7 comment=if.then succs=8 preds=6
op return pos=m.go:13:3
block 8 comment=if.done preds=6,7
op return pos=m.go:15:1
)IR";

TEST(Extract, NilTestsOfTimerAndCondFieldsAreDecidedAndOfOtherDataNot) {
  Model m = One(Read(kFields), "example.com/m.Stop");
  std::map<int, const Instr*> branch;  // by line
  for (const Instr& in : m.templates[0].code) {
    if (in.kind == K::kBranch) branch[in.pos.line] = &in;
  }
  ASSERT_TRUE(branch.count(6) && branch.count(9) && branch.count(12)) << Print(m);
  EXPECT_FALSE(branch[6]->expr.Unknown()) << "the ticker field, made on one path\n" << Print(m);
  EXPECT_FALSE(branch[9]->expr.Unknown()) << "the Cond field, never stored\n" << Print(m);
  EXPECT_TRUE(branch[12]->expr.Unknown()) << "a cancel function is no primitive the model holds\n" << Print(m);
}


// Run makes a Broker (a mutex, a buffered channel and a closed flag),
// starts a goroutine that Sends once, and Closes it. Close sets closed and
// closes the channel under the mutex; Send checks closed under the mutex
// and sends only when it is false.
constexpr const char* kBroker = R"IR(func F1 name=example.com/m.Run pkg=example.com/m kind=func pos=m.go:1:6 exported=1 results=0
block 0 comment=entry
op alloc pos=m.go:2:7 dst=t0 type=example.com/m.Broker prim=holder heap=1
op field pos=m.go:2:20 dst=t1 base=t0 field=events prim=chan addr=1
op make-chan pos=m.go:2:30 dst=t2 elem=int cap=1
op store pos=m.go:2:20 addr=t1 val=t2 prim=chan
op closure pos=m.go:3:5 dst=t3 fn=fn:F2 bind=t0
op go pos=m.go:3:2 mode=closure fn=t3 callee=F2
op call pos=m.go:4:9 mode=static callee=F3 args=t0
op return pos=m.go:5:1
func F2 name=example.com/m.Run$1 pkg=example.com/m kind=closure pos=m.go:3:5 parent=F1 results=0
free f0 name=b type=*example.com/m.Broker prim=holder
block 0 comment=entry
op call pos=m.go:3:20 mode=static callee=F4 args=f0
op return pos=m.go:3:30
func F3 name=(*example.com/m.Broker).Close pkg=example.com/m kind=method pos=m.go:10:18 results=0
param p0 name=b type=*example.com/m.Broker prim=holder
block 0 comment=entry
op field pos=m.go:11:4 dst=t0 base=p0 field=mu prim=mutex addr=1
op lock pos=m.go:11:9 on=t0
op var-store pos=m.go:12:11 cell="(field p0 closed)" value=true
op field pos=m.go:13:10 dst=t1 base=p0 field=events prim=chan addr=1
op load pos=m.go:13:10 dst=t2 addr=t1 prim=chan
op close pos=m.go:13:7 ch=t2
op field pos=m.go:14:4 dst=t3 base=p0 field=mu prim=mutex addr=1
op unlock pos=m.go:14:11 on=t3
op return pos=m.go:15:1
func F4 name=(*example.com/m.Broker).Send pkg=example.com/m kind=method pos=m.go:20:18 results=0
param p0 name=b type=*example.com/m.Broker prim=holder
block 0 comment=entry succs=1,2
op field pos=m.go:21:4 dst=t0 base=p0 field=mu prim=mutex addr=1
op lock pos=m.go:21:9 on=t0
op if pos=m.go:22:7 cond="(load (field p0 closed))"
block 1 comment=if.then preds=0
op field pos=m.go:23:5 dst=t1 base=p0 field=mu prim=mutex addr=1
op unlock pos=m.go:23:12 on=t1
op return pos=m.go:24:3
block 2 comment=if.done preds=0
op field pos=m.go:26:4 dst=t2 base=p0 field=events prim=chan addr=1
op load pos=m.go:26:4 dst=t3 addr=t2 prim=chan
op send pos=m.go:26:11 ch=t3 val=1
op field pos=m.go:27:4 dst=t4 base=p0 field=mu prim=mutex addr=1
op unlock pos=m.go:27:11 on=t4
op return pos=m.go:28:1
)IR";

bool FindsKind(const CheckResult& r, report::FindingKind k) {
  return std::any_of(r.violations.begin(), r.violations.end(), [&](const Violation& v) { return v.kind == k; });
}

TEST(Extract, AClosedFlagSetOnceDecidesItsTestUnderTheLock) {
  Model m = One(Read(kBroker), "example.com/m.Run");
  ASSERT_EQ(m.templates.size(), 2u) << Print(m);
  EXPECT_TRUE(Has(m.templates[0], K::kMakeVar)) << "the Broker's closed starts false\n" << Print(m);
  EXPECT_TRUE(Has(m.templates[0], K::kStoreVar)) << Print(m);
  EXPECT_TRUE(Has(m.templates[1], K::kLoadVar)) << Print(m);
  CheckResult r = Check(m, CheckOptions{});
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  EXPECT_TRUE(r.violations.empty()) << "Send sees closed under the lock and does not send\n" << Print(m);
}

TEST(Extract, AClosedFlagCheckedOutsideTheLockStillSendsOnClosed) {
  // Send checks closed before it locks: Close may run between the check
  // and the send (a real bug, still found).
  std::string unlocked = Replace(kBroker,
                                 "op lock pos=m.go:21:9 on=t0\nop if pos=m.go:22:7 cond=\"(load (field p0 closed))\"\n"
                                 "block 1 comment=if.then preds=0\nop field pos=m.go:23:5 dst=t1 base=p0 field=mu prim=mutex addr=1\n"
                                 "op unlock pos=m.go:23:12 on=t1\n",
                                 "op if pos=m.go:22:7 cond=\"(load (field p0 closed))\"\nblock 1 comment=if.then preds=0\n");
  unlocked = Replace(unlocked, "block 2 comment=if.done preds=0\n",
                     "block 2 comment=if.done preds=0\nop lock pos=m.go:25:9 on=t0\n");
  Model m = One(Read(unlocked), "example.com/m.Run");
  CheckResult r = Check(m, CheckOptions{});
  EXPECT_TRUE(FindsKind(r, report::FindingKind::SendOnClosed)) << Print(m);

  // Close sets closed after it unlocks: Send may see it false after the
  // close (a real bug, still found).
  std::string late = Replace(kBroker, "op var-store pos=m.go:12:11 cell=\"(field p0 closed)\" value=true\n", "");
  late = Replace(late, "op unlock pos=m.go:14:11 on=t3\n",
                 "op unlock pos=m.go:14:11 on=t3\nop var-store pos=m.go:14:20 cell=\"(field p0 closed)\" value=true\n");
  Model ml = One(Read(late), "example.com/m.Run");
  CheckResult rl = Check(ml, CheckOptions{});
  EXPECT_TRUE(FindsKind(rl, report::FindingKind::SendOnClosed)) << Print(ml);
}

TEST(Extract, AFlagStoredAnythingButAConstantOrOfAStructFromOutsideStaysUnknown) {
  // One store of a computed value anywhere leaves the name untracked: the
  // test takes both sides and the send after the close is found again.
  Model computed = One(Read(std::string(kBroker) +
                            "func F5 name=(*example.com/m.Other).Set pkg=example.com/m kind=method pos=m.go:30:18 results=0\n"
                            "param p0 name=o type=*example.com/m.Other prim=holder\nparam p1 name=v type=bool\n"
                            "block 0 comment=entry\nop var-store pos=m.go:31:11 cell=\"(field p0 closed)\" value=p1\n"
                            "op return pos=m.go:32:1\n"),
                       "example.com/m.Run");
  EXPECT_FALSE(Has(computed.templates[1], K::kLoadVar)) << Print(computed);
  EXPECT_TRUE(FindsKind(Check(computed, CheckOptions{}), report::FindingKind::SendOnClosed)) << Print(computed);

  // A store the model cannot place (through a struct an extern returns,
  // which may be the Broker Run made): Send's test becomes unknown.
  Model lost = One(Read(Replace(kBroker, "op call pos=m.go:4:9 mode=static callee=F3 args=t0\n",
                                "op call pos=m.go:4:9 mode=static callee=F3 args=t0\n"
                                "op call pos=m.go:4:20 dst=t9 mode=static callee=F9\n"
                                "op var-store pos=m.go:4:30 cell=\"(field t9 closed)\" value=true\n") +
                        "extern F9 name=example.com/other.Find pkg=example.com/other\n"),
                   "example.com/m.Run");
  EXPECT_TRUE(Has(lost.templates[1], K::kLoadVar)) << Print(lost);
  EXPECT_TRUE(FindsKind(Check(lost, CheckOptions{}), report::FindingKind::SendOnClosed)) << Print(lost);

  // Send alone: its Broker comes from outside the model, so closed is
  // data the model does not track.
  Model send = One(Read(kBroker), "(*example.com/m.Broker).Send");
  EXPECT_FALSE(Has(send.templates[0], K::kLoadVar)) << Print(send);
  EXPECT_FALSE(Has(send.templates[0], K::kMakeVar)) << Print(send);
}

}  // namespace
}  // namespace gordian::verify
