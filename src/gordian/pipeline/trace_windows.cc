// This file implements CutIntoWindows (trace_windows.h): the tests' related
// groups by union-find over what their goroutines share, packed into
// windows in trace order.
#include "gordian/pipeline/trace_windows.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "gordian/trace/ancestry.h"

namespace gordian::pipeline {

using trace::Kind;
using trace::Record;

namespace {

constexpr uint32_t kNone = 0xffffffffu;

class Groups {
 public:
  explicit Groups(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0u); }
  uint32_t Find(uint32_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }
  void Join(uint32_t a, uint32_t b) {
    a = Find(a);
    b = Find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<uint32_t> parent_;
};

bool IsTopLevelTest(const trace::Trace& t, const Record& r) {
  if (r.kind != Kind::TestStart) return false;
  return r.val < t.strings.size() && t.strings[r.val].find('/') == std::string::npos;
}

bool KeepMainRecord(const std::vector<uint8_t>& window, const Record& r) {
  switch (r.kind) {
    case Kind::GoSpawn:
    case Kind::BlockedAtTestEnd:
      return r.obj < window.size() && window[r.obj] != 0;
    case Kind::ProgramExit:
      return true;
    default:
      return false;
  }
}

}  // namespace

trace::ReadSelection WindowSelection(std::vector<uint8_t> window) {
  trace::ReadSelection sel;
  sel.record = [window](uint32_t gid, const Record& r) {
    return gid == 1 && KeepMainRecord(window, r);
  };
  sel.goroutines = std::move(window);
  return sel;
}

TraceWindows CutIntoWindows(const trace::Trace& t, size_t max_windows,
                           uint64_t min_window_records) {
  TraceWindows out;
  auto refuse = [&](std::string why) {
    out.why_not = std::move(why);
    return out;
  };
  if (t.truncated || !t.incomplete.empty()) return refuse("the trace is incomplete");
  const uint32_t ng = static_cast<uint32_t>(t.goroutines.size());
  if (ng < 2) return refuse("one goroutine");
  // The main goroutine only spawns the tests and, at the exit, names the
  // goroutines blocked forever; the program ended by itself.
  bool exited = false;
  for (const Record& r : t.RecordsOf(t.goroutines[0])) {
    if (r.kind == Kind::ProgramExit) {
      const auto how = static_cast<trace::ExitHow>(r.aux);
      if (how != trace::ExitHow::MainReturned && how != trace::ExitHow::OsExit) {
        return refuse("the program did not end normally");
      }
      exited = true;
    } else if (r.kind != Kind::GoSpawn && r.kind != Kind::BlockedAtTestEnd) {
      return refuse("the main goroutine does more than run tests (TestMain, an example)");
    }
  }
  if (!exited) return refuse("the program's exit is not in the trace");

  // Each goroutine's top: the child of the main goroutine it descends from
  // (a top-level test's goroutine), kNone for a goroutine whose spawn chain
  // breaks off (started by the runtime: a time.AfterFunc function).
  std::vector<uint32_t> top = trace::ByNearestAncestor<uint32_t>(
      t,
      [&](uint32_t g) -> std::optional<uint32_t> {
        if (g == 1) return kNone;
        if (t.goroutines[g - 1].parent == 1) return g;
        return std::nullopt;
      },
      kNone);

  // One pass over the goroutines' records for what the cut needs of them:
  // the tests (each child of main runs exactly one top-level test), their
  // ends, and the channels that are more than a timer's.
  struct Test {
    uint32_t index, gid;
    uint32_t start, end;
  };
  std::vector<Test> tests;  // every TestStart (subtests too), for the goroutines without a top
  std::unordered_map<uint32_t, uint32_t> gid_of_test;  // test index -> gid of its goroutine
  std::vector<const Record*> test_ends;
  std::vector<uint8_t> runs_test(ng + 1, 0);
  // A timer's channel (time.Timer, time.After) that goroutines only receive
  // from relates nothing: its values come from the runtime, and no goroutine
  // releases anything into it. Such channels are pooled across tests (a
  // sync.Pool of timers); any other operation on one (a send, a close, a
  // receive not from a timer) makes it a channel like the others.
  std::unordered_map<uint32_t, bool> plain_chan;  // chan -> not a timer's only
  for (uint32_t g = 2; g <= ng; g++) {
    for (const Record& r : t.RecordsOf(t.goroutines[g - 1])) {
      if (r.kind == Kind::TestStart) {
        gid_of_test[r.obj] = g;
        tests.push_back({r.obj, g, r.tpre, kNone});
        if (IsTopLevelTest(t, r) && top[g] == g && runs_test[g]++ > 0) {
          return refuse(fmt::format("goroutine {} started two tests", t.goroutines[g - 1].stable_id));
        }
      } else if (r.kind == Kind::TestEnd) {
        test_ends.push_back(&r);
      } else if (trace::ClassOf(r.kind) == trace::ObjClass::Chan && r.obj != 0) {
        const bool timer_recv = (r.flags & trace::kTimer) != 0 &&
                                (r.kind == Kind::ChanRecv ||
                                 (r.kind == Kind::SelectCase && (r.flags & trace::kDirRecv) != 0));
        bool& plain = plain_chan[r.obj];
        plain = plain || (!timer_recv && r.kind != Kind::ChanMake);
      }
    }
  }
  // Each test's end: the TestEnd of its index (the last start's, as
  // hb::OpIndex::BuildTests has it).
  std::unordered_map<uint32_t, size_t> test_at;  // test index -> position in tests
  for (size_t k = 0; k < tests.size(); k++) test_at[tests[k].index] = k;
  for (const Record* r : test_ends) {
    auto it = test_at.find(r->obj);
    if (it != test_at.end()) tests[it->second].end = r->tpre;
  }
  for (uint32_t g = 2; g <= ng; g++) {
    if (t.goroutines[g - 1].parent == 1 && !runs_test[g] &&
        t.goroutines[g - 1].begin < t.goroutines[g - 1].end) {
      return refuse(fmt::format("the test runner started goroutine {}, which runs no test (a "
                                "benchmark, a fuzz target)",
                                t.goroutines[g - 1].stable_id));
    }
  }
  // A goroutine without a top goes with the test its operations are
  // attributed to (the innermost test running at its first record:
  // hb::OpIndex::TestOfGoroutine), or stands alone.
  for (uint32_t g = 2; g <= ng; g++) {
    if (top[g] != kNone) continue;
    const trace::Goroutine& gr = t.goroutines[g - 1];
    if (gr.begin == gr.end) continue;
    const uint32_t stamp = t.records[gr.begin].tpre;
    const Test* best = nullptr;
    for (const Test& x : tests) {
      if (x.start <= stamp && stamp <= x.end && (best == nullptr || x.start > best->start)) best = &x;
    }
    top[g] = best != nullptr && top[best->gid] != kNone ? top[best->gid] : g;
  }

  // Union over what goroutines of different tops share.
  Groups groups(ng + 1);
  std::unordered_map<uint64_t, uint32_t> owner;  // (class, object) -> the top that used it first
  uint64_t last_key = ~0ull;
  uint32_t last_top = kNone;
  auto join_gid = [&](uint32_t a_top, uint32_t gid) {
    if (gid >= 2 && gid <= ng && top[gid] != kNone) groups.Join(a_top, top[gid]);
  };
  for (uint32_t g = 2; g <= ng; g++) {
    const uint32_t u = top[g];
    if (u == kNone) continue;
    for (const Record& r : t.RecordsOf(t.goroutines[g - 1])) {
      const trace::ObjClass c = trace::ClassOf(r.kind);
      if (c != trace::ObjClass::None) {
        if (r.obj == 0) continue;  // a nil channel: nothing shared
        if (c == trace::ObjClass::Chan && !plain_chan[r.obj]) continue;
        const uint64_t key = uint64_t(c) << 32 | r.obj;
        if (key == last_key && u == last_top) continue;
        last_key = key;
        last_top = u;
        auto [it, added] = owner.try_emplace(key, u);
        if (!added && it->second != u) groups.Join(it->second, u);
        continue;
      }
      switch (r.kind) {
        case Kind::TestCall:
        case Kind::TestStart:
        case Kind::TestEnd: {
          auto it = gid_of_test.find(r.obj);
          if (it != gid_of_test.end()) join_gid(u, it->second);
          break;
        }
        case Kind::GoSpawn:
        case Kind::BlockedAtTestEnd:
          join_gid(u, r.obj);
          break;
        default:
          break;
      }
    }
  }

  // The groups in trace order (their first record), with their sizes.
  struct Group {
    uint32_t first_stamp = kNone;
    uint64_t records = 0;
    uint32_t window = kNone;
    bool listed = false;  // in roots
  };
  std::vector<Group> of_root(ng + 1);
  std::vector<uint32_t> roots;
  uint64_t total = 0;
  for (uint32_t g = 2; g <= ng; g++) {
    if (top[g] == kNone) continue;
    const trace::Goroutine& gr = t.goroutines[g - 1];
    const uint32_t root = groups.Find(top[g]);
    Group& grp = of_root[root];
    if (!grp.listed) {
      grp.listed = true;
      roots.push_back(root);
    }
    grp.records += gr.end - gr.begin;
    if (gr.begin < gr.end) grp.first_stamp = std::min(grp.first_stamp, t.records[gr.begin].tpre);
    total += gr.end - gr.begin;
  }
  out.groups = roots.size();
  if (roots.size() < 2) return refuse("its tests share their objects");
  std::sort(roots.begin(), roots.end(), [&](uint32_t a, uint32_t b) {
    return of_root[a].first_stamp < of_root[b].first_stamp;
  });
  // Small windows: the clocks of a window of many tests cost more per
  // record than those of one large test (smux: its 28M records of 35 tests
  // took 2.1 GB, its one test of 32M records 1.3 GB). A group larger than
  // the target is a window of its own.
  const uint64_t target = std::max<uint64_t>(min_window_records, (total + max_windows - 1) / max_windows);
  for (uint32_t root : roots) {
    Group& grp = of_root[root];
    if (out.windows.empty() || out.records.back() + grp.records > target) {
      out.windows.emplace_back(ng + 1, 0);
      out.records.push_back(0);
    }
    grp.window = static_cast<uint32_t>(out.windows.size() - 1);
    out.records.back() += grp.records;
  }
  if (out.windows.size() < 2) {
    out.windows.clear();
    out.records.clear();
    return refuse("its tests fit in one window");
  }
  for (uint32_t g = 2; g <= ng; g++) {
    if (top[g] == kNone) continue;
    out.windows[of_root[groups.Find(top[g])].window][g] = 1;
  }
  return out;
}

}  // namespace gordian::pipeline
