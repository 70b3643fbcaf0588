// This file owns the Promela export (promela.h): how each model
// instruction becomes Promela, and which SPIN verdict each bug kind is.
//
// Objects are not Gomela's primitive processes but global arrays indexed
// by the handle (okind, ch_cap, mu_holder, ...) with inline macros for
// their operations: each model step is then one Promela step (an atomic
// guard and update), as in the own checker, instead of a rendezvous with
// a monitor process per operation. Unbuffered channels additionally use
// Promela's own rendezvous channels (rv[h]), so a send and a receive meet
// in one step as in Go and in the checker; a buffered channel, a closed
// one or a nil one never offers a rendezvous (its index is then a dummy
// channel nobody uses: NILS for senders, NILR for receivers).
//
// Verdicts: every panic is `atomic { cond -> assert(false) }; goto Lpc`,
// so under pan -A (assertions off) the process stays at the panicking
// instruction and can always move, as the checker's panicking process
// makes a state unclassifiable. A double lock asserts and then blocks at
// an end label (the checker leaves such a process out of a deadlock's
// blocked set). Environment templates (timers, timeouts) have end labels
// at every instruction; the timer and timeout processes made here block
// only at end labels.
#include "gordian/verify/promela.h"
#include "gordian/util/fnv.h"

#include <fmt/format.h>

#include <cstdio>
#include <functional>

namespace gordian::verify {

const char kPromelaMarker[] = "/* gordian verify -promela: generated, rewritten on each export */";

bool IsAssertionKind(const Violation& v) {
  // A kind whose bug crashes the program is an assertion; one that blocks
  // is a stuck state (report/finding_kinds.def, the shows column). But a
  // process at a Lock of a lock it holds is reported alone (one blocked
  // step) and asserted; a read lock that waits behind a writer waiting for
  // that reader is a stuck state naming both (checker_stuck.cc, Classify).
  if (v.kind == report::FindingKind::DoubleLock) return v.where.size() == 1;
  return report::Crashes(v.kind);
}

SpinVerdict VerdictOf(const CheckResult& r) {
  SpinVerdict v;
  v.bounded = r.bounded;
  for (const Violation& x : r.violations) {
    (IsAssertionKind(x) ? v.assertion : v.end_state) = true;
    const std::string name(report::KindName(x.kind));
    if (v.kinds.find(name) == std::string::npos) v.kinds += (v.kinds.empty() ? "" : ",") + name;
  }
  return v;
}

namespace {

// The fixed part of every file: object arrays, macros and inline
// operations, and the environment's processes.
const char kPrelude[] = R"(#ifndef MAXOBJ
#define MAXOBJ 16
#endif
#define NOBJ (MAXOBJ + 2)
#define NILS MAXOBJ
#define NILR (MAXOBJ + 1)
#define MAXPROC 256
#define K_CHAN 1
#define K_MUTEX 2
#define K_RWMUTEX 3
#define K_WG 4
#define K_ONCE 5
#define K_COND 6
#define K_CTX 7
#define K_VAR 8
#define T_NONE 0
#define T_ONCE 1
#define T_TICKER 2
#define T_OFF 3

/* Objects, by handle (the order the run made them; -1 is nil). */
int nobj = 0;
byte okind[NOBJ];
int ch_cap[NOBJ];
int ch_cnt[NOBJ];
bit ch_closed[NOBJ];
byte ch_timer[NOBJ];
int mu_holder[NOBJ];   /* Mutex holder, RWMutex writer (announced or active): a pid, -1 free, -2 gone */
bit rw_active[NOBJ];
int rw_readers[NOBJ];
int rw_rbits[NOBJ];    /* RWMutex: which pids below 31 hold a read lock, a bit each (the checker's ReaderBit) */
int wg_count[NOBJ];
byte once_state[NOBJ]; /* 0 not run, 1 running, 2 done */
int cond_lock[NOBJ];
bit cond_read[NOBJ];
bit ctx_cancelled[NOBJ];
int ctx_parent[NOBJ];
int ctx_done[NOBJ];
int var_val[NOBJ];     /* a shared bool or integer (a Cond predicate's data) */
chan rv[NOBJ] = [0] of { bit };  /* unbuffered channels meet here */
byte cwait[MAXPROC];             /* per pid: 1 + the Cond it waits on, 0 none */

/* Rendezvous index of a sender / receiver: the channel itself only while it is unbuffered and open. */
#define RVS(h) (((h) != -1 && ch_cap[h] == 0 && !ch_closed[h]) -> (h) : NILS)
#define RVR(h) (((h) != -1 && ch_cap[h] == 0 && !ch_closed[h]) -> (h) : NILR)
#define SCLOSED(h) ((h) != -1 && ch_closed[h])
#define SROOM(h) ((h) != -1 && !ch_closed[h] && ch_cap[h] > 0 && ch_cnt[h] < ch_cap[h])
#define RREADY(h) ((h) != -1 && (ch_cnt[h] > 0 || ch_closed[h]))

#define IS_MUTEX(l) (okind[l] == K_MUTEX)
#define RBIT ((_pid < 31) -> (1 << _pid) : 0)
#define UPGRADES(l) (!IS_MUTEX(l) && (rw_rbits[l] & RBIT) != 0)  /* Lock by a reader of the same RWMutex */
#define CAN_ACQ(l, rd) (IS_MUTEX(l) -> mu_holder[l] == -1 : ((rd) -> mu_holder[l] == -1 : (mu_holder[l] == -1 && rw_readers[l] == 0)))
#define CAN_REL(l, rd) (IS_MUTEX(l) -> mu_holder[l] != -1 : ((rd) -> rw_readers[l] > 0 : rw_active[l] == 1))

inline acquire(l, rd) {
  if
  :: IS_MUTEX(l) -> mu_holder[l] = _pid
  :: !IS_MUTEX(l) && (rd) -> rw_readers[l]++; rw_rbits[l] = rw_rbits[l] | RBIT
  :: !IS_MUTEX(l) && !(rd) -> mu_holder[l] = _pid; rw_active[l] = 1
  fi
}

inline release(l, rd) {
  if
  :: IS_MUTEX(l) -> mu_holder[l] = -1
  :: !IS_MUTEX(l) && (rd) -> rw_readers[l]--; rw_rbits[l] = rw_rbits[l] & ~RBIT
  :: !IS_MUTEX(l) && !(rd) -> mu_holder[l] = -1; rw_active[l] = 0
  fi
}

/* Cancels context c and its descendants (made after their parents). */
inline cancel_in(c) {
  if
  :: !ctx_cancelled[c] ->
    ctx_cancelled[c] = 1; ch_closed[ctx_done[c]] = 1;
    _i = c + 1;
    do
    :: _i < nobj ->
      if
      :: okind[_i] == K_CTX && !ctx_cancelled[_i] && ctx_parent[_i] >= 0 && ctx_cancelled[ctx_parent[_i]] ->
        ctx_cancelled[_i] = 1; ch_closed[ctx_done[_i]] = 1
      :: else -> skip
      fi;
      _i++
    :: else -> break
    od
  :: else -> skip
  fi
}

/* Wakes one waiter of Cond c, any of them, or none when none waits. */
inline cond_signal(c) {
  _n = 0; _i = 0;
  do
  :: _i < MAXPROC -> if :: cwait[_i] == c + 1 -> _n++ :: else -> skip fi; _i++
  :: else -> break
  od;
  if
  :: _n > 0 ->
    select (_k : 1 .. _n);
    _i = 0;
    do
    :: cwait[_i] == c + 1 && _k == 1 -> cwait[_i] = 0; break
    :: cwait[_i] == c + 1 && _k > 1 -> _k--; _i++
    :: cwait[_i] != c + 1 -> _i++
    od
  :: else -> skip
  fi
}

inline cond_broadcast(c) {
  _i = 0;
  do
  :: _i < MAXPROC -> if :: cwait[_i] == c + 1 -> cwait[_i] = 0 :: else -> skip fi; _i++
  :: else -> break
  od
}

/* A process that ends holding a lock leaves it held by nobody that can unlock it as a holder. */
inline drop_locks() {
  _i = 0;
  do
  :: _i < nobj ->
    if :: (okind[_i] == K_MUTEX || okind[_i] == K_RWMUTEX) && mu_holder[_i] == _pid -> mu_holder[_i] = -2
    :: else -> skip fi;
    if :: okind[_i] == K_RWMUTEX -> rw_rbits[_i] = rw_rbits[_i] & ~RBIT
    :: else -> skip fi;
    _i++
  :: else -> break
  od
}

/* The environment: a timer's channel gets its value at any moment while it has room. */
proctype Timer(int h) {
endT:
  do
  :: atomic { ch_timer[h] == T_ONCE && ch_cnt[h] < ch_cap[h] -> ch_cnt[h]++; ch_timer[h] = T_OFF }
  :: atomic { ch_timer[h] == T_TICKER && ch_cnt[h] < ch_cap[h] -> ch_cnt[h]++ }
  :: ch_timer[h] == T_OFF -> break
  od
}

/* The environment: a context with a timeout may be cancelled at any moment. */
proctype Timeout(int c) {
  int _i;
endT:
  if
  :: atomic { !ctx_cancelled[c] -> cancel_in(c) }
  :: ctx_cancelled[c] -> skip
  fi
}
)";

std::string SafeComment(std::string s) {
  for (size_t i; (i = s.find("*/")) != std::string::npos;) s.replace(i, 2, "* /");
  for (char& c : s)
    if (c == '\n') c = ' ';
  return s;
}

class Writer {
 public:
  Writer(const Model& m, const std::vector<int64_t>& values, const PromelaOptions& o)
      : m_(m), values_(values), o_(o) {}

  std::string Run() {
    out_ += kPromelaMarker;
    out_ += "\n";
    const std::string file = m_.pos.file < m_.files.size() ? m_.files[m_.pos.file] : "?";
    out_ += fmt::format("/* model: {} ({}:{}) */\n", SafeComment(m_.entry), SafeComment(file), m_.pos.line);
    out_ += fmt::format("/* valuation: {} */\n", SafeComment(ValuationText()));
    if (o_.verdict) {
      const SpinVerdict& v = *o_.verdict;
      out_ += fmt::format("/* gordian-verdict: assertion={} end_state={} bounded={} states={} seconds={:.6f} kinds={} */\n",
                          int(v.assertion), int(v.end_state), int(v.bounded), o_.states, o_.seconds,
                          v.kinds.empty() ? "none" : SafeComment(v.kinds));
    }
    out_ += fmt::format("#ifndef MAXOBJ\n#define MAXOBJ {}\n#endif\n", o_.max_objects);
    for (size_t i = 0; i < m_.params.size(); ++i) {
      out_ += fmt::format("#define PARAM{} ({}) /* {} */\n", i, i < values_.size() ? values_[i] : 0,
                          SafeComment(m_.params[i].name));
    }
    out_ += kPrelude;
    for (size_t t = 0; t < m_.templates.size(); ++t) Proc(static_cast<int32_t>(t));
    out_ += "\ninit {\n  run Proc0(";
    for (int32_t i = 0; i < m_.templates[0].num_locals; ++i) out_ += i ? ", -1" : "-1";
    out_ += ")\n}\n";
    return std::move(out_);
  }

 private:
  std::string ValuationText() const {
    std::string s;
    for (size_t i = 0; i < m_.params.size() && i < values_.size(); ++i)
      s += fmt::format("{}{}={}", s.empty() ? "" : ", ", m_.params[i].name, values_[i]);
    return s.empty() ? "(no parameters)" : s;
  }

  std::string L(int32_t pc) const { return fmt::format("{}L{}", env_ ? "end" : "", pc); }
  static std::string Loc(int32_t slot) { return fmt::format("l{}", slot); }

  std::string ExprText(const Expr& e) const {
    std::function<std::string(int32_t)> node = [&](int32_t i) -> std::string {
      const ExprNode& n = e.nodes[i];
      auto l = [&] { return node(n.lhs); };
      auto r = [&] { return node(n.rhs); };
      switch (n.op) {
        case ExprOp::kConst: return n.value < 0 ? fmt::format("({})", n.value) : fmt::format("{}", n.value);
        case ExprOp::kParam: return fmt::format("PARAM{}", n.index);
        case ExprOp::kLocal: return Loc(n.index);
        case ExprOp::kAdd: return "(" + l() + " + " + r() + ")";
        case ExprOp::kSub: return "(" + l() + " - " + r() + ")";
        case ExprOp::kMul: return "(" + l() + " * " + r() + ")";
        // The checker's x/0 and x%0 are 0 (no panic: the model's division is data).
        case ExprOp::kDiv: return "(" + r() + " == 0 -> 0 : " + l() + " / " + r() + ")";
        case ExprOp::kMod: return "(" + r() + " == 0 -> 0 : " + l() + " % " + r() + ")";
        case ExprOp::kNeg: return "(-" + l() + ")";
        case ExprOp::kLt: return "(" + l() + " < " + r() + ")";
        case ExprOp::kLe: return "(" + l() + " <= " + r() + ")";
        case ExprOp::kGt: return "(" + l() + " > " + r() + ")";
        case ExprOp::kGe: return "(" + l() + " >= " + r() + ")";
        case ExprOp::kEq: return "(" + l() + " == " + r() + ")";
        case ExprOp::kNe: return "(" + l() + " != " + r() + ")";
        case ExprOp::kAnd: return "(" + l() + " && " + r() + ")";
        case ExprOp::kOr: return "(" + l() + " || " + r() + ")";
        case ExprOp::kNot: return "(!" + l() + ")";
        case ExprOp::kMin: return "(" + l() + " < " + r() + " -> " + l() + " : " + r() + ")";
        case ExprOp::kMax: return "(" + l() + " > " + r() + " -> " + l() + " : " + r() + ")";
      }
      return "0";
    };
    return node(static_cast<int32_t>(e.nodes.size()) - 1);
  }

  // `_v = expr`, or a choice of the unknown values.
  std::string SetV(const Expr& e) const {
    if (!e.Unknown()) return "_v = " + ExprText(e);
    std::string s = "if";
    for (int64_t u : o_.unknown_values) s += fmt::format(" :: _v = {}", u);
    return s + " fi";
  }

  void Emit(const std::string& s) { out_ += "  " + s + ";\n"; }

  // The pc's label, then a panic when local slot is nil.
  void NilPanics(int32_t pc, int32_t slot) {
    Emit(fmt::format("{}: if :: {} == -1 -> assert(false); goto {} :: else -> skip fi", L(pc), Loc(slot), L(pc)));
  }

  // A new object of `kind` in lA: the fields' assignments for index nobj.
  void Alloc(int32_t pc, int32_t a, const std::string& kind, const std::string& fields) {
    Emit(fmt::format("if :: nobj >= MAXOBJ -> endcut{}: false :: else -> atomic {{ {} = nobj; okind[nobj] = {}; {} nobj++ }} fi",
                     pc, Loc(a), kind, fields));
  }

  struct Comm {
    bool send;
    int32_t chan, ok, target;
  };
  // A send, a receive or a select at pc (default -1: blocking).
  void Communicate(int32_t pc, const std::vector<Comm>& cases, int32_t deflt) {
    std::string s = fmt::format("{}: if\n", L(pc));
    std::string ready;
    for (const Comm& c : cases) {
      const std::string h = Loc(c.chan), to = L(c.target);
      if (c.send) {
        s += fmt::format("  :: atomic {{ SCLOSED({}) -> assert(false) }}; goto {}\n", h, L(pc));
        s += fmt::format("  :: atomic {{ SROOM({}) -> ch_cnt[{}]++ }}; goto {}\n", h, h, to);
        s += fmt::format("  :: rv[RVS({})] ! 0; goto {}\n", h, to);
        ready += fmt::format("{}SCLOSED({}) || SROOM({})", ready.empty() ? "" : " || ", h, h);
      } else {
        const std::string got = c.ok >= 0 ? fmt::format("; {} = 1", Loc(c.ok)) : "";
        const std::string none = c.ok >= 0 ? fmt::format("{} = 0", Loc(c.ok)) : "skip";
        s += fmt::format("  :: atomic {{ RREADY({}) -> if :: ch_cnt[{}] > 0 -> ch_cnt[{}]--{} :: else -> {} fi }}; goto {}\n",
                         h, h, h, got, none, to);
        s += fmt::format("  :: rv[RVR({})] ? _{}; goto {}\n", h, got, to);
        ready += fmt::format("{}RREADY({})", ready.empty() ? "" : " || ", h);
      }
    }
    // Only a buffered or closed case makes a select's default impossible
    // (as in the checker: a partner at an unbuffered operation may not be
    // queued yet).
    if (deflt >= 0) s += fmt::format("  :: !({}) -> goto {}\n", ready.empty() ? "0" : ready, L(deflt));
    if (cases.empty() && deflt < 0) s += "  :: false\n";
    s += "  fi";
    Emit(s);
  }

  void Proc(int32_t t) {
    const verify::Template& tp = m_.templates[t];
    env_ = tp.environment;
    uses_locks_ = false;
    for (const verify::Template& x : m_.templates)
      for (const Instr& in : x.code)
        uses_locks_ = uses_locks_ || in.kind == InstrKind::kMakeMutex || in.kind == InstrKind::kMakeRWMutex;
    out_ += fmt::format("\n/* {}{} */\nproctype Proc{}(", SafeComment(tp.name), env_ ? " (environment)" : "", t);
    for (int32_t i = 0; i < tp.num_locals; ++i) out_ += fmt::format("{}int {}", i ? "; " : "", Loc(i));
    out_ += ") {\n  int _i, _n, _k, _v;\n";
    for (int32_t pc = 0; pc < static_cast<int32_t>(tp.code.size()); ++pc) Instruction(pc, tp.code[pc]);
    out_ += "Lexit: skip\n}\n";
  }

  // A panic of an instruction with a recover target (a deferred recover())
  // goes there instead of failing an assertion, as in the checker; the
  // unlocks, whose panic is Go's unrecoverable fatal error, keep it.
  void Instruction(int32_t pc, const Instr& in) {
    const size_t start = out_.size();
    InstructionBody(pc, in);
    // (A lock's assertion is a double lock, no panic: kept too.)
    if (in.recover < 0 || in.kind == InstrKind::kUnlock || in.kind == InstrKind::kRUnlock ||
        in.kind == InstrKind::kCondWait || in.kind == InstrKind::kLock || in.kind == InstrKind::kRLock) {
      return;
    }
    std::string body = out_.substr(start);
    const std::string from = "assert(false)", to = "goto " + L(in.recover);
    for (size_t at = body.find(from); at != std::string::npos; at = body.find(from, at + to.size())) {
      body.replace(at, from.size(), to);
    }
    out_.resize(start);
    out_ += body;
  }

  void InstructionBody(int32_t pc, const Instr& in) {
    out_ += fmt::format("  /* {}: {} */\n", pc, SafeComment(in.text.empty() ? std::string(InstrKindName(in.kind)) : in.text));
    const std::string a = in.a >= 0 ? Loc(in.a) : "", b = in.b >= 0 ? Loc(in.b) : "";
    const std::string here = L(pc);
    switch (in.kind) {
      case InstrKind::kNop: Emit(here + ": skip"); return;
      case InstrKind::kJump: Emit(fmt::format("{}: goto {}", here, L(in.a))); return;
      case InstrKind::kBranch:
        if (in.expr.Unknown()) Emit(fmt::format("{}: if :: true -> goto {} :: true -> goto {} fi", here, L(in.a), L(in.b)));
        else Emit(fmt::format("{}: if :: {} -> goto {} :: else -> goto {} fi", here, ExprText(in.expr), L(in.a), L(in.b)));
        return;
      case InstrKind::kChoice: {
        std::string s = here + ": if";
        for (int32_t x : in.targets) s += " :: true -> goto " + L(x);
        Emit(s + " fi");
        return;
      }
      case InstrKind::kAssign:
        if (!in.expr.Unknown()) {
          Emit(fmt::format("{}: {} = {}", here, a, ExprText(in.expr)));
        } else {
          std::string s = here + ": if";
          for (int64_t u : o_.unknown_values) s += fmt::format(" :: {} = {}", a, u);
          Emit(s + " fi");
        }
        return;
      case InstrKind::kMakeChan:
        Emit(fmt::format("{}: {}", here, SetV(in.expr)));
        Emit(fmt::format("if :: _v < 0 -> assert(false); goto {} :: else -> skip fi", here));
        Alloc(pc, in.a, "K_CHAN", "ch_cap[nobj] = _v;");
        return;
      case InstrKind::kMakeMutex: case InstrKind::kMakeRWMutex:
        Emit(here + ": skip");
        Alloc(pc, in.a, in.kind == InstrKind::kMakeMutex ? "K_MUTEX" : "K_RWMUTEX", "mu_holder[nobj] = -1;");
        return;
      case InstrKind::kMakeWaitGroup: Emit(here + ": skip"); Alloc(pc, in.a, "K_WG", ""); return;
      case InstrKind::kMakeVar:
        Emit(fmt::format("{}: {}", here, SetV(in.expr)));
        Alloc(pc, in.a, "K_VAR", "var_val[nobj] = _v;");
        return;
      case InstrKind::kLoadVar: Emit(fmt::format("{}: {} = var_val[{}]", here, a, b)); return;
      case InstrKind::kStoreVar:
        Emit(fmt::format("{}: {}", here, SetV(in.expr)));
        Emit(fmt::format("var_val[{}] = _v", a));
        return;
      case InstrKind::kMakeOnce: Emit(here + ": skip"); Alloc(pc, in.a, "K_ONCE", ""); return;
      case InstrKind::kMakeCond:
        Emit(here + ": skip");
        Alloc(pc, in.a, "K_COND", fmt::format("cond_lock[nobj] = {}; cond_read[nobj] = {};", b, in.c == 1 ? 1 : 0));
        return;
      case InstrKind::kMakeContext: {
        const std::string parent = in.b >= 0 ? b : "-1";
        Emit(fmt::format(
            "{}: if :: nobj + 2 > MAXOBJ -> endcut{}: false :: else -> atomic {{ "
            "_v = ({} != -1 -> ctx_cancelled[{}] : 0); okind[nobj] = K_CHAN; ch_closed[nobj] = _v; "
            "okind[nobj + 1] = K_CTX; ctx_cancelled[nobj + 1] = _v; ctx_parent[nobj + 1] = {}; "
            "ctx_done[nobj + 1] = nobj; {} = nobj + 1; nobj = nobj + 2 }} fi",
            here, pc, parent, in.b >= 0 ? parent : "0", parent, a));
        if (in.c == 1) Emit(fmt::format("run Timeout({})", a));
        return;
      }
      case InstrKind::kCtxDone:
        NilPanics(pc, in.b);
        Emit(fmt::format("{} = ctx_done[{}]", a, b));
        return;
      case InstrKind::kCancel:
        NilPanics(pc, in.a);
        Emit(fmt::format("atomic {{ cancel_in({}) }}", a));
        return;
      case InstrKind::kMakeTimer:
        Emit(here + ": skip");
        Alloc(pc, in.a, "K_CHAN", fmt::format("ch_cap[nobj] = 1; ch_timer[nobj] = {};", in.c == 1 ? "T_TICKER" : "T_ONCE"));
        Emit(fmt::format("run Timer({})", a));
        return;
      case InstrKind::kStopTimer:
        NilPanics(pc, in.a);
        Emit(fmt::format("if :: ch_timer[{0}] == T_ONCE || ch_timer[{0}] == T_TICKER -> ch_timer[{0}] = T_OFF :: else -> skip fi", a));
        return;
      case InstrKind::kSend: Communicate(pc, {{true, in.a, -1, pc + 1}}, -1); return;
      case InstrKind::kRecv: Communicate(pc, {{false, in.a, in.b, pc + 1}}, -1); return;
      case InstrKind::kSelect: {
        std::vector<Comm> cs;
        for (const SelectCase& c : in.cases) cs.push_back({c.send, c.chan, c.ok, c.target});
        Communicate(pc, cs, in.a);
        return;
      }
      case InstrKind::kClose:
        NilPanics(pc, in.a);
        Emit(fmt::format("if :: atomic {{ ch_closed[{0}] -> assert(false) }}; goto {1} :: atomic {{ !ch_closed[{0}] -> ch_closed[{0}] = 1 }} fi", a, here));
        return;
      case InstrKind::kLock: case InstrKind::kRLock: {
        const int rd = in.kind == InstrKind::kRLock;
        NilPanics(pc, in.a);
        // A double lock: the holder locks again, or (Lock) a reader of
        // the same RWMutex upgrades, waiting for itself among the readers.
        std::string s = fmt::format(
            "if\n  :: mu_holder[{0}] == _pid{3} -> assert(false); enddl{1}: false\n"
            "  :: atomic {{ CAN_ACQ({0}, {2}) -> acquire({0}, {2}) }}\n", a, pc, rd,
            rd ? "" : fmt::format(" || UPGRADES({})", a));
        // A writer behind readers announces itself (new readers wait),
        // then waits for the readers to leave.
        if (!rd) {
          s += fmt::format(
              "  :: atomic {{ !IS_MUTEX({0}) && mu_holder[{0}] == -1 && rw_readers[{0}] > 0 && !UPGRADES({0}) -> mu_holder[{0}] = _pid }};\n"
              "     atomic {{ rw_readers[{0}] == 0 -> rw_active[{0}] = 1 }}\n", a);
        }
        Emit(s + "  fi");
        return;
      }
      case InstrKind::kUnlock: case InstrKind::kRUnlock: {
        const int rd = in.kind == InstrKind::kRUnlock;
        NilPanics(pc, in.a);
        Emit(fmt::format("if :: atomic {{ !CAN_REL({0}, {1}) -> assert(false) }}; goto {2} :: atomic {{ CAN_REL({0}, {1}) -> release({0}, {1}) }} fi",
                         a, rd, here));
        return;
      }
      case InstrKind::kTryLock: {
        const int rd = in.c == 1;
        NilPanics(pc, in.a);
        Emit(fmt::format("atomic {{ if :: CAN_ACQ({0}, {1}) -> acquire({0}, {1}); {2} = 1 :: else -> {2} = 0 fi }}", a, rd, b));
        return;
      }
      case InstrKind::kWgAdd: {
        NilPanics(pc, in.a);
        std::vector<std::string> deltas;
        if (in.expr.Unknown()) {
          for (int64_t u : o_.unknown_values) deltas.push_back(fmt::format("({})", u));
        } else {
          deltas.push_back(ExprText(in.expr));
        }
        std::string s = "if\n";
        for (const std::string& d : deltas) {
          s += fmt::format("  :: atomic {{ wg_count[{0}] + {1} < 0 -> assert(false) }}; goto {2}\n", a, d, here);
          s += fmt::format("  :: atomic {{ wg_count[{0}] + {1} >= 0 -> wg_count[{0}] = wg_count[{0}] + {1} }}\n", a, d);
        }
        Emit(s + "  fi");
        return;
      }
      case InstrKind::kWgWait:
        NilPanics(pc, in.a);
        Emit(fmt::format("wg_count[{}] == 0", a));
        return;
      case InstrKind::kOnceBegin:
        NilPanics(pc, in.a);
        Emit(fmt::format("if :: atomic {{ once_state[{0}] == 0 -> once_state[{0}] = 1 }} :: once_state[{0}] == 2 -> goto {1} fi",
                         a, L(in.b)));
        return;
      case InstrKind::kOnceEnd:
        NilPanics(pc, in.a);
        Emit(fmt::format("once_state[{}] = 2", a));
        return;
      case InstrKind::kCondWait:
        NilPanics(pc, in.a);
        Emit(fmt::format("if :: cond_lock[{}] < 0 -> assert(false); goto {} :: else -> skip fi", a, here));
        Emit(fmt::format(
            "if :: atomic {{ !CAN_REL(cond_lock[{0}], cond_read[{0}]) -> assert(false) }}; goto {1}\n"
            "  :: atomic {{ CAN_REL(cond_lock[{0}], cond_read[{0}]) -> release(cond_lock[{0}], cond_read[{0}]); cwait[_pid] = {0} + 1 }}\n"
            "  fi", a, here));
        Emit("cwait[_pid] == 0");
        Emit(fmt::format("atomic {{ CAN_ACQ(cond_lock[{0}], cond_read[{0}]) -> acquire(cond_lock[{0}], cond_read[{0}]) }}", a));
        return;
      case InstrKind::kCondSignal: case InstrKind::kCondBroadcast:
        NilPanics(pc, in.a);
        Emit(fmt::format("atomic {{ {}({}) }}", in.kind == InstrKind::kCondSignal ? "cond_signal" : "cond_broadcast", a));
        return;
      case InstrKind::kGo: {
        const verify::Template& callee = m_.templates[in.b];
        std::string args;
        for (int32_t i = 0; i < callee.num_locals; ++i) {
          args += i ? ", " : "";
          args += static_cast<size_t>(i) < in.args.size() ? Loc(in.args[i]) : "-1";
        }
        Emit(fmt::format("{}: run Proc{}({})", here, in.b, args));
        return;
      }
      case InstrKind::kPanic: Emit(fmt::format("{}: assert(false); goto {}", here, here)); return;
      case InstrKind::kEnd:
        if (uses_locks_) Emit(fmt::format("{}: atomic {{ drop_locks() }}; goto Lexit", here));
        else Emit(fmt::format("{}: goto Lexit", here));
        return;
      case InstrKind::kCall:
        // The checker rejects a call (its result is bounded): cut the path.
        Emit(fmt::format("{}: false", here));
        return;
    }
  }

  const Model& m_;
  const std::vector<int64_t>& values_;
  const PromelaOptions& o_;
  std::string out_;
  bool env_ = false, uses_locks_ = false;
};

}  // namespace

std::string ToPromela(const Model& m, const std::vector<int64_t>& values, const PromelaOptions& opts) {
  return Writer(m, values, opts).Run();
}

std::string PromelaFileName(const Model& m, const std::vector<int64_t>& values) {
  auto escape = [](const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-')
        out += static_cast<char>(c);
      else
        out += fmt::format("%{:02X}", c);
    }
    return out;
  };
  std::string name = escape(m.entry);
  if (!m.params.empty()) {
    std::string val;
    for (size_t i = 0; i < m.params.size() && i < values.size(); ++i)
      val += fmt::format("{}{}={}", i ? "," : "", m.params[i].name, values[i]);
    name += '@';
    name += escape(val);
  }
  if (name.empty() || name[0] == '.') name.insert(name.begin(), '_');  // no hidden files, no "." or ".."
  if (name.size() > 200) {
    name = fmt::format("{}-{:016x}", name.substr(0, 180), util::Fnv1a64(name));
  }
  return name + ".pml";
}

}  // namespace gordian::verify
