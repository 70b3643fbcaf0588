// This file owns the model checker (checker.h): the flat state encoding,
// the step function (every move a state has), the store of visited states
// (byte-encoded in chunks, plus an open-addressing table) and the breadth-first
// search with partial-order reduction that reports each violation once with
// a shortest-found counterexample.
//
// A state, while it is expanded, is one int32 array (stored, each word
// takes one byte in most cases: Encode):
//   [number of processes, number of objects]
//   per process: [template (-1 once ended), pc, status, locals...]
//       (an ended process keeps no locals, so equal futures merge)
//   per object, kObjSize ints: [kind, fields...] (layouts below)
// Processes come before objects, so object i is at size - kObjSize *
// (nobj - i): no offset table is stored. Objects are numbered in the order
// they were made; a new process takes the first ended process's place (not
// 0's), so a loop of short-lived goroutines does not grow the state.
#include "gordian/verify/checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_set>

namespace gordian::verify {
namespace {

using report::FindingKind;
using report::Primitive;

constexpr int32_t kHeader = 2;
constexpr int32_t kProcHeader = 3;  // template, pc, status
constexpr int32_t kObjSize = 6;

enum Status : int32_t {
  kRun = 0,            // about to run code[pc]
  kEnded = 1,
  kRwWaitReaders = 2,  // at a Lock of an RWMutex: announced (new readers wait), waits for readers to leave
  kCondWaiting = 3,    // at a CondWait: unlocked, waits for Signal/Broadcast
  kCondRelock = 4,     // at a CondWait: woken, relocks the locker
};

// Object layouts (field 0 is the kind).
enum ObjKind : int32_t { kOChan = 1, kOMutex, kORWMutex, kOWaitGroup, kOOnce, kOCond, kOContext, kOVar };
// chan:    cap, count, closed, timer (kTimer*)
// mutex:   holder (process, -1 free, kHolderGone: held by an ended process)
// rwmutex: writer (process announced or holding, -1, kHolderGone), writer active, readers,
//          which processes below kReaderBits hold a read lock (a bit each: a
//          writer's wait for readers is then an edge of the wait-for graph)
// wg:      counter
// once:    state (0 not run, 1 running, 2 done)
// cond:    locker object, locker is the read lock (RLocker)
// context: cancelled, parent (-1 root), done channel, a timeout may cancel it
// var:     value
enum TimerState : int32_t { kTimerNone = 0, kTimerOnce = 1, kTimerTicker = 2, kTimerOff = 3 };
constexpr int32_t kHolderGone = -2;
constexpr int32_t kReaderBits = 31;
int32_t ReaderBit(int32_t p) { return p < kReaderBits ? int32_t{1} << p : 0; }

// Steps that touch nothing another process can see or change (their
// objects are new, their reads immutable): partial-order reduction takes
// one of them alone.
bool IsLocalKind(InstrKind k) {
  switch (k) {
    case InstrKind::kNop: case InstrKind::kJump: case InstrKind::kBranch: case InstrKind::kChoice:
    case InstrKind::kAssign: case InstrKind::kMakeChan: case InstrKind::kMakeMutex:
    case InstrKind::kMakeRWMutex: case InstrKind::kMakeWaitGroup: case InstrKind::kMakeOnce:
    case InstrKind::kMakeCond: case InstrKind::kMakeContext: case InstrKind::kCtxDone:
    case InstrKind::kMakeTimer: case InstrKind::kMakeVar: case InstrKind::kGo: case InstrKind::kEnd:
      return true;
    default:
      return false;
  }
}

uint64_t HashBytes(const uint8_t* s, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, s + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, s + i, n - i);
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 32;
  return h;
}

// A state as stored: each word in one byte when it is in -1..253 (almost
// all are: pcs, small counts, handles, -1 for nil), else 255 and its four
// bytes. The encoding is canonical, so equal states have equal bytes.
void Encode(const int32_t* s, int32_t n, std::vector<uint8_t>* out) {
  out->resize(static_cast<size_t>(n) * 5);
  uint8_t* o = out->data();
  for (int32_t i = 0; i < n; ++i) {
    const uint32_t v = static_cast<uint32_t>(s[i]) + 1;
    if (v < 255) {
      *o++ = static_cast<uint8_t>(v);
    } else {
      *o++ = 255;
      std::memcpy(o, &s[i], 4);  // little-endian, as Decode reads it
      o += 4;
    }
  }
  out->resize(o - out->data());
}

void Decode(const uint8_t* e, size_t n, std::vector<int32_t>* out) {
  out->clear();
  for (size_t i = 0; i < n; ++i) {
    if (e[i] != 255) {
      out->push_back(static_cast<int32_t>(e[i]) - 1);
      continue;
    }
    int32_t raw;
    std::memcpy(&raw, e + i + 1, 4);
    out->push_back(raw);
    i += 4;
  }
}

// The visited states: their encoded bytes in an arena of chunks, found through an
// open-addressing table whose entries hold the state's index and 32 bits
// of its hash, so a probe touches the arena only on a likely match.
class StateStore {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  StateStore() { table_.assign(1 << 12, kEmpty); }

  uint32_t size() const { return static_cast<uint32_t>(starts_.size()); }
  const uint8_t* Bytes(uint32_t i) const {
    const uint8_t* p = starts_[i];
    while (*p & 0x80) ++p;  // the length prefix
    return p + 1;
  }
  size_t Length(uint32_t i) const {
    const uint8_t* p = starts_[i];
    size_t n = 0;
    for (int shift = 0;; shift += 7, ++p) {
      n |= static_cast<size_t>(*p & 0x7f) << shift;
      if (!(*p & 0x80)) return n;
    }
  }
  void Get(uint32_t i, std::vector<int32_t>* out) const { Decode(Bytes(i), Length(i), out); }

  // Brings h's first table slot into the cache ahead of Find or Insert.
  void Prefetch(uint64_t h) const { __builtin_prefetch(&table_[h & (table_.size() - 1)]); }

  uint32_t Find(const uint8_t* e, size_t n, uint64_t h) const {
    const size_t mask = table_.size() - 1;
    const uint64_t tag = h >> 32;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const uint64_t x = table_[i];
      if (x == kEmpty) return kNone;
      if ((x >> 32) == tag && Equal(static_cast<uint32_t>(x), e, n)) return static_cast<uint32_t>(x);
    }
  }

  // The index of e, and whether it was new.
  std::pair<uint32_t, bool> Insert(const uint8_t* e, size_t n, uint64_t h) {
    const size_t mask = table_.size() - 1;
    const uint64_t tag = h >> 32;
    size_t i = h & mask;
    for (;; i = (i + 1) & mask) {
      const uint64_t x = table_[i];
      if (x == kEmpty) break;
      if ((x >> 32) == tag && Equal(static_cast<uint32_t>(x), e, n)) return {static_cast<uint32_t>(x), false};
    }
    const uint32_t idx = size();
    table_[i] = (tag << 32) | idx;
    low_hashes_.push_back(static_cast<uint32_t>(h));
    uint8_t prefix[10];
    size_t plen = 0;
    for (size_t v = n;; v >>= 7) {
      prefix[plen++] = static_cast<uint8_t>((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
      if (v < 0x80) break;
    }
    uint8_t* at = Allocate(plen + n);
    std::memcpy(at, prefix, plen);
    std::memcpy(at + plen, e, n);
    starts_.push_back(at);
    if (static_cast<size_t>(idx + 1) * 2 > table_.size()) Grow();
    return {idx, true};
  }

 private:
  static constexpr uint64_t kEmpty = UINT64_MAX;  // no state has index 2^32-1

  bool Equal(uint32_t x, const uint8_t* e, size_t n) const {
    return Length(x) == n && std::memcmp(Bytes(x), e, n) == 0;
  }
  // Doubles the table; positions come from the stored low hash bits.
  void Grow() {
    std::vector<uint64_t> t(table_.size() * 2, kEmpty);
    const size_t mask = t.size() - 1;
    for (uint64_t x : table_) {
      if (x == kEmpty) continue;
      size_t i = low_hashes_[static_cast<uint32_t>(x)] & mask;
      while (t[i] != kEmpty) i = (i + 1) & mask;
      t[i] = x;
    }
    table_.swap(t);
  }

  // Room for n bytes: states never move, and the arena grows a chunk at a
  // time (no doubling copy, so the peak is what is stored).
  uint8_t* Allocate(size_t n) {
    if (chunks_.empty() || used_ + n > chunk_size_) {
      chunk_size_ = std::max<size_t>(kChunk, n);
      chunks_.push_back(std::unique_ptr<uint8_t[]>(new uint8_t[chunk_size_]));  // untouched pages cost nothing
      used_ = 0;
    }
    uint8_t* at = chunks_.back().get() + used_;
    used_ += n;
    return at;
  }
  static constexpr size_t kChunk = size_t{8} << 20;

  // Each state: a LEB128 length, then its bytes.
  std::vector<std::unique_ptr<uint8_t[]>> chunks_;
  size_t used_ = 0, chunk_size_ = 0;
  std::vector<const uint8_t*> starts_;
  std::vector<uint64_t> table_;
  std::vector<uint32_t> low_hashes_;  // per state: where it goes in a table of up to 2^32 slots
};

// One step of a move: process p ran code[pc] of template t (case sc of a select).
struct MoveStep {
  int32_t p = -1, t = -1, pc = -1, sc = -1;
};

// One move of a state: one or two process steps (a rendezvous, a signal
// and the waiter it wakes), or an environment step on object env.
struct Move {
  MoveStep step[2];
  int32_t nsteps = 0;
  int32_t env = -1;
  uint32_t off = 0, len = 0;  // the successor in Explorer::succ_
};

// A violation seen while expanding a state: a panicking move, a process
// that locks a lock it holds, or a stuck state.
struct Bad {
  explicit Bad(FindingKind k, Primitive prim = Primitive::None) : kind(k), primitive(prim) {}
  FindingKind kind;
  Primitive primitive;
  Move move;                    // a panicking move's steps (nsteps 0 otherwise)
  std::vector<MoveStep> where;  // processes blocked forever
};

// Dead-variable reduction: which locals of each template are dead at each
// pc (no path from there reads them before writing them, where a read by
// an assignment to a dead local does not count). The step
// function sets them to -1, so states that differ only in values nobody
// reads again (a loop counter after its loop, an ok flag already tested, a
// handle no longer used) are one state.
class DeadLocals {
 public:
  DeadLocals(const Model& m, bool enabled) {
    dead_.resize(m.templates.size());
    if (!enabled) return;
    for (size_t t = 0; t < m.templates.size(); ++t) Compute(m.templates[t], &dead_[t]);
  }
  // The slots dead at pc of template t (none when disabled).
  const std::vector<int32_t>& At(int32_t t, int32_t pc) const {
    static const std::vector<int32_t> kNone;
    return dead_[t].empty() ? kNone : dead_[t][pc];
  }

 private:
  static void Reads(const Instr& in, std::vector<int32_t>* out) {
    for (const ExprNode& n : in.expr.nodes)
      if (n.op == ExprOp::kLocal) out->push_back(n.index);
    switch (in.kind) {
      case InstrKind::kMakeCond: case InstrKind::kCtxDone: case InstrKind::kLoadVar: out->push_back(in.b); break;
      case InstrKind::kStoreVar: out->push_back(in.a); break;
      case InstrKind::kMakeContext: if (in.b >= 0) out->push_back(in.b); break;
      case InstrKind::kCancel: case InstrKind::kStopTimer: case InstrKind::kSend: case InstrKind::kClose:
      case InstrKind::kRecv: case InstrKind::kLock: case InstrKind::kUnlock: case InstrKind::kRLock:
      case InstrKind::kRUnlock: case InstrKind::kTryLock: case InstrKind::kWgAdd: case InstrKind::kWgWait:
      case InstrKind::kOnceBegin: case InstrKind::kOnceEnd: case InstrKind::kCondWait:
      case InstrKind::kCondSignal: case InstrKind::kCondBroadcast:
        out->push_back(in.a);
        break;
      case InstrKind::kSelect:
        for (const SelectCase& c : in.cases) out->push_back(c.chan);
        break;
      case InstrKind::kGo:
        out->insert(out->end(), in.args.begin(), in.args.end());
        break;
      default: break;
    }
  }
  // Slots every completion of the instruction writes (a select's ok slots
  // are written by one case only: not counted).
  static void Writes(const Instr& in, std::vector<int32_t>* out) {
    switch (in.kind) {
      case InstrKind::kAssign: case InstrKind::kMakeChan: case InstrKind::kMakeMutex:
      case InstrKind::kMakeRWMutex: case InstrKind::kMakeWaitGroup: case InstrKind::kMakeOnce:
      case InstrKind::kMakeCond: case InstrKind::kMakeContext: case InstrKind::kCtxDone: case InstrKind::kMakeTimer:
      case InstrKind::kMakeVar: case InstrKind::kLoadVar:
        out->push_back(in.a);
        break;
      case InstrKind::kRecv: case InstrKind::kTryLock:
        if (in.b >= 0) out->push_back(in.b);
        break;
      default: break;
    }
  }
  static void Successors(const Instr& in, int32_t pc, std::vector<int32_t>* out) {
    switch (in.kind) {
      case InstrKind::kJump: out->push_back(in.a); break;
      case InstrKind::kBranch: out->push_back(in.a); out->push_back(in.b); break;
      case InstrKind::kChoice: *out = in.targets; break;
      case InstrKind::kSelect:
        for (const SelectCase& c : in.cases) out->push_back(c.target);
        if (in.a >= 0) out->push_back(in.a);
        break;
      case InstrKind::kOnceBegin: out->push_back(pc + 1); out->push_back(in.b); break;
      case InstrKind::kEnd: case InstrKind::kPanic: break;
      default: out->push_back(pc + 1); break;
    }
    if (in.recover >= 0) out->push_back(in.recover);
  }
  static void Compute(const Template& t, std::vector<std::vector<int32_t>>* dead) {
    const int32_t n = static_cast<int32_t>(t.code.size()), L = t.num_locals;
    if (L == 0) {
      dead->assign(n, {});
      return;
    }
    std::vector<std::vector<int32_t>> reads(n), writes(n), succ(n);
    for (int32_t pc = 0; pc < n; ++pc) {
      Reads(t.code[pc], &reads[pc]);
      Writes(t.code[pc], &writes[pc]);
      Successors(t.code[pc], pc, &succ[pc]);
    }
    std::vector<std::vector<uint8_t>> live(n, std::vector<uint8_t>(L, 0));
    std::vector<uint8_t> out(L);
    for (bool changed = true; changed;) {
      changed = false;
      for (int32_t pc = n - 1; pc >= 0; --pc) {
        std::fill(out.begin(), out.end(), 0);
        for (int32_t q : succ[pc])
          for (int32_t i = 0; i < L; ++i) out[i] |= live[q][i];
        // An assignment to a local that is dead after it reads nothing
        // (strong liveness): a counter that only feeds itself (n = n + 1
        // in a loop over data the model does not track) is then dead
        // throughout, and the loop is a few states, not a new state per
        // iteration up to max_depth (utf8.RuneCount in the GOROOT run).
        const Instr& in = t.code[pc];
        const bool faint = in.kind == InstrKind::kAssign && in.a >= 0 && in.a < L && !out[in.a];
        for (int32_t w : writes[pc]) out[w] = 0;
        if (!faint)
          for (int32_t r : reads[pc]) out[r] = 1;
        if (out != live[pc]) {
          live[pc] = out;
          changed = true;
        }
      }
    }
    dead->assign(n, {});
    for (int32_t pc = 0; pc < n; ++pc)
      for (int32_t i = 0; i < L; ++i)
        if (!live[pc][i]) (*dead)[pc].push_back(i);
  }

  std::vector<std::vector<std::vector<int32_t>>> dead_;  // [template][pc] -> slots
};

// The step function: all moves of one state.
class Explorer {
 public:
  // store and depths (each visited state's BFS depth) serve the cycle
  // proviso of partial-order reduction; null when not reducing.
  Explorer(const Model& m, const CheckOptions& o, const StateStore* store,
           const std::vector<int32_t>* depths = nullptr)
      : m_(m), o_(o), store_(store), depths_(depths), dead_(m, o.dead_variable_reduction) {}

  std::vector<int32_t> Initial() const {
    std::vector<int32_t> s = {1, 0, 0, 0, kRun};
    s.resize(s.size() + m_.templates[0].num_locals, -1);
    return s;
  }

  // Fills moves_, succ_ and bads_ with the moves of s. With por, the moves
  // of one process whose next step is local (an ample set), unless one of
  // them leads back to a visited state no deeper than s, depth: every cycle
  // of the reduced graph has such a back edge (depths cannot only grow
  // around a cycle), so every cycle keeps a fully expanded state and no
  // process is ignored forever (the cycle proviso, in its BFS form).
  // Otherwise every move.
  void Expand(const int32_t* s, int32_t n, bool por, int32_t depth = 0) {
    Parse(s, n);
    Clear();
    if (por) {
      // A go statement only when no other local step exists: a spawning
      // loop taken alone would otherwise grow the state forever while the
      // goroutines it started never run.
      int32_t p = -1;
      for (int32_t q = 0; q < nproc_; ++q) {
        if (!IsLocalAt(q)) continue;
        if (At(q).kind != InstrKind::kGo) { p = q; break; }
        if (p < 0) p = q;
      }
      if (p >= 0) {
        ExpandProc(p);
        bool ample = bads_.empty() && !cut_ && !moves_.empty();
        for (const Move& mv : moves_) {
          if (!ample) break;
          if (!store_) continue;
          Encode(succ_.data() + mv.off, static_cast<int32_t>(mv.len), &enc_);
          const uint32_t seen = store_->Find(enc_.data(), enc_.size(), HashBytes(enc_.data(), enc_.size()));
          if (seen != StateStore::kNone && (*depths_)[seen] <= depth) ample = false;
        }
        if (ample) return;
        Clear();
      }
    }
    for (int32_t p = 0; p < nproc_; ++p) ExpandProc(p);
    ExpandEnvironment();
  }

  // For a state with no moves: who is stuck and how it is reported.
  void Classify(const int32_t* s, int32_t n);

  const std::vector<Move>& moves() const { return moves_; }
  const std::vector<Bad>& bads() const { return bads_; }
  const int32_t* Succ(const Move& mv) const { return succ_.data() + mv.off; }
  bool cut() const { return cut_; }
  bool panics() const {
    return std::any_of(bads_.begin(), bads_.end(), [](const Bad& b) { return b.move.nsteps > 0; });
  }
  const std::string& cut_reason() const { return cut_reason_; }

  // The object step st of the current state's process operates on: its
  // index in the order the model made its objects, or -1 (no object, nil,
  // or a make: the report needs objects only to pair operations).
  int32_t ObjectOf(const MoveStep& st) const;

 private:
  // --- reading the current state s_ -------------------------------------
  void Parse(const int32_t* s, int32_t n) {
    s_ = s;
    n_ = n;
    nproc_ = s[0];
    nobj_ = s[1];
    off_.resize(nproc_);
    int32_t o = kHeader;
    for (int32_t p = 0; p < nproc_; ++p) {
      off_[p] = o;
      o += kProcHeader + (s[o] < 0 ? 0 : m_.templates[s[o]].num_locals);
    }
    obase_ = o;
  }
  void Clear() {
    moves_.clear();
    succ_.clear();
    bads_.clear();
    cut_ = false;
  }
  int32_t Tmpl(int32_t p) const { return s_[off_[p]]; }
  int32_t Pc(int32_t p) const { return s_[off_[p] + 1]; }
  int32_t St(int32_t p) const { return s_[off_[p] + 2]; }
  const int32_t* Locals(int32_t p) const { return s_ + off_[p] + kProcHeader; }
  const Instr& At(int32_t p) const { return m_.templates[Tmpl(p)].code[Pc(p)]; }
  int32_t Obj(int32_t o, int32_t f) const { return s_[obase_ + o * kObjSize + f]; }
  bool IsLocalAt(int32_t p) const { return St(p) == kRun && Tmpl(p) >= 0 && IsLocalKind(At(p).kind); }

  // The object in local `slot` of p: -1 for nil, -2 (after ModelError) when
  // it is not an object of kind `want` (0: any).
  int32_t Handle(int32_t p, int32_t slot, int32_t want) {
    const int32_t h = Locals(p)[slot];
    if (h == -1) return -1;
    if (h < 0 || h >= nobj_ || (want && Obj(h, 0) != want)) {
      ModelError(p, fmt::format("local l{} = {} is not a {} handle", slot, h, want == kOChan ? "channel" : "matching object"));
      return -2;
    }
    return h;
  }
  void ModelError(int32_t p, const std::string& what) {
    cut_ = true;
    if (cut_reason_.empty())
      cut_reason_ = fmt::format("model error at template {} pc {} ({}): {}", Tmpl(p), Pc(p),
                                InstrKindName(At(p).kind), what);
  }
  void Cut(const std::string& why) {
    cut_ = true;
    if (cut_reason_.empty()) cut_reason_ = why;
  }

  // Evaluates e over p's locals; false when e is unknown.
  bool Eval(const Expr& e, const int32_t* loc, int64_t* out) {
    if (e.Unknown()) return false;
    ev_.resize(e.nodes.size());
    for (size_t i = 0; i < e.nodes.size(); ++i) {
      const ExprNode& nd = e.nodes[i];
      const int64_t l = nd.lhs >= 0 ? ev_[nd.lhs] : 0, r = nd.rhs >= 0 ? ev_[nd.rhs] : 0;
      int64_t v = 0;
      switch (nd.op) {
        case ExprOp::kConst: v = nd.value; break;
        case ExprOp::kParam: v = params_[nd.index]; break;
        case ExprOp::kLocal: v = loc[nd.index]; break;
        case ExprOp::kAdd: v = l + r; break;
        case ExprOp::kSub: v = l - r; break;
        case ExprOp::kMul: v = l * r; break;
        case ExprOp::kDiv: v = r == 0 ? 0 : l / r; break;
        case ExprOp::kMod: v = r == 0 ? 0 : l % r; break;
        case ExprOp::kNeg: v = -l; break;
        case ExprOp::kLt: v = l < r; break;
        case ExprOp::kLe: v = l <= r; break;
        case ExprOp::kGt: v = l > r; break;
        case ExprOp::kGe: v = l >= r; break;
        case ExprOp::kEq: v = l == r; break;
        case ExprOp::kNe: v = l != r; break;
        case ExprOp::kAnd: v = l && r; break;
        case ExprOp::kOr: v = l || r; break;
        case ExprOp::kNot: v = !l; break;
        case ExprOp::kMin: v = std::min(l, r); break;
        case ExprOp::kMax: v = std::max(l, r); break;
      }
      ev_[i] = std::clamp<int64_t>(v, INT32_MIN / 2, INT32_MAX / 2);
    }
    *out = ev_.back();
    return true;
  }
  // The values a count may take: its value, or every unknown value.
  const std::vector<int64_t>& Counts(const Expr& e, const int32_t* loc) {
    int64_t v;
    if (Eval(e, loc, &v)) {
      one_.assign(1, v);
      return one_;
    }
    return o_.unknown_values;
  }

  // --- building a successor in w_ ---------------------------------------
  void Begin() { w_.assign(s_, s_ + n_); }
  int32_t& WP(int32_t p, int32_t f) { return w_[off_[p] + f]; }  // valid until a process is inserted
  int32_t& WL(int32_t p, int32_t slot) { return w_[off_[p] + kProcHeader + slot]; }
  int32_t& WO(int32_t o, int32_t f) { return w_[w_.size() - (w_[1] - o) * kObjSize + f]; }
  void Goto(int32_t p, int32_t pc) {
    WP(p, 1) = pc;
    WP(p, 2) = kRun;
  }
  void Next(int32_t p) { Goto(p, Pc(p) + 1); }
  // A new object at the end; its index, or -1 past max_objects.
  int32_t NewObj(int32_t kind, int32_t f1 = 0, int32_t f2 = 0, int32_t f3 = 0, int32_t f4 = 0) {
    if (w_[1] >= o_.max_objects) {
      Cut(fmt::format("more than {} objects (max_objects)", o_.max_objects));
      return -1;
    }
    const int32_t idx = w_[1]++;
    w_.insert(w_.end(), {kind, f1, f2, f3, f4, 0});
    return idx;
  }
  void CancelIn(int32_t ctx) {
    if (WO(ctx, 1)) return;
    WO(ctx, 1) = 1;
    WO(WO(ctx, 3), 3) = 1;  // its done channel closes
    // Descendants were made after their parents: one forward pass.
    for (int32_t o = ctx + 1; o < w_[1]; ++o) {
      if (WO(o, 0) == kOContext && !WO(o, 1) && WO(o, 2) >= 0 && WO(WO(o, 2), 1)) {
        WO(o, 1) = 1;
        WO(WO(o, 3), 3) = 1;
      }
    }
  }
  MoveStep StepOf(int32_t p, int32_t sc = -1) const { return MoveStep{p, Tmpl(p), Pc(p), sc}; }
  void Commit(MoveStep a, MoveStep b = {}, int32_t nsteps = 1) {
    Move mv;
    mv.step[0] = a;
    mv.step[1] = b;
    mv.nsteps = nsteps;
    ClearDeadLocals();
    mv.off = static_cast<uint32_t>(succ_.size());
    mv.len = static_cast<uint32_t>(w_.size());
    succ_.insert(succ_.end(), w_.begin(), w_.end());
    moves_.push_back(mv);
  }
  // Sets every process's dead locals in w_ to -1 (DeadLocals).
  void ClearDeadLocals() {
    int32_t o = kHeader;
    for (int32_t p = 0; p < w_[0]; ++p) {
      const int32_t t = w_[o];
      if (t < 0) {
        o += kProcHeader;
        continue;
      }
      for (int32_t slot : dead_.At(t, w_[o + 1])) w_[o + kProcHeader + slot] = -1;
      o += kProcHeader + m_.templates[t].num_locals;
    }
  }
  void Panic(FindingKind k, MoveStep a) {
    // A deferred recover() stops it: the process goes on at its function's
    // landing pad (Instr::recover). Unlock of an unlocked lock is a fatal
    // error in Go, which no recover stops.
    if (k != FindingKind::UnlockOfUnlocked && a.t >= 0 && a.pc >= 0) {
      const int32_t to = m_.templates[a.t].code[a.pc].recover;
      if (to >= 0) {
        Begin(); Goto(a.p, to); Commit(a);
        return;
      }
    }
    Bad b{k};
    b.move.step[0] = a;
    b.move.nsteps = 1;
    bads_.push_back(std::move(b));
  }

  // --- the moves of one process -------------------------------------------
  void ExpandProc(int32_t p);
  void ExpandSend(int32_t p, int32_t ch, int32_t sc, bool* ready);
  void ExpandEnvironment();
  // Lock acquisition shared by Lock and a Cond's relock; false when blocked.
  bool TryAcquire(int32_t p, int32_t lock, bool read);
  // Releases; false (and a violation) when the lock is not held.
  bool Release(int32_t p, int32_t lock, bool read);
  // Who p waits for on a lock (-1: no lock wait or nobody known).
  int32_t LockWaitsFor(int32_t p) const;
  Primitive BlockedOn(int32_t p) const;
  bool DoubleLocked(int32_t p) const;

  friend class gordian::verify::Stepper;  // reads the current state

  const Model& m_;
  const CheckOptions& o_;
  const StateStore* store_;
  const std::vector<int32_t>* depths_;
  const DeadLocals dead_;

 public:
  std::vector<int64_t> params_;

 private:
  const int32_t* s_ = nullptr;
  int32_t n_ = 0, nproc_ = 0, nobj_ = 0, obase_ = 0;
  std::vector<int32_t> off_;
  std::vector<int32_t> w_, rec_;
  std::vector<uint8_t> enc_;
  std::vector<int64_t> ev_, one_;
  std::vector<Move> moves_;
  std::vector<int32_t> succ_;
  std::vector<Bad> bads_;
  bool cut_ = false;
  std::string cut_reason_;
};

int32_t Explorer::ObjectOf(const MoveStep& st) const {
  if (st.p < 0 || st.p >= nproc_ || st.t < 0 || Tmpl(st.p) != st.t) return -1;
  const Instr& in = m_.templates[st.t].code[st.pc];
  int32_t slot = -1;
  switch (in.kind) {
    case InstrKind::kSend: case InstrKind::kRecv: case InstrKind::kClose:
    case InstrKind::kLock: case InstrKind::kUnlock: case InstrKind::kRLock: case InstrKind::kRUnlock:
    case InstrKind::kTryLock: case InstrKind::kWgAdd: case InstrKind::kWgWait:
    case InstrKind::kOnceBegin: case InstrKind::kOnceEnd: case InstrKind::kCondWait:
    case InstrKind::kCondSignal: case InstrKind::kCondBroadcast: case InstrKind::kCancel:
    case InstrKind::kStopTimer: case InstrKind::kStoreVar:
      slot = in.a;
      break;
    case InstrKind::kLoadVar:
      slot = in.b;
      break;
    case InstrKind::kSelect:
      if (st.sc >= 0 && st.sc < static_cast<int32_t>(in.cases.size())) slot = in.cases[st.sc].chan;
      break;
    default:
      return -1;
  }
  if (slot < 0 || slot >= m_.templates[st.t].num_locals) return -1;
  const int32_t h = Locals(st.p)[slot];
  return h >= 0 && h < nobj_ ? h : -1;
}

bool Explorer::TryAcquire(int32_t p, int32_t lock, bool read) {
  if (Obj(lock, 0) == kOMutex) {
    if (Obj(lock, 1) != -1) return false;
    WO(lock, 1) = p;
    return true;
  }
  if (read) {
    if (Obj(lock, 1) != -1) return false;
    WO(lock, 3) += 1;
    WO(lock, 4) |= ReaderBit(p);
    return true;
  }
  if (Obj(lock, 1) != -1 || Obj(lock, 3) != 0) return false;
  WO(lock, 1) = p;
  WO(lock, 2) = 1;
  return true;
}

bool Explorer::Release(int32_t p, int32_t lock, bool read) {
  if (Obj(lock, 0) == kOMutex) {
    if (Obj(lock, 1) == -1) return false;
    WO(lock, 1) = -1;
    return true;
  }
  if (read) {
    if (Obj(lock, 3) == 0) return false;
    WO(lock, 3) -= 1;
    WO(lock, 4) &= ~ReaderBit(p);
    return true;
  }
  if (!Obj(lock, 2)) return false;
  WO(lock, 1) = -1;
  WO(lock, 2) = 0;
  return true;
}

// The moves of p sending on ch (case sc of a select, or -1): a panic when
// closed, a buffered send, or a rendezvous with each receiver.
void Explorer::ExpandSend(int32_t p, int32_t ch, int32_t sc, bool* ready) {
  const Instr& in = At(p);
  auto after = [&](int32_t who) {
    if (sc >= 0) Goto(who, in.cases[sc].target);
    else Next(who);
  };
  if (Obj(ch, 3)) {
    Panic(FindingKind::SendOnClosed, StepOf(p, sc));
    *ready = true;
    return;
  }
  if (Obj(ch, 1) > 0) {
    if (Obj(ch, 2) < Obj(ch, 1)) {
      Begin();
      WO(ch, 2) += 1;
      after(p);
      Commit(StepOf(p, sc));
      *ready = true;
    }
    return;
  }
  for (int32_t q = 0; q < nproc_; ++q) {
    if (q == p || St(q) != kRun || Tmpl(q) < 0) continue;
    const Instr& qi = At(q);
    if (qi.kind == InstrKind::kRecv && Locals(q)[qi.a] == ch) {
      Begin();
      after(p);
      if (qi.b >= 0) WL(q, qi.b) = 1;
      Next(q);
      Commit(StepOf(p, sc), StepOf(q), 2);
    } else if (qi.kind == InstrKind::kSelect) {
      for (size_t i = 0; i < qi.cases.size(); ++i) {
        const SelectCase& c = qi.cases[i];
        if (c.send || Locals(q)[c.chan] != ch) continue;
        Begin();
        after(p);
        if (c.ok >= 0) WL(q, c.ok) = 1;
        Goto(q, c.target);
        Commit(StepOf(p, sc), StepOf(q, static_cast<int32_t>(i)), 2);
      }
    }
  }
}

void Explorer::ExpandProc(int32_t p) {
  if (Tmpl(p) < 0) return;
  const Instr& in = At(p);
  const int32_t* loc = Locals(p);
  const int32_t status = St(p);
  if (status == kRwWaitReaders) {
    const int32_t l = loc[in.a];
    if (Obj(l, 3) == 0) {
      Begin();
      WO(l, 2) = 1;
      Next(p);
      Commit(StepOf(p));
    }
    return;
  }
  if (status == kCondWaiting) return;  // Signal/Broadcast moves it
  if (status == kCondRelock) {
    const int32_t cond = loc[in.a];
    Begin();
    if (TryAcquire(p, Obj(cond, 1), Obj(cond, 2) == 1)) {
      Next(p);
      Commit(StepOf(p));
    }
    return;
  }
  if (status != kRun) return;

  int64_t v = 0;
  switch (in.kind) {
    case InstrKind::kNop:
      Begin(); Next(p); Commit(StepOf(p));
      return;
    case InstrKind::kJump:
      Begin(); Goto(p, in.a); Commit(StepOf(p));
      return;
    case InstrKind::kBranch:
      if (Eval(in.expr, loc, &v)) {
        Begin(); Goto(p, v ? in.a : in.b); Commit(StepOf(p));
      } else {
        Begin(); Goto(p, in.a); Commit(StepOf(p));
        if (in.b != in.a) { Begin(); Goto(p, in.b); Commit(StepOf(p)); }
      }
      return;
    case InstrKind::kChoice:
      for (int32_t t : in.targets) { Begin(); Goto(p, t); Commit(StepOf(p)); }
      return;
    case InstrKind::kAssign:
      for (int64_t x : Counts(in.expr, loc)) {
        Begin(); WL(p, in.a) = static_cast<int32_t>(std::clamp<int64_t>(x, INT32_MIN / 2, INT32_MAX / 2));
        Next(p); Commit(StepOf(p));
      }
      return;
    case InstrKind::kMakeChan:
      for (int64_t cap : Counts(in.expr, loc)) {
        if (cap < 0) { Panic(FindingKind::Panic, StepOf(p)); continue; }
        Begin();
        const int32_t o = NewObj(kOChan, static_cast<int32_t>(std::min<int64_t>(cap, INT32_MAX / 2)));
        if (o < 0) return;
        WL(p, in.a) = o; Next(p); Commit(StepOf(p));
      }
      return;
    case InstrKind::kMakeMutex: case InstrKind::kMakeRWMutex:
    case InstrKind::kMakeWaitGroup: case InstrKind::kMakeOnce: {
      const int32_t kind = in.kind == InstrKind::kMakeMutex ? kOMutex
                         : in.kind == InstrKind::kMakeRWMutex ? kORWMutex
                         : in.kind == InstrKind::kMakeWaitGroup ? kOWaitGroup : kOOnce;
      Begin();
      const int32_t o = kind == kOMutex || kind == kORWMutex ? NewObj(kind, -1) : NewObj(kind);
      if (o < 0) return;
      WL(p, in.a) = o; Next(p); Commit(StepOf(p));
      return;
    }
    case InstrKind::kMakeCond: {
      const int32_t l = Handle(p, in.b, 0);
      if (l == -2) return;
      if (l >= 0 && Obj(l, 0) != kOMutex && Obj(l, 0) != kORWMutex) {
        ModelError(p, "a Cond's locker is not a lock");
        return;
      }
      Begin();
      const int32_t o = NewObj(kOCond, l, in.c == 1);
      if (o < 0) return;
      WL(p, in.a) = o; Next(p); Commit(StepOf(p));
      return;
    }
    case InstrKind::kMakeContext: {
      const int32_t parent = in.b >= 0 ? Handle(p, in.b, kOContext) : -1;
      if (parent == -2) return;
      const bool cancelled = parent >= 0 && Obj(parent, 1);
      Begin();
      const int32_t done = NewObj(kOChan, 0, 0, cancelled);
      if (done < 0) return;
      const int32_t o = NewObj(kOContext, cancelled, parent, done, in.c == 1);
      if (o < 0) return;
      WL(p, in.a) = o; Next(p); Commit(StepOf(p));
      return;
    }
    case InstrKind::kCtxDone: {
      const int32_t c = Handle(p, in.b, kOContext);
      if (c == -2) return;
      if (c == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
      Begin(); WL(p, in.a) = Obj(c, 3); Next(p); Commit(StepOf(p));
      return;
    }
    case InstrKind::kCancel: {
      const int32_t c = Handle(p, in.a, kOContext);
      if (c == -2) return;
      if (c == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
      Begin(); CancelIn(c); Next(p); Commit(StepOf(p));
      return;
    }
    case InstrKind::kMakeTimer: {
      Begin();
      const int32_t o = NewObj(kOChan, 1, 0, 0, in.c == 1 ? kTimerTicker : kTimerOnce);
      if (o < 0) return;
      WL(p, in.a) = o; Next(p); Commit(StepOf(p));
      return;
    }
    case InstrKind::kStopTimer: {
      const int32_t t = Handle(p, in.a, kOChan);
      if (t == -2) return;
      if (t == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
      Begin();
      if (Obj(t, 4) == kTimerOnce || Obj(t, 4) == kTimerTicker) WO(t, 4) = kTimerOff;
      Next(p); Commit(StepOf(p));
      return;
    }
    case InstrKind::kSend: {
      const int32_t ch = Handle(p, in.a, kOChan);
      if (ch < 0) return;  // nil: blocks forever
      bool ready = false;
      ExpandSend(p, ch, -1, &ready);
      return;
    }
    case InstrKind::kRecv: {
      const int32_t ch = Handle(p, in.a, kOChan);
      if (ch < 0) return;
      if (Obj(ch, 2) > 0 || Obj(ch, 3)) {
        const bool got = Obj(ch, 2) > 0;
        Begin();
        if (got) WO(ch, 2) -= 1;
        if (in.b >= 0) WL(p, in.b) = got;
        Next(p); Commit(StepOf(p));
      }
      return;  // unbuffered rendezvous: made from the sender's side
    }
    case InstrKind::kClose: {
      const int32_t ch = Handle(p, in.a, kOChan);
      if (ch == -2) return;
      if (ch == -1) { Panic(FindingKind::CloseOfNil, StepOf(p)); return; }
      if (Obj(ch, 3)) { Panic(FindingKind::CloseOfClosed, StepOf(p)); return; }
      Begin(); WO(ch, 3) = 1; Next(p); Commit(StepOf(p));
      return;
    }
    case InstrKind::kSelect: {
      bool ready = false;
      for (size_t i = 0; i < in.cases.size(); ++i) {
        const SelectCase& c = in.cases[i];
        const int32_t ch = Handle(p, c.chan, kOChan);
        if (ch == -2) return;
        if (ch == -1) continue;
        const int32_t sc = static_cast<int32_t>(i);
        if (c.send) {
          ExpandSend(p, ch, sc, &ready);
        } else if (Obj(ch, 2) > 0 || Obj(ch, 3)) {
          const bool got = Obj(ch, 2) > 0;
          Begin();
          if (got) WO(ch, 2) -= 1;
          if (c.ok >= 0) WL(p, c.ok) = got;
          Goto(p, c.target);
          Commit(StepOf(p, sc));
          ready = true;
        }
        // A partner at its unbuffered send does not make the case ready:
        // nothing tells whether it already waits in the channel's queue or
        // has not got there yet, so the default stays possible (Go's
        // select sees only queued partners).
      }
      if (!ready && in.a >= 0) { Begin(); Goto(p, in.a); Commit(StepOf(p, -1)); }
      return;
    }
    case InstrKind::kLock: case InstrKind::kRLock: {
      const int32_t l = Handle(p, in.a, 0);
      if (l == -2) return;
      if (l == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
      const int32_t kind = Obj(l, 0);
      const bool read = in.kind == InstrKind::kRLock;
      if (kind != kOMutex && kind != kORWMutex) { ModelError(p, "Lock of a non-lock"); return; }
      if (read && kind != kORWMutex) { ModelError(p, "RLock of a Mutex"); return; }
      if (DoubleLocked(p)) {
        Bad b{FindingKind::DoubleLock, kind == kOMutex ? Primitive::Mutex : Primitive::RWMutex};
        b.where.push_back(StepOf(p));
        bads_.push_back(std::move(b));
        return;
      }
      Begin();
      if (TryAcquire(p, l, read)) {
        Next(p); Commit(StepOf(p));
      } else if (kind == kORWMutex && !read && Obj(l, 1) == -1) {
        // Readers hold it: announce (new readers now wait), then wait for them.
        WO(l, 1) = p;
        WP(p, 2) = kRwWaitReaders;
        Commit(StepOf(p));
      }
      return;
    }
    case InstrKind::kUnlock: case InstrKind::kRUnlock: {
      const int32_t l = Handle(p, in.a, 0);
      if (l == -2) return;
      if (l == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
      const int32_t kind = Obj(l, 0);
      const bool read = in.kind == InstrKind::kRUnlock;
      if (kind != kOMutex && kind != kORWMutex) { ModelError(p, "Unlock of a non-lock"); return; }
      if (read && kind != kORWMutex) { ModelError(p, "RUnlock of a Mutex"); return; }
      Begin();
      if (!Release(p, l, read)) { Panic(FindingKind::UnlockOfUnlocked, StepOf(p)); return; }
      Next(p); Commit(StepOf(p));
      return;
    }
    case InstrKind::kTryLock: {
      const int32_t l = Handle(p, in.a, 0);
      if (l == -2) return;
      if (l == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
      const bool read = in.c == 1;
      if (Obj(l, 0) != kOMutex && Obj(l, 0) != kORWMutex) { ModelError(p, "TryLock of a non-lock"); return; }
      if (read && Obj(l, 0) != kORWMutex) { ModelError(p, "TryRLock of a Mutex"); return; }
      Begin();
      WL(p, in.b) = TryAcquire(p, l, read);
      Next(p); Commit(StepOf(p));
      return;
    }
    case InstrKind::kWgAdd: {
      const int32_t wg = Handle(p, in.a, kOWaitGroup);
      if (wg == -2) return;
      if (wg == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
      for (int64_t d : Counts(in.expr, loc)) {
        const int64_t c = Obj(wg, 1) + d;
        if (c < 0) { Panic(FindingKind::NegativeWaitGroup, StepOf(p)); continue; }
        Begin(); WO(wg, 1) = static_cast<int32_t>(std::min<int64_t>(c, INT32_MAX / 2)); Next(p); Commit(StepOf(p));
      }
      return;
    }
    case InstrKind::kWgWait: {
      const int32_t wg = Handle(p, in.a, kOWaitGroup);
      if (wg == -2) return;
      if (wg == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
      if (Obj(wg, 1) == 0) { Begin(); Next(p); Commit(StepOf(p)); }
      return;
    }
    case InstrKind::kMakeVar:
      for (int64_t x : Counts(in.expr, loc)) {
        Begin();
        const int32_t o = NewObj(kOVar, static_cast<int32_t>(std::clamp<int64_t>(x, INT32_MIN / 2, INT32_MAX / 2)));
        if (o < 0) return;
        WL(p, in.a) = o; Next(p); Commit(StepOf(p));
      }
      return;
    case InstrKind::kLoadVar: {
      const int32_t var = Handle(p, in.b, kOVar);
      if (var == -2) return;
      if (var == -1) { ModelError(p, "load of a nil variable"); return; }
      Begin(); WL(p, in.a) = Obj(var, 1); Next(p); Commit(StepOf(p));
      return;
    }
    case InstrKind::kStoreVar: {
      const int32_t var = Handle(p, in.a, kOVar);
      if (var == -2) return;
      if (var == -1) { ModelError(p, "store to a nil variable"); return; }
      for (int64_t x : Counts(in.expr, loc)) {
        Begin(); WO(var, 1) = static_cast<int32_t>(std::clamp<int64_t>(x, INT32_MIN / 2, INT32_MAX / 2));
        Next(p); Commit(StepOf(p));
      }
      return;
    }
    case InstrKind::kOnceBegin: case InstrKind::kOnceEnd: {
      const int32_t once = Handle(p, in.a, kOOnce);
      if (once == -2) return;
      if (once == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
      Begin();
      if (in.kind == InstrKind::kOnceEnd) { WO(once, 1) = 2; Next(p); Commit(StepOf(p)); return; }
      if (Obj(once, 1) == 2) { Goto(p, in.b); Commit(StepOf(p)); }
      else if (Obj(once, 1) == 0) { WO(once, 1) = 1; Next(p); Commit(StepOf(p)); }
      return;  // 1: another process runs it
    }
    case InstrKind::kCondWait: {
      const int32_t cond = Handle(p, in.a, kOCond);
      if (cond == -2) return;
      if (cond == -1 || Obj(cond, 1) < 0) { Panic(FindingKind::Panic, StepOf(p)); return; }
      Begin();
      if (!Release(p, Obj(cond, 1), Obj(cond, 2) == 1)) { Panic(FindingKind::UnlockOfUnlocked, StepOf(p)); return; }
      WP(p, 2) = kCondWaiting;
      Commit(StepOf(p));
      return;
    }
    case InstrKind::kCondSignal: case InstrKind::kCondBroadcast: {
      const int32_t cond = Handle(p, in.a, kOCond);
      if (cond == -2) return;
      if (cond == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
      bool any = false;
      if (in.kind == InstrKind::kCondBroadcast) Begin();
      for (int32_t q = 0; q < nproc_; ++q) {
        if (St(q) != kCondWaiting || Locals(q)[At(q).a] != cond) continue;
        any = true;
        if (in.kind == InstrKind::kCondSignal) {
          Begin(); WP(q, 2) = kCondRelock; Next(p); Commit(StepOf(p), StepOf(q), 2);
        } else {
          WP(q, 2) = kCondRelock;
        }
      }
      if (in.kind == InstrKind::kCondBroadcast) { Next(p); Commit(StepOf(p)); }
      else if (!any) { Begin(); Next(p); Commit(StepOf(p)); }
      return;
    }
    case InstrKind::kGo: {
      const Template& callee = m_.templates[in.b];
      // The new process takes the first ended process's place (not 0's).
      int32_t slot = -1, live = 0;
      for (int32_t q = 0; q < nproc_; ++q) {
        if (Tmpl(q) >= 0) ++live;
        else if (q > 0 && slot < 0) slot = q;
      }
      if (live >= o_.max_processes) {
        Cut(fmt::format("more than {} live processes (max_processes)", o_.max_processes));
        return;
      }
      rec_.assign(kProcHeader + callee.num_locals, -1);
      rec_[0] = in.b;
      rec_[1] = 0;
      rec_[2] = kRun;
      for (size_t i = 0; i < in.args.size(); ++i) rec_[kProcHeader + i] = loc[in.args[i]];
      Begin();
      Next(p);
      int32_t at;
      if (slot >= 0) {
        at = off_[slot];
        w_.erase(w_.begin() + at, w_.begin() + at + kProcHeader);  // an ended record has no locals
      } else {
        at = obase_;
        w_[0] += 1;
      }
      w_.insert(w_.begin() + at, rec_.begin(), rec_.end());
      Commit(StepOf(p));
      return;
    }
    case InstrKind::kPanic:
      Panic(FindingKind::Panic, StepOf(p));
      return;
    case InstrKind::kEnd: {
      Begin();
      // Locks it still holds stay held, by nobody that can lock again.
      for (int32_t o = 0; o < nobj_; ++o) {
        const int32_t k = Obj(o, 0);
        if ((k == kOMutex || k == kORWMutex) && Obj(o, 1) == p) WO(o, 1) = kHolderGone;
        if (k == kORWMutex) WO(o, 4) &= ~ReaderBit(p);
      }
      const int32_t at = off_[p];
      w_.erase(w_.begin() + at + kProcHeader, w_.begin() + at + kProcHeader + m_.templates[Tmpl(p)].num_locals);
      w_[at] = -1;
      w_[at + 1] = 0;
      w_[at + 2] = kEnded;
      Commit(StepOf(p));
      return;
    }
    case InstrKind::kCall:
      ModelError(p, "call is not run by the checker");
      return;
  }
}

void Explorer::ExpandEnvironment() {
  for (int32_t o = 0; o < nobj_; ++o) {
    const int32_t kind = Obj(o, 0);
    const bool timer = kind == kOChan && (Obj(o, 4) == kTimerOnce || Obj(o, 4) == kTimerTicker) &&
                       Obj(o, 2) < Obj(o, 1);
    const bool timeout = kind == kOContext && Obj(o, 4) && !Obj(o, 1);
    if (!timer && !timeout) continue;
    Begin();
    if (timer) {
      WO(o, 2) += 1;
      if (Obj(o, 4) == kTimerOnce) WO(o, 4) = kTimerOff;
    } else {
      CancelIn(o);
    }
    Commit(MoveStep{}, MoveStep{}, 0);
    moves_.back().env = o;
  }
}

bool Explorer::DoubleLocked(int32_t p) const {
  if (St(p) != kRun || Tmpl(p) < 0) return false;
  const Instr& in = At(p);
  if (in.kind != InstrKind::kLock && in.kind != InstrKind::kRLock) return false;
  const int32_t l = Locals(p)[in.a];
  if (l < 0 || l >= nobj_) return false;
  if (Obj(l, 0) == kOMutex) return Obj(l, 1) == p;
  if (Obj(l, 0) == kORWMutex) {
    // Lock by a reader of the same RWMutex (an upgrade): the writer waits
    // for every reader, itself among them, so it never gets the lock.
    if (in.kind == InstrKind::kLock && Obj(l, 3) > 0 && (Obj(l, 4) & ReaderBit(p))) return true;
    return Obj(l, 1) == p && (in.kind == InstrKind::kLock || Obj(l, 2));
  }
  return false;
}

int32_t Explorer::LockWaitsFor(int32_t p) const {
  const Instr& in = At(p);
  if (St(p) == kRwWaitReaders) {
    // The writer waits for every reader; the first known one is its edge.
    const int32_t mask = Obj(Locals(p)[in.a], 4) & ~ReaderBit(p);
    for (int32_t q = 0; q < std::min(nproc_, kReaderBits); ++q)
      if (mask & ReaderBit(q)) return q;
    return -1;
  }
  int32_t l = -1;
  if (St(p) == kCondRelock) {
    l = Obj(Locals(p)[in.a], 1);
  } else if (St(p) == kRun && (in.kind == InstrKind::kLock || in.kind == InstrKind::kRLock)) {
    l = Locals(p)[in.a];
  }
  if (l < 0 || l >= nobj_) return -1;
  const int32_t holder = Obj(l, 1);
  return holder >= 0 && holder != p ? holder : -1;
}

Primitive Explorer::BlockedOn(int32_t p) const {
  const Instr& in = At(p);
  auto lock_kind = [&](int32_t l) {
    return l >= 0 && l < nobj_ && Obj(l, 0) == kORWMutex ? Primitive::RWMutex : Primitive::Mutex;
  };
  switch (St(p)) {
    case kRwWaitReaders: return Primitive::RWMutex;
    case kCondWaiting: return Primitive::Cond;
    case kCondRelock: return lock_kind(Obj(Locals(p)[in.a], 1));
    default: break;
  }
  switch (in.kind) {
    case InstrKind::kSend: return Locals(p)[in.a] < 0 ? Primitive::NilChan : Primitive::ChanSend;
    case InstrKind::kRecv: return Locals(p)[in.a] < 0 ? Primitive::NilChan : Primitive::ChanRecv;
    case InstrKind::kSelect: return Primitive::Select;
    case InstrKind::kLock: case InstrKind::kRLock: return lock_kind(Locals(p)[in.a]);
    case InstrKind::kWgWait: return Primitive::WaitGroup;
    case InstrKind::kOnceBegin: return Primitive::Mutex;  // sync.Once waits on its mutex
    default: return Primitive::None;
  }
}

void Explorer::Classify(const int32_t* s, int32_t n) {
  Parse(s, n);
  std::vector<int32_t> blocked;
  for (int32_t p = 0; p < nproc_; ++p) {
    if (Tmpl(p) < 0 || m_.templates[Tmpl(p)].environment || DoubleLocked(p)) continue;
    blocked.push_back(p);
  }
  if (blocked.empty()) return;
  auto blocked_step = [&](int32_t p) { return StepOf(p); };
  // A cycle of processes each waiting for a lock the next holds.
  for (int32_t p : blocked) {
    int32_t q = p;
    std::vector<int32_t> chain;
    for (int32_t i = 0; i <= nproc_ && q >= 0; ++i) {
      chain.push_back(q);
      q = LockWaitsFor(q);
      if (q == p) {
        Bad b{FindingKind::LockOrderDeadlock, BlockedOn(p)};
        for (int32_t c : chain) b.where.push_back(blocked_step(c));
        // A reader that read-locks again behind a waiting writer (Go's
        // RWMutex lets no new reader past an announced writer): a
        // recursive read lock, reported as a double lock.
        if (chain.size() == 2) {
          for (int32_t c : chain) {
            const int32_t other = c == chain[0] ? chain[1] : chain[0];
            if (St(c) == kRun && At(c).kind == InstrKind::kRLock && St(other) == kRwWaitReaders &&
                Locals(c)[At(c).a] == Locals(other)[At(other).a]) {
              b = Bad{FindingKind::DoubleLock, Primitive::RWMutex};
              b.where = {blocked_step(c), blocked_step(other)};
            }
          }
        }
        bads_.push_back(std::move(b));
        return;
      }
    }
  }
  // A process waits for a lock whose holder waits on a channel (or a
  // WaitGroup, a Cond): the holder's partner cannot come.
  for (int32_t p : blocked) {
    const int32_t h = LockWaitsFor(p);
    if (h < 0 || Tmpl(h) < 0) continue;
    const Primitive hp = BlockedOn(h);
    if (hp == Primitive::Mutex || hp == Primitive::RWMutex || hp == Primitive::None) continue;
    Bad b{FindingKind::MixedDeadlock, hp};
    b.where = {blocked_step(h), blocked_step(p)};
    bads_.push_back(std::move(b));
    return;
  }
  if (Tmpl(0) < 0) {
    for (int32_t p : blocked) {
      Bad b{FindingKind::GoroutineLeak, BlockedOn(p)};
      b.where.push_back(blocked_step(p));
      bads_.push_back(std::move(b));
    }
    return;
  }
  Bad b{FindingKind::GlobalDeadlock, Primitive::None};
  for (int32_t p : blocked) b.where.push_back(blocked_step(p));
  bads_.push_back(std::move(b));
}

// --- the search --------------------------------------------------------

// `at` is an explorer positioned at the state the step is taken from.
CheckStep ToStep(const MoveStep& s, bool blocks, const Explorer& at) {
  CheckStep c;
  c.process = s.p;
  c.template_index = s.t;
  c.pc = s.pc;
  c.select_case = s.sc;
  c.blocks = blocks;
  c.object = at.ObjectOf(s);
  return c;
}

void AppendMove(const Move& mv, const Explorer& at, std::vector<CheckStep>* out) {
  if (mv.env >= 0) {
    CheckStep c;
    c.process = c.template_index = c.pc = -1;
    c.object = mv.env;
    out->push_back(c);
    return;
  }
  for (int32_t i = 0; i < mv.nsteps; ++i) out->push_back(ToStep(mv.step[i], false, at));
}

// The violating positions: the panicking step, or each stuck process.
std::vector<MoveStep> Positions(const Bad& b) {
  std::vector<MoveStep> pos;
  if (b.move.nsteps > 0) pos.push_back(b.move.step[0]);
  for (const MoveStep& w : b.where) pos.push_back(w);
  return pos;
}

// The identity of a violation: its kind and its sorted distinct positions.
std::string KeyOf(const Bad& b) {
  std::vector<std::pair<int32_t, int32_t>> pos;
  for (const MoveStep& s : Positions(b)) pos.emplace_back(s.t, s.pc);
  std::sort(pos.begin(), pos.end());
  pos.erase(std::unique(pos.begin(), pos.end()), pos.end());
  std::string key(report::KindName(b.kind));
  for (auto [t, pc] : pos) key += fmt::format(" {}:{}", t, pc);
  return key;
}

uint64_t KeyHash(const Bad& b) {
  // Cheap identity for the hot loop (KeyOf only for new ones): order-free.
  uint64_t h = static_cast<uint64_t>(b.kind) * 0x9E3779B97F4A7C15ull;
  for (const MoveStep& s : Positions(b)) {
    uint64_t x = (static_cast<uint64_t>(static_cast<uint32_t>(s.t)) << 32) | static_cast<uint32_t>(s.pc);
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 31;
    h += x * 0xc4ceb9fe1a85ec53ull;
  }
  return h;
}

// `at` is the explorer positioned at the state b was seen in.
Violation MakeViolation(const Bad& b, std::vector<CheckStep> path, const Explorer& at) {
  Violation v;
  v.kind = b.kind;
  v.primitive = b.primitive;
  if (b.move.nsteps > 0) {
    v.where.push_back(ToStep(b.move.step[0], false, at));
    AppendMove(b.move, at, &path);
  }
  for (const MoveStep& w : b.where) {
    v.where.push_back(ToStep(w, true, at));
    path.push_back(ToStep(w, true, at));
  }
  v.steps = std::move(path);
  v.key = KeyOf(b);
  return v;
}

bool Prepare(const Model& m, const CheckOptions& o, std::vector<int64_t>* params, std::string* error) {
  std::string err;
  if (!Validate(m, &err)) {
    *error = "invalid model: " + err;
    return false;
  }
  if (o.param_values.size() != m.params.size()) {
    *error = fmt::format("the model has {} parameters but {} values were given", m.params.size(),
                         o.param_values.size());
    return false;
  }
  if (o.unknown_values.empty()) {
    *error = "CheckOptions::unknown_values is empty";
    return false;
  }
  *params = o.param_values;
  return true;
}

}  // namespace

CheckResult Check(const Model& m, const CheckOptions& opts) {
  CheckResult r;
  StateStore store;
  // Per state only its parent and depth: the move that made it is found
  // again (by re-expanding the parent) for the few states on a
  // counterexample's path.
  std::vector<uint32_t> parents;
  std::vector<int32_t> depths;
  Explorer ex(m, opts, &store, &depths);
  std::string err;
  if (!Prepare(m, opts, &ex.params_, &err)) {
    r.bounded = true;
    r.bound_reason = err;
    return r;
  }
  std::unordered_set<uint64_t> seen_bads;
  auto bound = [&](const std::string& why) {
    if (!r.bounded) r.bound_reason = why;
    r.bounded = true;
  };
  Explorer tracer(m, opts, nullptr);
  tracer.params_ = ex.params_;
  std::vector<int32_t> parent_state;
  std::vector<uint8_t> enc;
  auto path_to = [&](uint32_t s) {
    std::vector<uint32_t> chain;
    for (uint32_t x = s; parents[x] != StateStore::kNone; x = parents[x]) chain.push_back(x);
    std::vector<CheckStep> path;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const uint32_t child = *it;
      store.Get(parents[child], &parent_state);
      tracer.Expand(parent_state.data(), static_cast<int32_t>(parent_state.size()), false);
      for (const Move& mv : tracer.moves()) {
        Encode(tracer.Succ(mv), static_cast<int32_t>(mv.len), &enc);
        if (enc.size() == store.Length(child) && std::memcmp(enc.data(), store.Bytes(child), enc.size()) == 0) {
          AppendMove(mv, tracer, &path);
          break;
        }
      }
    }
    return path;
  };
  auto note_bads = [&](const std::vector<Bad>& bads, uint32_t s) {
    for (const Bad& b : bads) {
      if (seen_bads.count(KeyHash(b))) continue;
      Violation v = MakeViolation(b, path_to(s), ex);
      if (opts.reject && opts.reject(v)) continue;  // disallowed: look for the next one
      seen_bads.insert(KeyHash(b));
      r.violations.push_back(std::move(v));
    }
  };

  std::vector<int32_t> cur_state = ex.Initial();
  Encode(cur_state.data(), static_cast<int32_t>(cur_state.size()), &enc);
  store.Insert(enc.data(), enc.size(), HashBytes(enc.data(), enc.size()));
  parents.push_back(StateStore::kNone);
  depths.push_back(0);
  // The successors of one state, encoded, so their table slots can be
  // prefetched before any is inserted.
  std::vector<uint8_t> batch;
  std::vector<size_t> batch_off;
  std::vector<uint64_t> batch_hash;
  bool full = false;
  for (uint32_t cur = 0; cur < store.size() && !full; ++cur) {
    if ((cur & 63) == 63 && opts.deadline != std::chrono::steady_clock::time_point::max() &&
        std::chrono::steady_clock::now() >= opts.deadline) {
      bound(fmt::format("the wall budget ran out after {} states", store.size()));
      r.out_of_time = true;
      break;
    }
    if (depths[cur] >= opts.max_depth) {
      bound(fmt::format("a path longer than {} steps (max_depth)", opts.max_depth));
      continue;
    }
    store.Get(cur, &cur_state);
    const int32_t n = static_cast<int32_t>(cur_state.size());
    ex.Expand(cur_state.data(), n, opts.partial_order_reduction, depths[cur]);
    if (ex.cut()) bound(ex.cut_reason());
    if (!ex.bads().empty()) note_bads(ex.bads(), cur);
    if (ex.moves().empty()) {
      // Stuck, unless a limit cut a move or a process panics here.
      if (!ex.cut() && !ex.panics()) {
        ex.Classify(cur_state.data(), n);
        if (!ex.bads().empty()) note_bads(ex.bads(), cur);
      }
      continue;
    }
    const int32_t depth = depths[cur] + 1;
    batch.clear();
    batch_off.assign(1, 0);
    batch_hash.clear();
    for (const Move& mv : ex.moves()) {
      Encode(ex.Succ(mv), static_cast<int32_t>(mv.len), &enc);
      batch.insert(batch.end(), enc.begin(), enc.end());
      batch_off.push_back(batch.size());
      batch_hash.push_back(HashBytes(enc.data(), enc.size()));
      store.Prefetch(batch_hash.back());
    }
    for (size_t k = 0; k < batch_hash.size(); ++k) {
      ++r.transitions;
      const auto [at, fresh] = store.Insert(batch.data() + batch_off[k], batch_off[k + 1] - batch_off[k], batch_hash[k]);
      if (!fresh) {
        if (depths[at] <= depths[cur]) r.may_cycle = true;
        continue;
      }
      parents.push_back(cur);
      depths.push_back(depth);
      if (store.size() >= opts.max_states) {
        bound(fmt::format("more than {} states (max_states)", opts.max_states));
        r.out_of_states = true;
        full = true;
        break;
      }
    }
  }
  r.states = store.size();
  return r;
}

// --- the step function for other searches (Stepper, checker.h) ------------

struct Stepper::Impl {
  Impl(const Model& m, const CheckOptions& o) : ex(m, o, nullptr) {}
  Explorer ex;
  std::string error;
};

Stepper::Stepper(const Model& m, const CheckOptions& opts) : impl_(std::make_unique<Impl>(m, opts)) {
  Prepare(m, opts, &impl_->ex.params_, &impl_->error);
}
Stepper::~Stepper() = default;
bool Stepper::ok(std::string* error) const {
  if (error) *error = impl_->error;
  return impl_->error.empty();
}
std::vector<int32_t> Stepper::Initial() const { return impl_->ex.Initial(); }
void Stepper::Expand(const int32_t* s, int32_t n) { impl_->ex.Expand(s, n, false); }
size_t Stepper::NumMoves() const { return impl_->ex.moves().size(); }
const int32_t* Stepper::Succ(size_t i, int32_t* len) const {
  const Move& mv = impl_->ex.moves()[i];
  *len = static_cast<int32_t>(mv.len);
  return impl_->ex.Succ(mv);
}
void Stepper::Steps(size_t i, std::vector<CheckStep>* out) const {
  out->clear();
  AppendMove(impl_->ex.moves()[i], impl_->ex, out);
}
int32_t Stepper::PcAfter(size_t i, int32_t p) const {
  int32_t len = 0;
  const int32_t* w = Succ(i, &len);
  int32_t o = kHeader;
  for (int32_t q = 0; q < w[0]; ++q) {
    if (q == p) return w[o] < 0 ? -1 : w[o + 1];
    o += kProcHeader + (w[o] < 0 ? 0 : impl_->ex.m_.templates[w[o]].num_locals);
  }
  return -1;
}
bool Stepper::Cut(std::string* why) const {
  if (impl_->ex.cut() && why) *why = impl_->ex.cut_reason();
  return impl_->ex.cut();
}
int32_t Stepper::NumProcesses() const { return impl_->ex.nproc_; }
bool Stepper::Panics(int32_t p) const {
  for (const Bad& b : impl_->ex.bads())
    if (b.move.nsteps > 0 && b.move.step[0].p == p) return true;
  return false;
}
bool Stepper::Live(int32_t p) const {
  const Explorer& ex = impl_->ex;
  return p >= 0 && p < ex.nproc_ && ex.Tmpl(p) >= 0 && !ex.m_.templates[ex.Tmpl(p)].environment;
}
CheckStep Stepper::BlockedStep(int32_t p, report::Primitive* on) const {
  const Explorer& ex = impl_->ex;
  *on = ex.BlockedOn(p);
  return ToStep(ex.StepOf(p), true, ex);
}
int32_t Stepper::NumObjects() const { return impl_->ex.nobj_; }
int32_t Stepper::BufferedCount(int32_t o) const {
  const Explorer& ex = impl_->ex;
  if (o < 0 || o >= ex.nobj_ || ex.Obj(o, 0) != kOChan || ex.Obj(o, 1) <= 0 || ex.Obj(o, 4) != kTimerNone) return -1;
  return ex.Obj(o, 2);
}

bool Replay(const Model& m, const CheckOptions& opts, const Violation& v, std::string* why) {
  Explorer ex(m, opts, nullptr);
  std::string err;
  if (!Prepare(m, opts, &ex.params_, &err)) {
    *why = err;
    return false;
  }
  auto same = [](const MoveStep& a, const CheckStep& b) {
    return a.p == b.process && a.t == b.template_index && a.pc == b.pc && a.sc == b.select_case && !b.blocks;
  };
  auto matches = [&](const Move& mv, size_t i) {
    if (mv.env >= 0) return v.steps[i].process == -1 && v.steps[i].object == mv.env;
    if (i + mv.nsteps > v.steps.size()) return false;
    for (int32_t k = 0; k < mv.nsteps; ++k)
      if (!same(mv.step[k], v.steps[i + k])) return false;
    return true;
  };
  size_t blocked_from = 0;
  while (blocked_from < v.steps.size() && !v.steps[blocked_from].blocks) ++blocked_from;
  // A step does not say which branch an unknown value took (or which
  // value), so every state the steps may lead to is followed: a worklist
  // of (steps taken, state), small because steps pin the process and pc.
  struct Item {
    size_t i;
    std::vector<int32_t> state;
  };
  std::vector<Item> work = {{0, ex.Initial()}};
  std::unordered_set<uint64_t> seen;
  std::vector<uint8_t> enc;
  size_t furthest = 0;
  std::string mismatch;
  while (!work.empty()) {
    Item it = std::move(work.back());
    work.pop_back();
    Encode(it.state.data(), static_cast<int32_t>(it.state.size()), &enc);
    if (!seen.insert(HashBytes(enc.data(), enc.size()) * 31 + it.i).second) continue;
    if (seen.size() > 1'000'000) {
      *why = "replay explored too many candidate states";
      return false;
    }
    furthest = std::max(furthest, it.i);
    ex.Expand(it.state.data(), static_cast<int32_t>(it.state.size()), false);
    if (it.i == blocked_from) {
      if (it.i == v.steps.size()) continue;  // nothing blocked: a panic step was due
      // The blocked steps: a double lock is seen in the state itself; the
      // others need a state without moves.
      std::vector<Bad> found;
      for (const Bad& b : ex.bads())
        if (b.move.nsteps == 0) found.push_back(b);
      if (ex.moves().empty() && !ex.panics()) {
        ex.Classify(it.state.data(), static_cast<int32_t>(it.state.size()));
        found.insert(found.end(), ex.bads().begin(), ex.bads().end());
      }
      for (const Bad& b : found) {
        if (b.kind == v.kind && KeyOf(b) == v.key) return true;
        mismatch += " '" + KeyOf(b) + "'";
      }
      continue;
    }
    for (const Bad& b : ex.bads()) {
      if (b.move.nsteps == 0 || !matches(b.move, it.i)) continue;
      if (it.i + b.move.nsteps == v.steps.size() && b.kind == v.kind && KeyOf(b) == v.key) return true;
      mismatch += " '" + KeyOf(b) + "'";
    }
    for (const Move& mv : ex.moves()) {
      if (!matches(mv, it.i)) continue;
      work.push_back(Item{it.i + (mv.env >= 0 ? 1 : mv.nsteps), std::vector<int32_t>(ex.Succ(mv), ex.Succ(mv) + mv.len)});
    }
  }
  if (furthest < blocked_from) {
    const CheckStep& s = v.steps[furthest];
    *why = fmt::format("step {} (process {} template {} pc {} case {}) cannot be taken{}", furthest, s.process,
                       s.template_index, s.pc, s.select_case,
                       mismatch.empty() ? "" : "; it panics as" + mismatch);
  } else if (blocked_from == v.steps.size()) {
    *why = "the steps end without a violation" + (mismatch.empty() ? "" : "; seen:" + mismatch);
  } else {
    *why = fmt::format("the replayed state does not show '{}' (it shows [{} ])", v.key, mismatch);
  }
  return false;
}

}  // namespace gordian::verify
