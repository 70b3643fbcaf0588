// This file implements RewriteFinding (rewrite.h): the per-kind plans and
// the one linearization they all share.
//
// Linearization. Given the bug's operations B in the buggy order and a
// happens-before engine E:
//   1. Per goroutine h, the prefix of its controlled operations that the
//      schedule lists: up to its last bug operation, and at least up to the
//      last operation that E-happens before some bug operation (Before is
//      monotone along program order, so a binary search finds it). The
//      union S is closed under E's past of B: nothing a bug operation
//      depends on is left out, and nothing is added that it does not need
//      (everything else waits until the schedule is done: free run).
//   2. Edges over S: program order, for each operation n and each other
//      goroutine h the last operation of h that E-happens before n, and the
//      chain B[0] -> B[1] -> ... (the buggy order). Edges implied by others
//      are left out (the order below is the same): n is asked about only
//      the goroutines it knows more of than its previous operation, or than
//      the operation it synchronised with (which gets an edge), whichever
//      are fewer.
//   3. Kahn's algorithm: among ready operations, those not in B go first in
//      recorded order (OrderKey), so the prefix looks like the recorded run;
//      a bug operation is placed only when nothing else is ready. If the
//      buggy order contradicts E (a cycle), the finding is not rewritable.
// Every order this produces is consistent with E, and so realisable by the
// program if E captures all its synchronisation (the same assumption the
// prediction made); the replay then observes whether it is.
#include "gordian/rewrite/rewrite.h"

#include <algorithm>
#include <filesystem>
#include <queue>
#include <span>
#include <unordered_map>

#include <fmt/format.h>

#include "gordian/detect/rewrite_plan.h"
#include "gordian/hb/op_index.h"
#include "gordian/schedule/goroutine_ops.h"
#include "gordian/schedule/from_trace.h"

namespace gordian::rewrite {

using detect::BugOp;
using detect::Plan;
using schedule::GoroutineOps;
using schedule::kChoiceDefault;
using schedule::kChoiceFree;
using schedule::Op;
using schedule::Schedule;
using trace::Kind;
using trace::Record;
namespace fs = std::filesystem;

static_assert(detect::kChoiceRecorded == kChoiceFree && detect::kChoiceDefault == kChoiceDefault,
              "detect/rewrite_plan.h and schedule.h must agree on select choices");

namespace {

struct Controlled {
  static constexpr uint32_t kNone = UINT32_MAX;
  Controlled(const trace::Trace& t, const hb::OpIndex& op_index)
      : ops(t, GoroutineOps::Lookup::kByIndex), index(op_index), records(t.records.size()) {}
  // Per goroutine index: its controlled records.
  std::span<const uint32_t> Recs(size_t g) const { return ops.Ops(g); }
  // rec's index among its goroutine's controlled records, kNone if it is
  // not one. A binary search in that goroutine's records: an array over
  // every record of a 60M-record suite cost 250 MB for the few rewrites
  // made of it (and a hash map, the rewrite's slowest lookups).
  uint32_t PosOf(uint32_t rec) const {
    if (rec >= records) return kNone;
    const size_t g = trace::Value(index.GoroutineIndexOf(rec));
    if (g >= ops.goroutines()) return kNone;
    std::span<const uint32_t> recs = ops.Ops(g);
    auto it = std::lower_bound(recs.begin(), recs.end(), rec);
    return it != recs.end() && *it == rec ? static_cast<uint32_t>(it - recs.begin()) : kNone;
  }

  GoroutineOps ops;
  const hb::OpIndex& index;
  size_t records;
};

// Largest k < limit with Before(recs[k], b), or -1.
int64_t LastBefore(const hb::HappensBefore& e, std::span<const uint32_t> recs, size_t limit,
                   uint32_t b) {
  return e.LastBefore(recs.first(std::min(limit, recs.size())), b);
}

// The linearization of one plan (the steps of the comment at the top of
// this file), as a class: the steps share the cut, the node numbering, and
// what the search count found for each node.
class Linearization {
 public:
  Linearization(const trace::Trace& t, const hb::HappensBefore& e, const Controlled& c,
                const Plan& plan)
      : t_(t), e_(e), c_(c), plan_(plan), ng_(t.goroutines.size()) {}

  bool Run(const std::string& trace_dir, std::string_view origin, std::string_view expect,
           Rewrite* out, std::string* err) {
    std::vector<uint32_t> order;
    if (TooLargeToRewrite(t_, e_.ops(), plan_, err) || !Cut(err)) return false;
    if (n_ > kMaxPastOperations) {
      *err = fmt::format("the bug's past is too large to rewrite ({} operations, more than {})", n_,
                         kMaxPastOperations);
      return false;
    }
    if (!CountSearches(err)) return false;
    AddEdges();
    if (!Order(&order, err)) return false;
    WriteSchedule(trace_dir, origin, expect, order, out);
    return true;
  }

 private:
  using NodeRec = std::pair<size_t, uint32_t>;  // (node, record); SIZE_MAX, kNoRecord: none
  static constexpr NodeRec kNoNode{SIZE_MAX, hb::kNoRecord};
  // The edges below cost one binary search per (operation, goroutine whose
  // knowledge it gained), and a node per operation; past this many of both
  // the rewrite gives up.
  static constexpr uint64_t kMaxSearches = 50'000'000;
  static constexpr size_t kSmallGain = 64;
  static constexpr size_t kMaxKeptAsks = size_t{1} << 24;  // 64 MB
  static constexpr size_t kCountFirstAbove = size_t{1} << 20;
  static constexpr uint32_t kAskEvery = UINT32_MAX;        // in ask_begin_: the node asks every goroutine

  // Step 1: the prefix of each goroutine's controlled operations the
  // schedule lists (cut_), and the nodes: (h, k) for k < cut_[h], numbered
  // goroutine by goroutine (base_).
  bool Cut(std::string* err) {
    cut_.assign(ng_, 0);
    for (size_t i = 0; i < plan_.bug.size(); i++) {
      uint32_t b = plan_.bug[i].rec;
      const uint32_t p = c_.PosOf(b);
      if (p == Controlled::kNone) {
        *err = fmt::format("operation at {} is not one a schedule orders",
                           SiteText(t_, t_.records[b]));
        return false;
      }
      if (!bug_at_.emplace(b, i).second) {
        *err = "the bug's operations repeat";
        return false;
      }
      uint32_t gb = trace::Value(e_.ops().GoroutineIndexOf(b));
      cut_[gb] = std::max<size_t>(cut_[gb], p + 1);
      for (size_t h = 0; h < ng_; h++) {
        if (h == gb || c_.Recs(h).empty()) continue;
        int64_t k = LastBefore(e_, c_.Recs(h), c_.Recs(h).size(), b);
        cut_[h] = std::max<size_t>(cut_[h], static_cast<size_t>(k + 1));
      }
    }
    base_.assign(ng_ + 1, 0);
    for (size_t h = 0; h < ng_; h++) base_[h + 1] = base_[h] + cut_[h];
    n_ = base_[ng_];
    return true;
  }

  // Each operation waits for the last operation of every other goroutine
  // that happens before it. Only where its clock knows more than the
  // previous operation of its goroutine can that last operation be a later
  // one (the same knowledge gives the same answer, and that edge already
  // reaches it through the previous operation), so only those goroutines
  // are asked: a past of 100,000 short goroutines costs the clock entries
  // that changed, not operations x goroutines. The edges left out are
  // implied by the ones kept, so the order Kahn's sort picks is the same.
  // A goroutine's first operation compares with its parent's last operation
  // before the go statement (it knows what that one knew), with an edge from
  // it: without one it would compare with the zero clock, and 100,000
  // goroutines spawned by a main that knows all the earlier ones would cost
  // their square.
  NodeRec Spawner(size_t h) const {
    trace::RecordId sr = e_.ops().SpawnOfIndex(trace::GoroutineIndex(static_cast<uint32_t>(h)));
    if (sr == trace::kNoRecord) return kNoNode;
    size_t p = trace::Value(e_.ops().GoroutineIndexOf(sr));
    std::span<const uint32_t> pr = c_.Recs(p);
    size_t k = static_cast<size_t>(std::lower_bound(pr.begin(), pr.begin() + cut_[p], sr) - pr.begin());
    if (k == 0) return kNoNode;
    return {base_[p] + k - 1, pr[k - 1]};
  }
  // The record operation (h, k) compares with (kNoRecord: the zero clock),
  // and the node of an edge that comes with that choice (SIZE_MAX: none).
  NodeRec BaseOf(size_t h, size_t k) const {
    if (k > 0) return {SIZE_MAX, c_.Recs(h)[k - 1]};  // program order: its own edge
    return Spawner(h);
  }
  // m as a cover of record r of goroutine h (CoverOf), or none.
  NodeRec NodeOfCover(size_t h, uint32_t r, uint32_t m) const {
    if (m == hb::kNoRecord) return kNoNode;
    m = e_.ops().Owner(m);
    size_t gm = trace::Value(e_.ops().GoroutineIndexOf(m));
    if (gm == h || gm >= ng_) return kNoNode;
    const uint32_t p = c_.PosOf(m);
    if (p == Controlled::kNone || p >= cut_[gm] || !e_.Before(m, r)) return kNoNode;
    return {base_[gm] + p, m};
  }
  // A cover of what (h, k) learnt: an operation m of another goroutine
  // that happens before it and that it synchronised with (its channel
  // partner, else the latest operation on its object that happens before
  // it: the Unlock before a Lock, the Done before a Wait). Everything m's
  // past holds is already ordered before m, so with the edge m -> (h, k)
  // only the goroutines of which (h, k) knows more than m need asking.
  // Worker i's Lock after worker i-1's Unlock knows every earlier worker
  // that its own previous operation did not, but hardly more than that
  // Unlock: a few questions where the gain over its goroutine is thousands.
  NodeRec CoverOf(size_t h, size_t k) const {
    const uint32_t r = c_.Recs(h)[k];
    if (NodeRec via = NodeOfCover(h, r, e_.Partner(r)); via.first != SIZE_MAX) return via;
    const Record& rr = t_.records[r];
    trace::ObjClass cls = trace::ClassOf(rr.kind);
    if (cls == trace::ObjClass::None) return kNoNode;
    std::span<const uint32_t> by = e_.ops().OpsByStamp(cls, trace::ObjectId(rr.obj));
    // The operations that began before r completed (r waited for one of them).
    const uint32_t until = rr.tpost != 0 ? rr.tpost : rr.tpre;
    auto it = std::partition_point(by.begin(), by.end(),
                                   [&](uint32_t x) { return t_.records[x].tpre < until; });
    for (int tries = 0; tries < 8 && it != by.begin(); tries++) {
      if (NodeRec near = NodeOfCover(h, r, *--it); near.first != SIZE_MAX) return near;
    }
    return kNoNode;
  }
  // The goroutines to ask about (h, k) into gained_, given its cover
  // (kNoRecord: none) and its base record: false when every one must be.
  // Of the two supersets (what it knows beyond the cover, beyond its base)
  // the smaller.
  bool OthersOf(size_t h, size_t k, uint32_t prev, uint32_t cover) {
    const uint32_t r = c_.Recs(h)[k];
    gained_.clear();
    if (cover != hb::kNoRecord && e_.KnowledgeGained(cover, r, &gained_)) {
      if (gained_.size() <= kSmallGain) return true;
      beyond_base_.clear();
      if (e_.KnowledgeGained(prev, r, &beyond_base_) && beyond_base_.size() < gained_.size()) {
        gained_.swap(beyond_base_);
      }
      return true;
    }
    gained_.clear();
    return e_.KnowledgeGained(prev, r, &gained_);
  }

  // First count the searches, so that a past too large to rewrite is
  // refused before any is made (the differences cost far less).
  // Each node's cover is found once, here, and kept for the edges below.
  // The goroutines to ask about each node are kept for the edges too (the
  // differences of clocks are half the rewrite's questions), up to a bound
  // on their number; past it they are found again there. A past of more
  // than kCountFirstAbove nodes is counted once keeping nothing, so that
  // one refused costs no memory (on a 60M-record suite, 9.6M nodes: 300 MB
  // of covers and asks kept only to be dropped).
  bool CountSearches(std::string* err) {
    if ((n_ > kCountFirstAbove && Count(false) > kMaxSearches) || Count(true) > kMaxSearches) {
      *err = fmt::format("the bug's past is too large to rewrite ({} operations, and more than {}M "
                         "questions about which operations come before which)",
                         n_, kMaxSearches / 1'000'000);
      return false;
    }
    return true;
  }
  // The searches the edges cost, up to just past kMaxSearches; with keep,
  // what CountSearches keeps for the edges.
  uint64_t Count(bool keep) {
    uint64_t searches = n_;
    if (keep) {
      covers_.assign(n_, kNoNode);
      ask_begin_.assign(n_, 0);
      ask_end_.assign(n_, 0);
    }
    for (size_t h = 0; h < ng_ && searches <= kMaxSearches; h++) {
      for (size_t k = 0; k < cut_[h] && searches <= kMaxSearches; k++) {
        const size_t id = base_[h] + k;
        const NodeRec cover = CoverOf(h, k);
        const bool some = OthersOf(h, k, BaseOf(h, k).second, cover.second);
        searches += some ? gained_.size() : ng_;
        if (!keep) continue;
        covers_[id] = cover;
        if (!kept_asks_) continue;
        ask_begin_[id] = some ? static_cast<uint32_t>(asks_.size()) : kAskEvery;
        if (some) asks_.insert(asks_.end(), gained_.begin(), gained_.end());
        ask_end_[id] = static_cast<uint32_t>(asks_.size());
        if (asks_.size() > kMaxKeptAsks) {
          kept_asks_ = false;
          std::vector<uint32_t>().swap(asks_);
        }
      }
    }
    return searches;
  }

  void Edge(size_t a, size_t b) {
    edges_.emplace_back(static_cast<uint32_t>(a), static_cast<uint32_t>(b));
    deps_[b]++;
  }
  size_t NodeOf(uint32_t rec) const {
    uint32_t g = trace::Value(e_.ops().GoroutineIndexOf(rec));
    return base_[g] + c_.PosOf(rec);
  }

  // Step 2: the edges over the nodes (see the top of this file), as
  // (from, to) pairs, made into a flat successor list before the sort (a
  // vector per node cost an allocation per operation).
  void AddEdges() {
    rec_of_.assign(n_, 0);
    deps_.assign(n_, 0);
    edges_.reserve(3 * n_);
    std::vector<uint32_t> every;
    for (size_t h = 0; h < ng_; h++) {
      for (size_t k = 0; k < cut_[h]; k++) {
        size_t id = base_[h] + k;
        uint32_t r = c_.Recs(h)[k];
        rec_of_[id] = r;
        if (k > 0) Edge(id - 1, id);
        auto [node, prev] = BaseOf(h, k);
        if (node != SIZE_MAX) Edge(node, id);
        auto [cover_node, cover] = covers_[id];
        if (cover_node != SIZE_MAX) Edge(cover_node, id);
        std::span<const uint32_t> others;
        bool every_one;
        if (kept_asks_) {
          every_one = ask_begin_[id] == kAskEvery;
          if (!every_one) {
            others = std::span<const uint32_t>(asks_.data() + ask_begin_[id],
                                               ask_end_[id] - ask_begin_[id]);
          }
        } else {
          every_one = !OthersOf(h, k, prev, cover);
          others = gained_;
        }
        if (every_one) {
          if (every.empty()) {
            for (size_t o = 0; o < ng_; o++) every.push_back(static_cast<uint32_t>(o));
          }
          others = every;
        }
        for (uint32_t o : others) {
          if (o == h || cut_[o] == 0) continue;
          int64_t j = LastBefore(e_, c_.Recs(o), cut_[o], r);
          if (j >= 0) Edge(base_[o] + static_cast<size_t>(j), id);
        }
      }
    }
    for (size_t i = 1; i < plan_.bug.size(); i++) {
      Edge(NodeOf(plan_.bug[i - 1].rec), NodeOf(plan_.bug[i].rec));
    }
    AddWaitGroupEdges();
  }

  // A Wait of the schedule must find the counter as the relation assumes.
  // E orders an Add before a Wait only when the recorded Wait depended on it;
  // an Add that E leaves unordered (the Add-inside-the-goroutine bug) is, in
  // the schedule, placed after the Wait: listed before it, it would raise the
  // counter and the Wait would block for a Done the schedule puts later.
  void AddWaitGroupEdges() {
    for (size_t h = 0; h < ng_; h++) {
      for (size_t k = 0; k < cut_[h]; k++) {
        uint32_t w = c_.Recs(h)[k];
        if (t_.records[w].kind != Kind::WgWait || t_.records[w].tpost == 0) continue;
        uint32_t wg = e_.ops().ObjectOf(w);
        if (wg == hb::kNoObject) continue;
        for (uint32_t a : e_.ops().Ops(hb::ObjClass::WaitGroup, wg)) {
          const Record& ra = t_.records[a];
          if (ra.kind != Kind::WgAdd || static_cast<int32_t>(ra.val) <= 0) continue;
          if (e_.ops().GidOf(a) == e_.ops().GidOf(w) || e_.Before(a, w)) continue;
          const uint32_t pa = c_.PosOf(a);
          if (pa == Controlled::kNone || pa >= cut_[trace::Value(e_.ops().GoroutineIndexOf(a))]) continue;
          Edge(base_[h] + k, NodeOf(a));
        }
      }
    }
  }

  // Step 3: Kahn's algorithm, non-bug operations first, in recorded order.
  bool Order(std::vector<uint32_t>* order, std::string* err) {
    const size_t n = n_;
    std::vector<uint32_t> succ_begin(n + 1, 0), succ(edges_.size());
    for (const auto& [a, b] : edges_) succ_begin[a + 1]++;
    for (size_t i = 0; i < n; i++) succ_begin[i + 1] += succ_begin[i];
    {
      std::vector<uint32_t> fill(succ_begin.begin(), succ_begin.end() - 1);
      for (const auto& [a, b] : edges_) succ[fill[a]++] = b;
    }
    std::vector<std::pair<uint32_t, uint32_t>>().swap(edges_);
    using Item = std::pair<uint64_t, uint32_t>;  // (OrderKey, node)
    std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
    std::vector<uint32_t> ready_bug;
    auto push = [&](size_t id) {
      if (bug_at_.count(rec_of_[id])) ready_bug.push_back(static_cast<uint32_t>(id));
      else ready.push({schedule::OrderKey(t_.records[rec_of_[id]]), static_cast<uint32_t>(id)});
    };
    for (size_t id = 0; id < n; id++) {
      if (deps_[id] == 0) push(id);
    }
    order->reserve(n);
    while (order->size() < n) {
      uint32_t id;
      if (!ready.empty()) {
        id = ready.top().second;
        ready.pop();
      } else if (!ready_bug.empty()) {
        id = ready_bug.back();
        ready_bug.pop_back();
      } else {
        *err = "the buggy order contradicts happens-before (no schedule of this run has it)";
        return false;
      }
      order->push_back(id);
      for (uint32_t i = succ_begin[id]; i < succ_begin[id + 1]; i++) {
        if (--deps_[succ[i]] == 0) push(succ[i]);
      }
    }
    return true;
  }

  // The schedule of the order, and what its replay must show.
  void WriteSchedule(const std::string& trace_dir, std::string_view origin,
                     std::string_view expect, const std::vector<uint32_t>& order,
                     Rewrite* out) const {
    Schedule& s = out->schedule;
    s = Schedule();
    s.cmd = schedule::InvocationOf(t_, trace_dir);
    s.origin = fmt::format("{} of trace {}", origin,
                           fs::absolute(trace_dir).lexically_normal().string());
    s.expect = std::string(expect);
    std::unordered_map<uint32_t, uint32_t> sid = schedule::ScheduleGoroutines(t_, &s);
    out->expect.clear();
    // Each site's text made once (a schedule of 700,000 operations has a few
    // dozen sites), and the operations' vector sized once.
    std::vector<std::string> site_text(t_.sites.size());
    auto text_of = [&](const Record& rec) -> const std::string& {
      static const std::string unknown = "?";
      if (rec.site >= site_text.size()) return unknown;
      std::string& text = site_text[rec.site];
      if (text.empty()) text = SiteText(t_, rec);
      return text;
    };
    s.ops.reserve(order.size());
    for (uint32_t id : order) {
      uint32_t r = rec_of_[id];
      const Record& rec = t_.records[r];
      uint32_t gid = trace::Value(e_.ops().GidOf(r));
      Op op;
      op.g = sid.at(gid);
      op.kind = rec.kind;
      op.obj = rec.obj;
      op.val = rec.val;
      op.flags = rec.flags;
      op.index = c_.PosOf(r);
      op.site = text_of(rec);
      op.blocks = rec.tpost == 0;
      if (rec.kind == Kind::Select && rec.tpost != 0) {
        op.choice = rec.val == trace::kDefaultCase ? kChoiceDefault : static_cast<int32_t>(rec.val);
      }
      auto b = bug_at_.find(r);
      if (b != bug_at_.end()) {
        const BugOp& bo = plan_.bug[b->second];
        if (bo.choice != kChoiceFree) op.choice = bo.choice;
        if (bo.expect == Expect::Blocked) op.blocks = true;
      }
      s.ops.push_back(std::move(op));
    }
    for (const BugOp& bo : plan_.bug) {
      if (!bo.check) continue;
      const Record& rec = t_.records[bo.rec];
      Expectation x;
      x.goroutine = t_.goroutines[trace::Value(e_.ops().GoroutineIndexOf(bo.rec))].stable_id;
      x.index = c_.PosOf(bo.rec);
      x.kind = rec.kind;
      x.site = SiteText(t_, rec);
      x.choice = bo.choice;
      x.expect = bo.expect;
      out->expect.push_back(std::move(x));
    }
    for (uint32_t call : plan_.after_end) AddAfterEnd(call, sid, out);
    out->how = plan_.how;
  }

  // The after_end line of TestCall record call, and its expectation: the
  // call counts among its goroutine's TestCalls as the runtime counts them.
  void AddAfterEnd(uint32_t call, const std::unordered_map<uint32_t, uint32_t>& sid,
                   Rewrite* out) const {
    const uint32_t gi = trace::Value(e_.ops().GoroutineIndexOf(call));
    const trace::Goroutine& g = t_.goroutines[gi];
    uint32_t nth = 0;
    for (uint32_t r = g.begin; r <= call; r++) nth += t_.records[r].kind == Kind::TestCall;
    out->schedule.after_end.push_back(schedule::AfterEnd{sid.at(g.gid), nth});
    Expectation x;
    x.goroutine = g.stable_id;
    x.index = nth - 1;
    x.kind = Kind::TestCall;
    x.site = SiteText(t_, t_.records[call]);
    x.expect = Expect::AfterTestEnd;
    out->expect.push_back(std::move(x));
  }

  const trace::Trace& t_;
  const hb::HappensBefore& e_;
  const Controlled& c_;
  const Plan& plan_;
  const size_t ng_;
  std::vector<size_t> cut_;                      // per goroutine: its operations listed
  std::unordered_map<uint32_t, size_t> bug_at_;  // rec -> position in plan.bug
  std::vector<size_t> base_;                     // per goroutine: its first node
  size_t n_ = 0;                                 // nodes
  std::vector<NodeRec> covers_;                  // per node: CoverOf
  // The goroutines each node asks about (OthersOf), while they are few
  // enough to keep: asks_[ask_begin_[id], ask_end_[id]).
  bool kept_asks_ = true;
  std::vector<uint32_t> asks_, ask_begin_, ask_end_;
  std::vector<uint32_t> gained_, beyond_base_;  // OthersOf's answer, and its scratch
  std::vector<uint32_t> rec_of_, deps_;         // per node: its record, its unplaced predecessors
  std::vector<std::pair<uint32_t, uint32_t>> edges_;
};

bool Linearize(const trace::Trace& t, const std::string& trace_dir, const hb::HappensBefore& e,
               const Controlled& c, const Plan& plan, std::string_view origin,
               std::string_view expect, Rewrite* out, std::string* err) {
  return Linearization(t, e, c, plan).Run(trace_dir, origin, expect, out, err);
}

}  // namespace

bool Rewritable(report::FindingKind k) { return detect::RewriteOf(k).plan != nullptr; }

bool TooLargeToRewrite(const trace::Trace& t, const hb::OpIndex& ops, const detect::Plan& plan,
                       std::string* why, size_t max) {
  // Per goroutine index: the last of its records known to be in the past.
  std::unordered_map<uint32_t, uint32_t> upto;
  for (const BugOp& b : plan.bug) {
    if (b.rec >= t.records.size()) continue;
    uint32_t rec = b.rec;
    // The bug operation's goroutine up to it, then each ancestor up to the
    // go statement of the one before (a spawn happens before the child).
    for (int depth = 0; depth < 1'000'000 && rec != hb::kNoRecord; depth++) {
      const uint32_t g = trace::Value(ops.GoroutineIndexOf(rec));
      if (g >= t.goroutines.size()) break;
      auto [it, fresh] = upto.try_emplace(g, rec);
      if (!fresh) {
        if (it->second >= rec) break;  // its ancestors are counted already
        it->second = rec;
      }
      rec = ops.SpawnOfIndex(trace::GoroutineIndex(g));
    }
  }
  size_t n = 0;
  for (const auto& [g, last] : upto) {
    const trace::Goroutine& gr = t.goroutines[g];
    if (gr.stable_id.empty()) continue;  // not ordered by a schedule
    for (uint32_t i = gr.begin; i <= last && i < gr.end; i++) n += schedule::IsControlled(t.records[i].kind);
  }
  if (n <= max) return false;
  *why = fmt::format("the bug's past is too large to rewrite (at least {} operations, more than {})", n,
                     max);
  return true;
}

bool RewriteFinding(const trace::Trace& t, const std::string& trace_dir,
                    const hb::HappensBefore& hb, const hb::HappensBefore* weak,
                    const report::Finding& f, Rewrite* out, std::string* err) {
  if (f.records.empty()) {
    *err = "the finding carries no trace records";
    return false;
  }
  for (uint32_t r : f.records) {
    if (r >= t.records.size()) {
      *err = "the finding's records are not of this trace";
      return false;
    }
  }
  if (!Rewritable(f.kind)) {
    *err = fmt::format("{} findings are not rewritten into schedules", report::KindName(f.kind));
    return false;
  }
  std::vector<Plan> plans;
  if (!detect::RewriteOf(f.kind).plan(detect::PlanInput{t, hb, weak, f}, &plans, err)) {
    return false;
  }
  if (plans.empty()) {
    *err = fmt::format("this {} finding does not carry the operations a rewrite needs",
                       report::KindName(f.kind));
    return false;
  }
  const Controlled c(t, hb.ops());
  const std::string origin = fmt::format("rewrite {}", report::KindName(f.kind));
  const std::string_view expect = report::KindName(f.kind);
  // The plans best first: all but the last are tried on the side.
  for (size_t i = 0; i + 1 < plans.size(); i++) {
    const hb::HappensBefore& e = plans[i].weak ? *weak : hb;
    Rewrite tried;
    std::string why;
    if (Linearize(t, trace_dir, e, c, plans[i], origin, expect, &tried, &why)) {
      *out = std::move(tried);
      return true;
    }
  }
  return Linearize(t, trace_dir, plans.back().weak ? *weak : hb, c, plans.back(), origin, expect,
                   out, err);
}

bool RewritePlan(const trace::Trace& t, const std::string& trace_dir, const hb::HappensBefore& e,
                 const detect::Plan& plan, std::string_view origin, Rewrite* out,
                 std::string* err) {
  for (const BugOp& b : plan.bug) {
    if (b.rec >= t.records.size()) {
      *err = "the plan's records are not of this trace";
      return false;
    }
  }
  return Linearize(t, trace_dir, e, Controlled(t, e.ops()), plan, origin, "", out, err);
}

namespace {

// Whether goroutine x.goroutine's testing call #x.index (among its
// TestCalls) at x.site ran after its test's TestEnd ("" = yes, else why
// not): what occurred/testing_misuse.cc reports as testing-after-end.
std::string CheckCallAfterTestEnd(const Expectation& x, const trace::Trace& t) {
  std::string what =
      fmt::format("goroutine {} testing call #{} (at {})", x.goroutine, x.index + 1, x.site);
  const trace::Goroutine* g = nullptr;
  for (const trace::Goroutine& c : t.goroutines) {
    if (c.stable_id == x.goroutine) g = &c;
  }
  if (g == nullptr) return what + " did not happen (no such goroutine)";
  uint32_t seen = 0;
  for (uint32_t i = g->begin; i < g->end; i++) {
    const Record& r = t.records[i];
    if (r.kind != Kind::TestCall || seen++ != x.index) continue;
    if (x.site != "?" && !schedule::SiteIs(t, r, x.site)) {
      return fmt::format("{}: the replay's call was at {}", what, SiteText(t, r));
    }
    for (const Record& e : t.records) {
      if (e.kind == Kind::TestEnd && e.obj == r.obj) {
        if (r.tpre > e.tpre) return "";
        return what + " ran before its test ended";
      }
    }
    return what + ": its test never ended";
  }
  return what + " did not happen";
}

}  // namespace

bool EndedInGlobalDeadlock(const trace::Trace& t) {
  // The watchdog's record is among the last ones: look from the end.
  return std::any_of(t.records.rbegin(), t.records.rend(),
                     [](const trace::Record& r) { return r.kind == trace::Kind::GlobalDeadlock; });
}

std::string CheckExpectations(const std::vector<Expectation>& ex, const trace::Trace& t) {
  const GoroutineOps controlled(t);
  for (const Expectation& x : ex) {
    if (x.expect == Expect::AfterTestEnd) {
      if (std::string miss = CheckCallAfterTestEnd(x, t); !miss.empty()) return miss;
      continue;
    }
    std::string what = fmt::format("goroutine {} operation #{} ({} at {})", x.goroutine, x.index,
                                   schedule::KindName(x.kind), x.site);
    std::span<const uint32_t> recs = controlled.Of(x.goroutine);
    if (x.index >= recs.size()) return what + " did not happen";
    uint32_t i = recs[x.index];
    const Record& r = t.records[i];
    if (r.kind != x.kind || (x.site != "?" && !schedule::SiteIs(t, r, x.site))) {
      return fmt::format("{}: the replay did {} at {}", what, schedule::KindName(r.kind), SiteText(t, r));
    }
    switch (x.expect) {
      case Expect::Completed:
        if (r.tpost == 0) return what + " did not complete";
        break;
      case Expect::Blocked:
        if (r.tpost != 0) return what + " completed (no deadlock)";
        break;
      case Expect::Closed:
        if (!(r.flags & trace::kClosed)) return what + " did not find the channel closed";
        break;
      case Expect::Failed:
        if (!(r.flags & trace::kFailed)) return what + " did not fail";
        break;
      case Expect::SelectCaseClosed: {
        bool hit = (r.flags & trace::kClosed) != 0;
        for (uint32_t k = i + 1; k < t.records.size() && t.records[k].kind == Kind::SelectCase;
             k++) {
          if (t.records[k].aux == static_cast<uint32_t>(x.choice) &&
              (t.records[k].flags & trace::kClosed)) {
            hit = true;
          }
        }
        if (!hit) return what + ": the send case did not find the channel closed";
        break;
      }
      case Expect::AfterTestEnd:
        break;  // checked above
    }
  }
  return "";
}

}  // namespace gordian::rewrite
