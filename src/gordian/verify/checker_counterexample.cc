// This file owns the model checker's counterexamples (checker_internal.h):
// the object a step operates on, a move as the steps a report shows, the
// identity (key) of a violation and the Violation built from a path, and
// Replay (checker.h), which runs a counterexample again through the step
// function.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "gordian/verify/checker_internal.h"

namespace gordian::verify {
namespace checker_internal {

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

namespace {

// The violating positions: the panicking step, or each stuck process.
std::vector<MoveStep> Positions(const Bad& b) {
  std::vector<MoveStep> pos;
  if (b.move.nsteps > 0) pos.push_back(b.move.step[0]);
  for (const MoveStep& w : b.where) pos.push_back(w);
  return pos;
}

}  // namespace

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

}  // namespace checker_internal

using namespace checker_internal;

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
