// This file declares a model: what `gordian verify` checks (docs/verify.md).
// The extractor (extract.h) builds one Model per entry point from the IR
// (src/gordian/ir/ir.h); the model checker (checker.h) explores every
// interleaving of its processes. A model is a small program: process templates
// whose code is a flat array of instructions over integer local slots, some of
// which hold handles of objects (channels, locks, WaitGroups, Once, Cond,
// contexts) made while the model runs. Integers that shape concurrency
// (capacities, Add deltas, loop bounds) are expressions over the model's
// parameters and locals; data the model does not track is an empty expression,
// which the checker reads as a nondeterministic choice.
//
// Why flat code and not a process algebra: the checker's state is then
// just (pc and locals per process, the objects' states), cheap to hash and
// copy, and a counterexample is a list of (process, pc) that maps straight
// back to source positions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gordian/ir/ir.h"

namespace gordian::verify {

// ---------------------------------------------------------------------------
// Integer expressions.

enum class ExprOp : uint8_t {
  kConst,   // value
  kParam,   // the model parameter `index`
  kLocal,   // the process's local slot `index` (an integer slot)
  kAdd, kSub, kMul, kDiv, kMod, kNeg,
  kLt, kLe, kGt, kGe, kEq, kNe,
  kAnd, kOr, kNot,   // booleans are 0/1
  kMin, kMax,
};

// One node; operands are indices of earlier nodes of the same Expr.
struct ExprNode {
  ExprOp op = ExprOp::kConst;
  int64_t value = 0;  // kConst
  int32_t index = 0;  // kParam, kLocal
  int32_t lhs = -1, rhs = -1;
};

// An expression in postfix order: the root is the last node. An empty Expr
// is a value the model does not know: as a condition, either branch; as a
// count (capacity, delta, bound), any value the checker's bound allows
// (CheckOptions::unknown_values).
struct Expr {
  std::vector<ExprNode> nodes;
  bool Unknown() const { return nodes.empty(); }
  static Expr Const(int64_t v);
  static Expr Param(int32_t i);
  static Expr Local(int32_t i);
};

// ---------------------------------------------------------------------------
// Objects and instructions.

enum class ObjectKind : uint8_t {
  kChan, kMutex, kRWMutex, kWaitGroup, kOnce, kCond, kContext,
  kVar  // a shared bool or integer a Cond's predicate loop reads
};

// `a`, `b`, `c` are local slots unless the comment says target (an index
// into the template's code) or template. A slot that holds an object handle
// holds -1 for nil. Every instruction that does not jump goes on to pc+1.
enum class InstrKind : uint8_t {
  kNop,        // (a place holder with a position, e.g. a sleep)
  kJump,       // goto target a
  kBranch,     // if expr (nonzero) goto target a else goto target b;
               // an unknown expr takes either
  kChoice,     // goto any of targets (nondeterministic)
  kAssign,     // local a = expr
  kMakeChan,   // local a = new channel with capacity expr
  kMakeMutex, kMakeRWMutex, kMakeWaitGroup, kMakeOnce,  // local a = new object
  kMakeCond,   // local a = new Cond whose locker is the mutex in local b
               // (c = 1: b's read lock, RWMutex.RLocker)
  kMakeContext,  // local a = new context, parent in local b (-1: root, never
                 // cancelled by anyone else); c = 1 when a timer may cancel
                 // it at any moment (WithTimeout, WithDeadline)
  kCtxDone,    // local a = the channel of context b, closed when it is cancelled
  kCancel,     // cancel context a (and its descendants); no-op when cancelled
  kMakeTimer,  // local a = new channel (capacity 1) on which the environment
               // sends once at an arbitrary moment (c = 1: any number of times,
               // a ticker); b = -1, or a slot that kStopTimer may clear
  kStopTimer,  // the timer channel in local a sends no more
  kSend,       // send on channel a (blocks; panics when closed; blocks forever on nil)
  kRecv,       // receive from channel a; local b (-1: none) = ok (0 once closed and drained)
  kClose,      // close channel a (panics when closed or nil)
  kSelect,     // select over `cases`; default target a (-1: blocking select)
  kLock, kUnlock, kRLock, kRUnlock,
  kTryLock,    // local b = 1 and lock a if free, else b = 0 (c = 1: TryRLock)
  kWgAdd,      // WaitGroup a += expr (Done is expr = -1); below 0 panics
  kWgWait,     // block until WaitGroup a is 0
  kOnceBegin,  // Once a: if done goto target b; if another process runs it,
               // block until done then goto b; else mark running, go on
               // (the function's inlined code follows, then kOnceEnd)
  kOnceEnd,    // Once a is done
  kCondWait,   // unlock a's locker, wait for a Signal/Broadcast, relock
  kCondSignal, kCondBroadcast,
  // Shared variables: the data a Cond's predicate loop tests (`for !ready {
  // c.Wait() }`), tracked so that a waiter woken after the predicate became
  // true leaves its loop (docs/verify.md, "Models"; the IR side:
  // docs/ir-format.md, "Variables").
  kMakeVar,    // local a = new variable holding expr (unknown: any of the
               // checker's unknown values)
  kLoadVar,    // local a = the value of the variable in local b
  kStoreVar,   // the variable in local a = expr
  kGo,         // start a process of template b with locals 0..args-1 = args
  kCall,       // (reserved: the extractor inlines; the checker rejects it)
  kPanic,      // the program dies here (a panic the model does not classify)
  kEnd,        // the process returns (for the main process: the entry returns)
};

struct SelectCase {
  bool send = false;
  int32_t chan = -1;    // local slot of the channel
  int32_t ok = -1;      // receive: local slot for ok, or -1
  int32_t target = -1;  // where its body starts
  ir::Pos pos;
};

struct Instr {
  InstrKind kind = InstrKind::kNop;
  int32_t a = -1, b = -1, c = -1;
  Expr expr;
  std::vector<int32_t> targets;  // kChoice
  std::vector<int32_t> args;     // kGo: local slots copied into the new process
  std::vector<SelectCase> cases; // kSelect
  ir::Pos pos;
  // Where the process goes on when this instruction panics (-1: the panic
  // is a finding): the landing pad of a function whose deferred call
  // recovers (it runs the deferred calls and returns). Fatal errors (unlock
  // of an unlocked lock) are not recovered.
  int32_t recover = -1;
  // What the source says here, for counterexamples: "ch <- v", "mu.Lock()".
  std::string text;
};

// A process's code: the entry function inlined, or the body of a `go`.
struct Template {
  std::string name;      // the Go function, e.g. "m.worker" or "m.Run$1"
  ir::Pos pos;           // the function's (or the go statement's) position
  int32_t num_locals = 0;
  // The environment (timer senders, timeout cancellers): never reported as
  // leaked or deadlocked; a state where only environment processes can move
  // is still a state where the program can.
  bool environment = false;
  std::vector<Instr> code;
};

// Gomela's parameters: a mandatory one shapes concurrency directly (a
// channel's capacity, a loop bound around a go statement or a channel
// operation, an Add delta); an optional one only reaches it through data.
struct Parameter {
  std::string name;      // a name a user can pass to -param: "len(jobs)", "n"
  std::string source;    // where it comes from, for the report
  bool mandatory = true;
  std::vector<int64_t> values;  // what the checker tries (default 0..5)
};

struct Model {
  std::string entry;     // the entry point's Go name
  std::string test;      // a test's name when the entry is a test, else ""
  ir::Pos pos;
  std::vector<std::string> files;  // ir::Pos::file indexes this
  std::vector<Parameter> params;
  std::vector<Template> templates;  // templates[0] is the entry: process 0
  // What the extractor approximated or left out, for --verbose.
  std::vector<std::string> notes;
};

// Checks that every slot, target and template index is in range and that
// each instruction has the operands its kind needs. The checker runs only
// valid models; false with *error naming the template and pc otherwise.
bool Validate(const Model& m, std::string* error);

// A readable listing of the model, one instruction per line (for
// `gordian verify -dump-models`, tests and --verbose).
std::string Print(const Model& m);

// One expression in infix form ("($n - 1)", "?" when unknown), as Print
// shows it; parameters by name.
std::string FormatExpr(const Model& m, const Expr& e);

std::string_view InstrKindName(InstrKind k);

}  // namespace gordian::verify
