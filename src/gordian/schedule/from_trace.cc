// This file makes a schedule from a recorded trace and checks a replayed
// trace against a schedule.
#include "gordian/schedule/from_trace.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <span>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "gordian/schedule/goroutine_ops.h"

namespace gordian::schedule {

using trace::Kind;
using trace::Record;
namespace fs = std::filesystem;

uint64_t OrderKey(const Record& r) {
  if (r.tpost == 0) return (uint64_t{1} << 34) + 2 * uint64_t{r.tpre};
  return 2 * uint64_t{trace::InfoOf(r.kind).at_post ? r.tpost : r.tpre};
}

namespace {

// Calls f(goroutine, record index) for each controlled record of t, in the
// order ControlledOps lists them before it sorts (goroutine by goroutine).
template <typename F>
void EachControlled(const trace::Trace& t, F&& f) {
  for (const auto& g : t.goroutines) {
    if (g.stable_id.empty()) continue;  // the recorder's pseudo-goroutine
    for (uint32_t i = g.begin; i < g.end; i++) {
      if (IsControlled(t.records[i].kind)) f(g, i);
    }
  }
}

}  // namespace

size_t ControlledOpCount(const trace::Trace& t) {
  size_t n = 0;
  EachControlled(t, [&](const trace::Goroutine&, uint32_t) { n++; });
  return n;
}

namespace {

using ChanSeq = std::pair<uint32_t, uint32_t>;  // (channel, value seq)

// The parked partners ControlledOps repairs, and the objects whose
// never-completed operations it orders after their completed ones. Found
// in passes over the records that keep only what concerns the few
// channels and objects with a never-completed operation: a map entry per
// completed send and receive of a 44M-operation suite cost gigabytes.
struct Repairs {
  std::unordered_map<uint32_t, uint32_t> repaired;  // open record -> its partner's record
  std::unordered_map<uint32_t, uint32_t> val;       // open record -> the partner's value seq
  // object -> last completed key on it (kNoKey: none completed)
  static constexpr uint64_t kNoKey = UINT64_MAX;
  std::unordered_map<uint32_t, uint64_t> last;
};

Repairs FindRepairs(const trace::Trace& t) {
  Repairs out;
  // Never-completed sends and receives per channel, in the order the
  // operations are listed (goroutine by goroutine); and every object with
  // a never-completed operation.
  std::map<uint32_t, std::vector<uint32_t>> open_send, open_recv;
  std::unordered_map<uint32_t, uint64_t>& last = out.last;
  EachControlled(t, [&](const trace::Goroutine&, uint32_t i) {
    const Record& r = t.records[i];
    if (r.tpost != 0 || r.obj == 0) return;
    last.emplace(r.obj, Repairs::kNoKey);
    if (r.kind == Kind::ChanSend) open_send[r.obj].push_back(i);
    if (r.kind == Kind::ChanRecv) open_recv[r.obj].push_back(i);
  });
  // Completed sends and receives, by value seq, on those channels only (a
  // later one of the same seq wins, as it would in one map of them all).
  std::map<ChanSeq, uint32_t> sent, recvd;
  if (!open_send.empty() || !open_recv.empty()) {
    EachControlled(t, [&](const trace::Goroutine&, uint32_t i) {
      const Record& r = t.records[i];
      if (r.tpost == 0 || r.val == 0 || r.obj == 0) return;
      if (r.kind != Kind::ChanSend && r.kind != Kind::ChanRecv) return;
      if (!open_send.count(r.obj) && !open_recv.count(r.obj)) return;
      (r.kind == Kind::ChanSend ? sent : recvd)[{r.obj, r.val}] = i;
    });
  }
  auto repair = [&](const std::map<ChanSeq, uint32_t>& done, const std::map<ChanSeq, uint32_t>& other,
                    std::map<uint32_t, std::vector<uint32_t>>& open) {
    for (const auto& [cv, k] : done) {
      if (other.count(cv)) continue;
      auto it = open.find(cv.first);
      if (it == open.end() || it->second.empty()) continue;
      const uint32_t j = it->second.front();
      it->second.erase(it->second.begin());
      out.repaired[j] = k;
      out.val[j] = cv.second;
    }
  };
  // Unbuffered sends complete only with a receiver; any completed receive
  // had a sender.
  std::unordered_map<uint32_t, uint32_t> cap;
  for (const Record& r : t.records) {
    if (r.kind == Kind::ChanMake && open_recv.count(r.obj)) cap[r.obj] = r.val;
  }
  std::map<ChanSeq, uint32_t> sent_unbuf;
  for (const auto& [cv, k] : sent) {
    auto c = cap.find(cv.first);
    if (c != cap.end() && c->second == 0) sent_unbuf[cv] = k;
  }
  repair(sent_unbuf, recvd, open_recv);
  repair(recvd, sent, open_send);
  // The last key of a completed (or repaired) operation on each object that
  // has a never-completed one.
  if (!last.empty()) {
    EachControlled(t, [&](const trace::Goroutine&, uint32_t i) {
      const Record& r = t.records[i];
      if (r.obj == 0) return;
      auto l = last.find(r.obj);
      if (l == last.end()) return;
      uint64_t key;
      if (r.tpost != 0) {
        key = OrderKey(r);
      } else if (auto rep = out.repaired.find(i); rep != out.repaired.end()) {
        key = OrderKey(t.records[rep->second]) + 1;
      } else {
        return;
      }
      l->second = l->second == Repairs::kNoKey ? key : std::max(l->second, key);
    });
  }
  return out;
}

}  // namespace

std::vector<TraceOp> ControlledOps(const trace::Trace& t, const std::vector<uint8_t>* kept_gid) {
  const Repairs repairs = FindRepairs(t);
  std::vector<TraceOp> ops;
  EachControlled(t, [&](const trace::Goroutine& g, uint32_t i) {
    if (kept_gid != nullptr && (g.gid >= kept_gid->size() || !(*kept_gid)[g.gid])) return;
    const Record& r = t.records[i];
    TraceOp o{g.gid, i, OrderKey(r), false, r.val};
    if (r.tpost == 0) {
      if (auto rep = repairs.repaired.find(i); rep != repairs.repaired.end()) {
        // Ordered right after its partner, with the partner's value seq.
        o.key = OrderKey(t.records[rep->second]) + 1;
        o.repaired = true;
        o.val = repairs.val.at(i);
      } else {
        // Never completed: at its start, but after every completed
        // operation on the same object (a blocked receive must not be
        // queued ahead of receives that got values). A non-blocking
        // operation with its start stamp (an Add, a Signal) took effect
        // there; the program ended before its record was finished.
        o.key = 2 * uint64_t{r.tpre};
        if (trace::IsBlocking(r.kind) || r.tpre == 0) {
          auto it = repairs.last.find(r.obj);
          if (r.obj != 0 && it != repairs.last.end() && it->second != Repairs::kNoKey &&
              it->second >= o.key) {
            o.key = it->second + 1;
          }
        }
      }
    }
    ops.push_back(o);
  });
  std::sort(ops.begin(), ops.end(), [](const TraceOp& a, const TraceOp& b) {
    return a.key != b.key ? a.key < b.key : a.rec < b.rec;
  });
  // Keys are monotone within a goroutine (an operation ends before the next
  // starts), so program order is kept.
  return ops;
}

const Record* ChosenCase(const trace::Trace& t, trace::RecordId sel) {
  const Record& r = t.records[sel];
  if (r.kind != Kind::Select || r.tpost == 0 || r.val == trace::kDefaultCase) return nullptr;
  for (uint32_t i = sel + 1; i <= sel + r.aux && i < t.records.size(); i++) {
    const Record& c = t.records[i];
    if (c.kind != Kind::SelectCase) break;
    if (c.aux == r.val) return &c;
  }
  return nullptr;
}

namespace {

std::string Meta(const trace::Trace& t, const std::string& k) {
  auto it = t.meta.find(k);
  return it == t.meta.end() ? "" : it->second;
}

// The test binary flags worth passing to go test again.
bool KeepTestFlag(const std::string& a) {
  static const char* kKeep[] = {"-test.run=", "-test.skip=", "-test.short", "-test.cpu=",
                                "-test.parallel=", "-test.v", "-test.failfast",
                                "-test.timeout=", "-test.count="};
  for (const char* k : kKeep) {
    if (a.rfind(k, 0) == 0) return true;
  }
  return false;
}

}  // namespace

Invocation InvocationOf(const trace::Trace& t, const std::string& trace_dir) {
  Invocation inv;
  std::string arg0 = Meta(t, "arg.0");
  int gmp = 0;
  std::string g = Meta(t, "gomaxprocs");
  if (!g.empty()) gmp = std::atoi(g.c_str());
  inv.gomaxprocs = gmp;
  inv.race = Meta(t, "race") == "1";
  bool is_test = arg0.size() > 5 && arg0.ends_with(".test");
  if (!is_test) {
    inv.mode = "run";
    return inv;
  }
  inv.mode = "test";
  // packages.txt of the parent directory: name \t import path \t source dir.
  fs::path dir = fs::absolute(trace_dir).lexically_normal();
  if (dir.filename().empty()) dir = dir.parent_path();
  std::ifstream pk(dir.parent_path() / "packages.txt");
  std::string line;
  while (std::getline(pk, line)) {
    size_t a = line.find('\t'), b = line.find('\t', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    if (line.substr(0, a) == dir.filename().string()) inv.cwd = line.substr(b + 1);
  }
  int argc = std::atoi(Meta(t, "argc").c_str());
  for (int i = 1; i < argc; i++) {
    std::string a = Meta(t, fmt::format("arg.{}", i));
    if (KeepTestFlag(a)) inv.args.push_back(a);
  }
  inv.args.push_back(".");
  return inv;
}

std::unordered_map<uint32_t, uint32_t> ScheduleGoroutines(const trace::Trace& t, Schedule* s) {
  // "1" first, then by path depth (parents before children).
  std::vector<const trace::Goroutine*> gs;
  bool have_main = false;
  for (const auto& g : t.goroutines) {
    if (g.stable_id.empty()) continue;
    gs.push_back(&g);
    have_main = have_main || g.stable_id == "1";
  }
  std::stable_sort(gs.begin(), gs.end(), [](const auto* a, const auto* b) {
    auto depth = [](const std::string& p) { return std::count(p.begin(), p.end(), '.'); };
    return depth(a->stable_id) < depth(b->stable_id);
  });
  std::unordered_map<uint32_t, uint32_t> sid;
  s->goroutines.clear();
  if (!have_main) s->goroutines.push_back("1");
  for (const auto* g : gs) {
    sid[g->gid] = static_cast<uint32_t>(s->goroutines.size());
    s->goroutines.push_back(g->stable_id);
  }
  return sid;
}

Invocation OnlyTest(Invocation inv, const std::string& name) {
  std::erase_if(inv.args, [](const std::string& a) {
    return a.rfind("-test.run=", 0) == 0 || a.rfind("-test.count=", 0) == 0;
  });
  inv.args.insert(inv.args.begin(), fmt::format("-test.run=^{}$", name));
  return inv;
}

bool FromTraceForTest(const trace::Trace& t, const std::string& trace_dir, const std::string& test,
                      Schedule* out, std::string* why) {
  // The test's own goroutine: the one whose TestStart names it.
  const trace::Goroutine* tg = nullptr;
  std::set<uint32_t> test_gids;  // goroutines that started a top-level test
  for (const auto& g : t.goroutines) {
    for (uint32_t i = g.begin; i < g.end; i++) {
      const Record& r = t.records[i];
      if (r.kind != Kind::TestStart) continue;
      const std::string& name = r.val < t.strings.size() ? t.strings[r.val] : std::string();
      if (name.find('/') != std::string::npos) continue;
      test_gids.insert(g.gid);
      if (name == test) tg = &g;
    }
  }
  if (tg == nullptr || tg->stable_id.empty()) {
    *why = fmt::format("the trace has no test {}", test);
    return false;
  }
  const std::string& path = tg->stable_id;
  size_t dot = path.rfind('.');
  if (dot == std::string::npos) {
    *why = fmt::format("test {} runs on the main goroutine", test);
    return false;
  }
  const std::string parent = path.substr(0, dot);
  // Alone, the test is its parent's first spawn but for the parent's
  // spawns that are not tests: those still happen. One of them after an
  // earlier test depends on that test having run: no prediction then.
  uint32_t index = 0;
  bool after_test = false;
  for (const auto& g : t.goroutines) {
    if (g.stable_id != parent) continue;
    for (uint32_t i = g.begin; i < g.end; i++) {
      const Record& r = t.records[i];
      if (r.kind != Kind::GoSpawn) continue;
      if (r.obj == tg->gid) break;
      if (test_gids.count(r.obj)) {
        after_test = true;
      } else if (after_test) {
        *why = "the test runner spawned other goroutines between the tests";
        return false;
      } else {
        index++;
      }
    }
  }
  const std::string renamed = fmt::format("{}.{}", parent, index);
  auto in_test = [&](const std::string& p) {
    return p == path || (p.size() > path.size() && p.compare(0, path.size(), path) == 0 &&
                         p[path.size()] == '.');
  };
  Schedule all = FromTrace(t, trace_dir, in_test);
  Schedule s;
  s.cmd = OnlyTest(all.cmd, test);
  s.origin = all.origin + " (test " + test + ")";
  s.expect = all.expect;
  // The parent chain first (the runtime finds a goroutine through its
  // parent's g line), then the test's goroutines, parents first as in all.
  std::vector<uint32_t> remap(all.goroutines.size(), UINT32_MAX);
  std::vector<std::string> chain;
  for (std::string p = parent; !p.empty();) {
    chain.push_back(p);
    size_t d = p.rfind('.');
    p = d == std::string::npos ? std::string() : p.substr(0, d);
  }
  std::reverse(chain.begin(), chain.end());
  s.goroutines = chain;
  for (size_t g = 0; g < all.goroutines.size(); g++) {
    if (!in_test(all.goroutines[g])) continue;
    remap[g] = static_cast<uint32_t>(s.goroutines.size());
    s.goroutines.push_back(renamed + all.goroutines[g].substr(path.size()));
  }
  // Positions: old -> new (the number of kept operations before it).
  std::vector<uint32_t> before(all.ops.size() + 1, 0);
  for (size_t i = 0; i < all.ops.size(); i++) {
    before[i + 1] = before[i] + (remap[all.ops[i].g] != UINT32_MAX);
    if (remap[all.ops[i].g] == UINT32_MAX) continue;
    Op op = all.ops[i];
    op.g = remap[op.g];
    s.ops.push_back(std::move(op));
  }
  auto pos = [&](uint32_t p) { return before[std::min<size_t>(p, all.ops.size())]; };
  for (auto [from, to] : {std::pair{&all.panics, &s.panics}, std::pair{&all.relocks, &s.relocks},
                          std::pair{&all.test_ends, &s.test_ends}}) {
    for (const Gate& gate : *from) {
      if (remap[gate.g] == UINT32_MAX) continue;
      to->push_back({remap[gate.g], gate.index, pos(gate.pos)});
    }
  }
  if (all.fatal_at >= 0) s.fatal_at = pos(static_cast<uint32_t>(all.fatal_at));
  *out = std::move(s);
  return true;
}

Schedule FromTrace(const trace::Trace& t, const std::string& trace_dir,
                   const std::function<bool(const std::string& stable_id)>& keep) {
  Schedule s;
  s.cmd = InvocationOf(t, trace_dir);
  s.origin = "trace " + fs::absolute(trace_dir).lexically_normal().string();
  // Only the kept goroutines' operations, with the order and the repairs
  // decided over all of them: the positions below count these.
  std::vector<uint8_t> kept_gid;
  if (keep) {
    for (const auto& g : t.goroutines) {
      if (g.gid >= kept_gid.size()) kept_gid.resize(g.gid + 1, 0);
      kept_gid[g.gid] = !g.stable_id.empty() && keep(g.stable_id);
    }
  }
  std::vector<TraceOp> ops = ControlledOps(t, keep ? &kept_gid : nullptr);
  auto kept = [&](uint32_t gid) { return !keep || (gid < kept_gid.size() && kept_gid[gid]); };
  std::unordered_map<uint32_t, uint32_t> sid = ScheduleGoroutines(t, &s);
  std::vector<uint32_t> counts(s.goroutines.size(), 0);
  s.ops.reserve(ops.size());
  // The fatal point: the last Panic of a program that died of it.
  uint64_t fatal_key = UINT64_MAX;
  auto why = t.meta.find("exit_reason");
  if (why != t.meta.end() && (why->second == "panic" || why->second == "fatal-error")) {
    for (const Record& r : t.records) {
      if (r.kind == Kind::Panic || (r.kind == Kind::MutexUnlock && (r.flags & trace::kFailed)) ||
          (r.kind == Kind::RWUnlock && (r.flags & trace::kFailed)) ||
          (r.kind == Kind::RUnlock && (r.flags & trace::kFailed))) {
        fatal_key = std::min<uint64_t>(fatal_key, 2 * uint64_t{r.tpre} + 1);
      }
    }
  }
  for (const TraceOp& o : ops) {
    if (s.fatal_at < 0 && o.key > fatal_key) s.fatal_at = static_cast<int64_t>(s.ops.size());
    const Record& r = t.records[o.rec];
    Op op;
    op.g = sid.at(o.gid);
    op.kind = r.kind;
    op.obj = r.obj;
    op.val = o.val;
    op.flags = r.flags;
    op.blocks = r.tpost == 0 && !o.repaired;
    op.index = counts[op.g]++;
    op.site = SiteText(t, r);
    if (r.kind == Kind::OnceDo && r.tpost != 0) {
      op.choice = (r.flags & trace::kSuccess) ? 1 : 0;  // this call ran f, or another did
    }
    if (r.kind == Kind::Select && r.tpost != 0) {
      op.choice = r.val == trace::kDefaultCase ? kChoiceDefault : static_cast<int32_t>(r.val);
      // The partner of a select is that of its chosen case.
      op.obj = 0;
      op.val = 0;
      if (const Record* c = ChosenCase(t, o.rec)) {
        op.obj = c->obj;
        op.val = c->val;
        op.flags |= c->flags & trace::kClosed;
      }
    }
    s.ops.push_back(std::move(op));
  }
  // A program that died with no operation after its fatal point: every
  // position is before it, but the death may still have cut waits off.
  if (s.fatal_at < 0 && fatal_key != UINT64_MAX) s.fatal_at = static_cast<int64_t>(s.ops.size());
  // Panics, the relocks of woken Cond.Waits and the ends of tests, placed
  // among the operations by their stamp.
  auto pos_of = [&](uint32_t stamp) {
    uint64_t key = 2 * uint64_t{stamp};
    auto at = std::partition_point(ops.begin(), ops.end(),
                                   [&](const TraceOp& o) { return o.key < key; });
    return static_cast<uint32_t>(at - ops.begin());
  };
  for (const auto& g : t.goroutines) {
    if (g.stable_id.empty() || !kept(g.gid)) continue;
    uint32_t index = 0;
    for (uint32_t i = g.begin; i < g.end; i++) {
      const Record& r = t.records[i];
      if (IsControlled(r.kind)) index++;
      if (r.kind == Kind::Panic) {
        s.panics.push_back({sid.at(g.gid), index, pos_of(r.tpre)});
      } else if (r.kind == Kind::CondWait && r.tpost != 0) {
        // Relocked at tpost (the Locker is taken again before it).
        s.relocks.push_back({sid.at(g.gid), index, pos_of(r.tpost)});
      } else if (r.kind == Kind::TestEnd) {
        s.test_ends.push_back({sid.at(g.gid), index, pos_of(r.tpre)});
      }
    }
  }
  // Sorted by goroutine and index: the runtime looks them up by these.
  auto by_g = [](const Gate& a, const Gate& b) {
    return a.g != b.g ? a.g < b.g : a.index < b.index;
  };
  std::stable_sort(s.panics.begin(), s.panics.end(), by_g);
  std::stable_sort(s.relocks.begin(), s.relocks.end(), by_g);
  std::stable_sort(s.test_ends.begin(), s.test_ends.end(), by_g);
  return s;
}

namespace {

bool IsChanKind(Kind k) {
  return k == Kind::ChanSend || k == Kind::ChanRecv || k == Kind::ChanClose;
}

bool IsCondKind(Kind k) {
  return k == Kind::CondWait || k == Kind::CondSignal || k == Kind::CondBroadcast;
}

std::string ChoiceText(int32_t c) {
  return c == kChoiceDefault ? "default" : c == kChoiceFree ? "none" : fmt::format("case {}", c);
}

}  // namespace

FollowResult CheckFollowed(const Schedule& s, const trace::Trace& t) {
  FollowResult res;
  res.ops = s.ops.size();
  auto st = t.meta.find("replay_status");
  if (st != t.meta.end()) res.status = st->second;
  // The replay's controlled operations per stable id, in program order,
  // and those of each of the schedule's goroutines (looked up once each).
  const GoroutineOps controlled(t);
  std::vector<std::span<const uint32_t>> ops_of(s.goroutines.size());
  for (size_t g = 0; g < s.goroutines.size(); g++) ops_of[g] = controlled.Of(s.goroutines[g]);
  // Object ids are dense in order of first use, which may differ: keep a
  // bijection source obj <-> replay obj (channels and sync objects share
  // one id space, so one map).
  std::unordered_map<uint32_t, uint32_t> fwd, back;
  auto same_obj = [&](uint32_t src, uint32_t rep) {
    if (src == 0 && rep == 0) return true;
    auto f = fwd.find(src);
    auto b = back.find(rep);
    if (f == fwd.end() && b == back.end()) {
      fwd[src] = rep;
      back[rep] = src;
      return true;
    }
    return f != fwd.end() && f->second == rep;
  };
  // Sync objects: the replay's effect keys of their completed operations,
  // in schedule order.
  std::map<uint32_t, std::vector<std::pair<uint64_t, size_t>>> sync_order;  // obj -> (key, pos)
  bool exact = true;
  std::string first_diff;
  size_t followed = 0;
  size_t required = s.fatal_at >= 0 ? static_cast<size_t>(s.fatal_at) : s.ops.size();
  res.ops = required;
  auto where_of = [&](size_t pos) {
    const Op& op = s.ops[pos];
    return fmt::format("op {} of {}: goroutine {} operation #{} ({} at {})", pos, s.ops.size(),
                       s.goroutines[op.g], op.index, KindName(op.kind), op.site);
  };
  for (size_t pos = 0; pos < required; pos++) {
    const Op& op = s.ops[pos];
    std::span<const uint32_t> recs = op.g < ops_of.size() ? ops_of[op.g] : std::span<const uint32_t>();
    if (op.index >= recs.size()) {
      if (res.divergence.empty())
        res.divergence = where_of(pos) + ": did not happen in the replay";
      exact = false;
      continue;
    }
    uint32_t ri = recs[op.index];
    const Record& r = t.records[ri];
    if (r.kind != op.kind || (op.site != "?" && !SiteIs(t, r, op.site))) {
      if (res.divergence.empty()) {
        res.divergence = where_of(pos) + fmt::format(": the replay did {} at {}", KindName(r.kind),
                                                     SiteText(t, r));
      }
      exact = false;
      continue;
    }
    followed++;
    // Fidelity: completion, object, partner.
    std::string diff;
    const Record* rc = op.kind == Kind::Select ? ChosenCase(t, ri) : nullptr;
    bool done = r.tpost != 0;
    // A wait that never completed in the recording and that a runtime timer
    // ended in the replay (a ticker's tick, a deadline): the recording's
    // program ended first, by wall-clock time, which a schedule does not
    // order. The replay is as faithful as the clock lets it be.
    bool timer_fired = op.blocks && done &&
                       (op.kind == Kind::Select ? rc != nullptr && (rc->flags & trace::kTimer)
                                                : (r.flags & trace::kTimer) != 0);
    if (timer_fired) {
      // No difference.
    } else if (!op.blocks && !done) {
      diff = "blocked (it completed in the recording)";
    } else if (op.blocks && done && trace::IsBlocking(op.kind) && s.fatal_at < 0) {
      // (A non-blocking operation that did not finish in the recording was
      // cut off by the end of the program; finishing it is no difference.
      // Nor is finishing a wait of a recording that died of a panic: the
      // death may have cut it off before its partner came, a race with the
      // process's exit that the schedule does not order.)
      diff = "completed (it never completed in the recording)";
    } else if (op.kind == Kind::Select) {
      int32_t choice = !done ? kChoiceFree
                       : r.val == trace::kDefaultCase ? kChoiceDefault
                                                      : static_cast<int32_t>(r.val);
      if (op.choice != kChoiceFree && choice != op.choice) {
        diff = fmt::format("chose {} (recorded {})", ChoiceText(choice), ChoiceText(op.choice));
      } else if (op.obj != 0) {  // the schedule names the chosen case's partner
        if (rc == nullptr || !same_obj(op.obj, rc->obj)) diff = "the chosen case is on another channel";
        else if (rc->val != op.val) diff = fmt::format("val {} (recorded {})", rc->val, op.val);
        else if ((rc->flags ^ op.flags) & trace::kClosed)
          diff = fmt::format("closed {} (recorded {})", (rc->flags & trace::kClosed) != 0,
                             (op.flags & trace::kClosed) != 0);
      }
    } else if (!same_obj(op.obj, r.obj)) {
      diff = "another object";
    } else if (op.blocks) {
      // Blocked in both: nothing more to compare.
    } else if ((IsChanKind(op.kind) || IsCondKind(op.kind)) && r.val != op.val) {
      diff = fmt::format("val {} (recorded {})", r.val, op.val);
    } else if ((r.flags ^ op.flags) & (trace::kClosed | trace::kFailed)) {
      diff = fmt::format("flags {} (recorded {})", r.flags, op.flags);
    } else if (op.kind == Kind::OnceDo && ((r.flags ^ op.flags) & trace::kSuccess)) {
      diff = (r.flags & trace::kSuccess) ? "ran f (it did not in the recording)"
                                         : "did not run f (it did in the recording)";
    }
    if (diff.empty() && done && !op.blocks && op.obj != 0 && !IsChanKind(op.kind) &&
        op.kind != Kind::Select) {
      sync_order[op.obj].push_back({OrderKey(r), pos});
    }
    if (!diff.empty()) {
      exact = false;
      if (first_diff.empty()) first_diff = where_of(pos) + ": " + diff;
    }
  }
  // On each sync object the operations took effect in the scheduled order
  // (which Unlock a Lock came after, which Done a Wait came after, ...).
  if (first_diff.empty()) {
    for (const auto& [obj, v] : sync_order) {
      for (size_t k = 1; k < v.size(); k++) {
        if (v[k].first < v[k - 1].first) {
          exact = false;
          first_diff = where_of(v[k].second) + fmt::format(
              ": took effect before op {} on the same object (the recording had it after)",
              v[k - 1].second);
          break;
        }
      }
      if (!first_diff.empty()) break;
    }
  }
  // After a skip (the runtime's stall policy let a position go when its
  // operation did not come for the stall time), the operations the schedule
  // puts after all of its own may have overtaken the skipped one: on each
  // sync object, none of them may have taken effect before a scheduled one.
  // (Without a skip the runtime holds them until the schedule is done.)
  auto stall = t.meta.find("replay_stall_pos");
  if (first_diff.empty() && stall != t.meta.end()) {
    std::unordered_map<std::string_view, uint32_t> scheduled;  // path -> its scheduled operations
    for (const Op& op : s.ops) {
      uint32_t& n = scheduled[s.goroutines[op.g]];
      n = std::max(n, op.index + 1);
    }
    std::map<uint32_t, std::pair<uint64_t, size_t>> latest;  // source obj -> (key, pos)
    for (const auto& [obj, v] : sync_order) {
      latest[obj] = *std::max_element(v.begin(), v.end());
    }
    for (size_t gi = 0; gi < controlled.goroutines(); gi++) {
      std::string_view path = controlled.Path(gi);
      if (path.empty()) continue;
      std::span<const uint32_t> recs = controlled.Ops(gi);
      auto n = scheduled.find(path);
      for (size_t k = n == scheduled.end() ? 0 : n->second; k < recs.size() && first_diff.empty();
           k++) {
        const Record& r = t.records[recs[k]];
        if (r.tpost == 0 || r.obj == 0 || IsChanKind(r.kind) || r.kind == Kind::Select) continue;
        auto b = back.find(r.obj);
        if (b == back.end()) continue;
        auto l = latest.find(b->second);
        if (l == latest.end() || OrderKey(r) > l->second.first) continue;
        exact = false;
        first_diff = where_of(l->second.second) + fmt::format(
            ": goroutine {} operation #{} ({} at {}), which the schedule puts after it, took "
            "effect first (the replay skipped op {} after the stall time)",
            path, k, KindName(r.kind), SiteText(t, r), stall->second);
      }
    }
  }
  res.followed = followed;
  res.complete = followed == required;
  res.exact = res.complete && exact;
  if (res.divergence.empty()) res.divergence = first_diff;
  // The runtime refused a choice Go cannot make (a default while a case
  // was ready): whatever else matched, the schedule was not followed.
  auto refused = t.meta.find("replay_refused_choice");
  if (refused != t.meta.end()) {
    auto line = t.meta.find("replay_refused_choice_line");
    res.refused = refused->second;
    if (line != t.meta.end()) res.refused += ":" + line->second;
    res.complete = res.exact = false;
    res.divergence = fmt::format(
        "the schedule takes the default of the select at {} while one of its cases is ready "
        "(a closed channel, a buffered value or a waiting partner); Go takes a ready case, and "
        "so did the replay",
        res.refused);
  }
  return res;
}

std::string DescribeFollow(const FollowResult& f) {
  if (!f.refused.empty()) return "refused: " + f.divergence;
  if (f.exact) {
    return fmt::format("followed to the end: all {} operations as scheduled, same partners and "
                       "select choices", f.ops);
  }
  if (f.complete) {
    return fmt::format("followed to the end: all {} operations in order; {}", f.ops,
                       f.divergence);
  }
  std::string s = fmt::format("diverged after {} of {} operations: {}", f.followed, f.ops,
                              f.divergence.empty() ? "(no detail)" : f.divergence);
  if (!f.status.empty()) s += fmt::format(" [runtime: {}]", f.status);
  return s;
}

}  // namespace gordian::schedule
