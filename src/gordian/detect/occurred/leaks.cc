// This file implements the occurred goroutine-leak detector: a goroutine
// whose last operation never completed (tpost == 0) when the program ended
// or its test ended (BlockedAtTestEnd). One finding per leaked goroutine,
// named by the primitive it is stuck on (chan-send, chan-recv, select,
// nil-chan, mutex, rwmutex, waitgroup, cond), with:
//   - where the goroutine was spawned (role spawn),
//   - the possible partners that could have unblocked it: from the
//     happens-before engine when the caller passes a PartnerFinder (records
//     not ordered before the stuck operation), else the operations of other
//     goroutines on the same object (receives for a stuck send, sends and
//     closes for a stuck receive, the holder of a lock, the Adds and Dones
//     of a WaitGroup).
// Not leaks: goroutines already explained (a double lock, a global
// deadlock), goroutines that were merely blocked when another goroutine
// crashed the program (unless a test had already ended with them blocked),
// and goroutines waiting on something alive. "Blocked forever" is the
// runtime's claim (runtime/std/runtime/gordian_settle.go): at a test's end
// and at a checked program exit (ProgramExit with kExitChecked) it names the
// goroutines blocked forever in BlockedAtTestEnd records, leaving out those
// waiting on a live timer, ticker or context deadline. Without a checked
// exit (a killed program) a goroutine still waiting on a timer channel
// (kTimer) is not claimed either: its timer may have been live. Nor is a
// goroutine waiting to communicate with such a timer-driven goroutine.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "gordian/detect/occurred/detectors.h"

namespace gordian::detect {
namespace {

using report::Primitive;

constexpr size_t kMaxPartners = 5;

Primitive PrimitiveOf(const OccurredIndex& ix, uint32_t op) {
  const Record& r = ix.rec(op);
  switch (r.kind) {
    case Kind::ChanSend: return r.obj == 0 ? Primitive::NilChan : Primitive::ChanSend;
    case Kind::ChanRecv: return r.obj == 0 ? Primitive::NilChan : Primitive::ChanRecv;
    case Kind::Select: {
      std::vector<uint32_t> cases = ix.CasesOf(op);
      bool all_nil = !cases.empty() && std::all_of(cases.begin(), cases.end(), [&](uint32_t c) {
        return ix.rec(c).obj == 0;
      });
      return all_nil ? Primitive::NilChan : Primitive::Select;
    }
    case Kind::MutexLock: case Kind::OnceDo: return Primitive::Mutex;
    case Kind::RWLock: case Kind::RLock: return Primitive::RWMutex;
    case Kind::WgWait: return Primitive::WaitGroup;
    case Kind::CondWait: return Primitive::Cond;
    default: return Primitive::None;
  }
}

const char* Doing(const OccurredIndex& ix, uint32_t op) {
  const Record& r = ix.rec(op);
  switch (r.kind) {
    case Kind::ChanSend: return r.obj == 0 ? "sending on a nil channel" : "sending on";
    case Kind::ChanRecv: return r.obj == 0 ? "receiving from a nil channel" : "receiving from";
    case Kind::Select: return "in a select";
    case Kind::MutexLock: return "in Lock";
    case Kind::RWLock: return "in Lock of an RWMutex";
    case Kind::RLock: return "in RLock";
    case Kind::WgWait: return "in WaitGroup.Wait";
    case Kind::CondWait: return "in Cond.Wait";
    case Kind::OnceDo: return "in Once.Do";
    default: return "in an operation";
  }
}

// Collects candidate partner records for the stuck operation op.
std::vector<uint32_t> Partners(const OccurredIndex& ix, uint32_t op) {
  const Record& r = ix.rec(op);
  const Gid gid = ix.GidOf(op);
  std::vector<uint32_t> out;
  auto chan_partners = [&](const Record& stuck, bool stuck_is_send) {
    ObjectId chan = trace::ObjectIdOf(stuck);
    if (chan == ObjectId(0)) return;
    for (uint32_t i : ix.OpsOf(ObjClass::Chan, chan)) {
      if (ix.GidOf(i) == gid) continue;
      const Record& p = ix.rec(i);
      bool recv = p.kind == Kind::ChanRecv ||
                  (p.kind == Kind::SelectCase && (p.flags & trace::kDirRecv));
      bool send = p.kind == Kind::ChanSend ||
                  (p.kind == Kind::SelectCase && (p.flags & trace::kDirSend));
      if (stuck_is_send ? recv : (send || p.kind == Kind::ChanClose)) out.push_back(i);
    }
  };
  switch (r.kind) {
    case Kind::ChanSend: chan_partners(r, true); break;
    case Kind::ChanRecv: chan_partners(r, false); break;
    case Kind::Select:
      for (uint32_t c : ix.CasesOf(op)) {
        chan_partners(ix.rec(c), (ix.rec(c).flags & trace::kDirSend) != 0);
      }
      break;
    case Kind::MutexLock: case Kind::RWLock: case Kind::RLock: {
      LockHolders h = ix.HoldersAtEnd(ClassOf(r.kind), trace::ObjectIdOf(r));
      if (h.writer != hb::kNoRecord) out.push_back(h.writer);
      if (r.kind == Kind::RWLock) {
        for (uint32_t x : h.readers) out.push_back(x);
      }
      break;
    }
    case Kind::WgWait:
      for (uint32_t i : ix.OpsOf(ObjClass::WaitGroup, trace::ObjectIdOf(r))) {
        if (ix.rec(i).kind == Kind::WgAdd && ix.GidOf(i) != gid) out.push_back(i);
      }
      break;
    default:
      break;
  }
  return out;
}

// Whether the stuck operation op waits on a channel a runtime timer feeds.
bool WaitsOnTimer(const OccurredIndex& ix, uint32_t op) {
  const Record& r = ix.rec(op);
  if (r.kind == Kind::ChanRecv) return (r.flags & trace::kTimer) != 0;
  if (r.kind != Kind::Select) return false;
  std::vector<uint32_t> cases = ix.CasesOf(op);
  return std::any_of(cases.begin(), cases.end(),
                     [&](uint32_t c) { return (ix.rec(c).flags & trace::kTimer) != 0; });
}

// Why nothing will wake the stuck operation, when no partner is known. A
// timer's channel does have a sender, the runtime: the runtime claimed the
// goroutine blocked forever because that timer was stopped (or fired, its
// value taken by another receiver).
std::string PartnerNoun(const OccurredIndex& ix, uint32_t op) {
  const Record& r = ix.rec(op);
  constexpr const char* kStopped =
      "its timer was stopped or has already fired, so the runtime will not send on it again";
  switch (r.kind) {
    case Kind::ChanSend: return "no other goroutine receives from it";
    case Kind::ChanRecv:
      if (r.flags & trace::kTimer) return fmt::format("it is a timer's channel and {}", kStopped);
      return "no other goroutine sends on it or closes it";
    case Kind::Select:
      if (WaitsOnTimer(ix, op)) {
        return fmt::format("no other goroutine communicates on its channels, and for its timer "
                           "channel {}", kStopped);
      }
      return "no other goroutine communicates on its channels";
    case Kind::WgWait: return "no other goroutine calls Add or Done on it";
    default: return "";
  }
}

}  // namespace

void DetectLeaks(const OccurredIndex& ix, OccurredState* st, std::vector<Finding>* out) {
  // BlockedAtTestEnd: gid -> (test index, stamp) of the first test end that
  // saw the goroutine blocked.
  // at_exit: the goroutines the runtime found blocked forever at a checked
  // program exit (BlockedAtTestEnd with val 0).
  // (The record's obj is the gid.)
  std::map<Gid, std::pair<uint32_t, uint32_t>> at_test_end;
  std::set<Gid> at_exit;
  bool exit_checked = false;
  for (uint32_t i = 0; i < ix.size(); i++) {
    const Record& r = ix.rec(i);
    if (r.kind == Kind::BlockedAtTestEnd) {
      if (r.val == 0) {
        at_exit.insert(Gid(r.obj));
      } else {
        at_test_end.emplace(Gid(r.obj), std::pair{r.val, r.tpre});
      }
    }
    if (r.kind == Kind::ProgramExit && (r.flags & trace::kExitChecked)) exit_checked = true;
  }
  // Goroutines driven by a live timer at the end: parked on a timer channel
  // and not claimed blocked forever (a ticker loop). They will run again,
  // so a goroutine waiting for one of them to communicate is not blocked
  // forever either (a consumer fed on every tick).
  std::set<Gid> timer_driven;
  for (const trace::Goroutine& g : ix.trace().goroutines) {
    const Gid gid = trace::GidOf(g);
    if (ix.BlockedForever(gid) && WaitsOnTimer(ix, ix.LastOp(gid)) &&
        !(exit_checked && at_exit.count(gid))) {
      timer_driven.insert(gid);
    }
  }
  for (const trace::Goroutine& g : ix.trace().goroutines) {
    const Gid gid = trace::GidOf(g);
    if (!ix.BlockedForever(gid) || st->explained_blocked.count(gid)) continue;
    uint32_t op = ix.LastOp(gid);
    if (!ix.IsUser(op)) continue;  // runtime and testing internals
    auto ate = at_test_end.find(gid);
    bool seen_at_test_end = ate != at_test_end.end() && ate->second.second < st->crash_stamp;
    if (st->crash_stamp != trace::kNoStamp && !seen_at_test_end) continue;
    // Waiting on something alive at the end: not blocked forever.
    if (exit_checked ? !at_exit.count(gid) : !seen_at_test_end && WaitsOnTimer(ix, op)) continue;
    // (Only when some goroutine is timer-driven: the list holds every
    // operation on the object, millions on a busy channel.)
    if (!timer_driven.empty()) {
      std::vector<uint32_t> same_object = Partners(ix, op);
      if (std::any_of(same_object.begin(), same_object.end(),
                      [&](uint32_t p) { return timer_driven.count(ix.GidOf(p)) != 0; })) {
        continue;
      }
    }

    const Record& r = ix.rec(op);
    std::string id = ix.StableId(gid);
    Finding f;
    f.kind = FindingKind::GoroutineLeak;
    f.status = report::Status::Occurred;
    f.severity = report::DefaultSeverity(f.kind);
    f.primitive = PrimitiveOf(ix, op);
    std::string when = " when the program ended";
    if (seen_at_test_end) {
      const TestInfo* ti = ix.TestByIndex(ate->second.first);
      f.test = ti != nullptr ? ti->name : ix.TestOf(op);
      when = f.test.empty() ? " when its test ended" : fmt::format(" when {} ended", f.test);
    } else {
      f.test = ix.TestOf(op);
    }
    std::string object;
    if (r.kind == Kind::ChanSend || r.kind == Kind::ChanRecv) {
      if (r.obj != 0) object = fmt::format(" {}", ix.DescribeChan(trace::ObjectIdOf(r)));
    }
    f.locations.push_back(ix.Loc(op, RoleOf(r)));
    f.interleaving.push_back(ix.StepOf(op, RoleOf(r), OpName(r) + ": blocks forever"));
    uint32_t spawn = ix.SpawnOfGid(gid);
    if (spawn != hb::kNoRecord && ix.IsUser(spawn)) {
      f.locations.push_back(ix.Loc(spawn, Role::Spawn));
      f.interleaving.push_back(ix.StepOf(spawn, Role::Spawn,
                                         fmt::format("go statement: starts goroutine {}", id)));
    }
    // Possible partners: from the happens-before engine when there is one;
    // its answer "none" is explained with the same-object operations that
    // all happened before the stuck one ("past").
    std::vector<uint32_t> partners, past;
    if (st->partners) {
      st->partners(op, &partners);
      std::erase_if(partners, [&](uint32_t p) { return ix.GidOf(p) == gid; });
      if (partners.empty()) past = Partners(ix, op);
    } else {
      partners = Partners(ix, op);
    }
    std::set<std::pair<int, uint32_t>> seen;  // (role, site)
    std::string past_sites;
    bool past_all_unchosen_cases = !past.empty();
    size_t named = 0;
    for (const std::vector<uint32_t>* list : {&partners, &past}) {
      for (uint32_t p : *list) {
        const Record& pr = ix.rec(p);
        Role role = RoleOf(pr);
        if (list == &past) {
          past_all_unchosen_cases &= pr.kind == Kind::SelectCase && !(pr.flags & trace::kChosen);
        }
        if (!seen.insert({static_cast<int>(role), pr.site}).second) continue;
        if (named++ >= kMaxPartners) break;
        f.locations.push_back(ix.Loc(p, role));
        f.interleaving.push_back(ix.StepOf(p, role, OpName(pr)));
        if (list == &past) {
          past_sites += fmt::format("{}{}", past_sites.empty() ? "" : ", ", ShortSite(ix, p));
        }
      }
    }
    std::string tail;
    if (r.kind == Kind::WgWait) {
      tail = fmt::format("; the counter was {} when it started waiting and never reached 0",
                         static_cast<int32_t>(r.val));
    } else if (!past.empty()) {
      tail = fmt::format("; the operations that could match it ({}) all happened before it{}",
                         past_sites,
                         past_all_unchosen_cases ? " (a select that chose another case)" : "");
    } else if (partners.empty() && f.primitive != Primitive::NilChan) {
      std::string noun = PartnerNoun(ix, op);
      if (!noun.empty()) tail = fmt::format("; {}", noun);
    }
    if (r.kind == Kind::MutexLock || r.kind == Kind::RWLock || r.kind == Kind::RLock) {
      LockHolders h = ix.HoldersAtEnd(ClassOf(r.kind), trace::ObjectIdOf(r));
      if (h.writer != hb::kNoRecord) {
        tail = fmt::format("; goroutine {} locked it at {} and never unlocked it",
                           ix.StableId(ix.GidOf(h.writer)), ShortSite(ix, h.writer));
      }
    }
    f.message = fmt::format("goroutine {} is blocked forever {}{}{}{}", id, Doing(ix, op), object,
                            when, tail);
    FinishFinding(ix, &f);
    out->push_back(std::move(f));
  }
}

}  // namespace gordian::detect
