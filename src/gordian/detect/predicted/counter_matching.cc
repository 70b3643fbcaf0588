// This file implements the counter matching (counter_matching.h): the
// compact flow network and Dinic's max-flow algorithm on it.
#include "gordian/detect/predicted/counter_matching.h"

#include <algorithm>
#include <limits>

namespace gordian::detect {

namespace {

class Dinic {
 public:
  explicit Dinic(uint32_t n) : head_(n, -1), level_(n), it_(n) {}
  void AddEdge(uint32_t a, uint32_t b, uint64_t cap) {
    e_.push_back({b, head_[a], cap});
    head_[a] = int32_t(e_.size() - 1);
    e_.push_back({a, head_[b], 0});
    head_[b] = int32_t(e_.size() - 1);
  }
  uint64_t MaxFlow(uint32_t s, uint32_t t) {
    uint64_t flow = 0;
    while (Bfs(s, t)) {
      for (size_t i = 0; i < it_.size(); ++i) it_[i] = head_[i];
      while (uint64_t f = Dfs(s, t, kInf)) flow += f;
    }
    return flow;
  }
  // Residual capacity of the k-th edge added (k counts AddEdge calls).
  uint64_t Residual(size_t k) const { return e_[2 * k].cap; }

 private:
  static constexpr uint64_t kInf = std::numeric_limits<uint64_t>::max() / 4;
  struct E {
    uint32_t to;
    int32_t next;
    uint64_t cap;
  };
  bool Bfs(uint32_t s, uint32_t t) {
    std::fill(level_.begin(), level_.end(), -1);
    std::vector<uint32_t> q{s};
    level_[s] = 0;
    for (size_t k = 0; k < q.size(); ++k) {
      for (int32_t e = head_[q[k]]; e >= 0; e = e_[e].next) {
        if (e_[e].cap > 0 && level_[e_[e].to] < 0) {
          level_[e_[e].to] = level_[q[k]] + 1;
          q.push_back(e_[e].to);
        }
      }
    }
    return level_[t] >= 0;
  }
  // Iterative DFS would avoid deep recursion; paths here have length <= 3 +
  // the number of increments of one goroutine, so recursion depth is bounded
  // by that chain. Use an explicit stack to be safe.
  uint64_t Dfs(uint32_t s, uint32_t t, uint64_t limit) {
    std::vector<uint32_t> path_edges;
    std::vector<uint32_t> stack{s};
    while (!stack.empty()) {
      uint32_t v = stack.back();
      if (v == t) {
        uint64_t f = limit;
        for (uint32_t e : path_edges) f = std::min(f, e_[e].cap);
        for (uint32_t e : path_edges) {
          e_[e].cap -= f;
          e_[e ^ 1].cap += f;
        }
        return f;
      }
      bool advanced = false;
      for (int32_t& e = it_[v]; e >= 0; e = e_[e].next) {
        uint32_t w = e_[e].to;
        if (e_[e].cap > 0 && level_[w] == level_[v] + 1) {
          path_edges.push_back(uint32_t(e));
          stack.push_back(w);
          advanced = true;
          break;
        }
      }
      if (!advanced) {
        level_[v] = -1;  // dead end
        stack.pop_back();
        if (!path_edges.empty()) {
          path_edges.pop_back();
          // Skip the edge that led here.
          uint32_t u = stack.back();
          it_[u] = e_[it_[u]].next;
        }
      }
    }
    return 0;
  }

  std::vector<int32_t> head_;
  std::vector<E> e_;
  std::vector<int32_t> level_;
  std::vector<int32_t> it_;
};

// The index one past the last of adds[b, e) that happens before rec (the
// increments of one goroutine that happen before a decrement are a prefix).
uint32_t SeenPrefix(const hb::HappensBefore& hb, const std::vector<CounterOp>& adds, uint32_t b,
                    uint32_t e, uint32_t rec) {
  uint32_t lo = b, hi = e;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (hb.Before(adds[mid].rec, rec)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// All increments in one goroutine (the usual WaitGroup: the spawning
// goroutine Adds, the workers Done). Then the decrements' neighbourhoods are
// nested prefixes, and Hall's condition needs checking only on them: every
// prefix p of the increments must supply the decrements that see no more
// than p. Linear after the binary searches, where the flow network has a
// chain as long as the increments and costs their square. The witness is
// the first decrement (in trace order) that sees exactly the smallest
// prefix that falls short (one exists: the shortfall begins there).
CounterResult MatchOneGoroutine(const hb::HappensBefore& hb, const std::vector<CounterOp>& adds,
                                const std::vector<CounterOp>& dones) {
  CounterResult res;
  const uint32_t n = uint32_t(adds.size());
  std::vector<uint32_t> seen(dones.size());
  std::vector<uint64_t> demand(n + 1, 0);
  for (uint32_t k = 0; k < dones.size(); ++k) {
    seen[k] = SeenPrefix(hb, adds, 0, n, dones[k].rec);
    demand[seen[k]] += dones[k].weight;
  }
  uint64_t need = 0, supply = 0;
  for (uint32_t p = 0; p <= n; ++p) {
    if (p > 0) supply += adds[p - 1].weight;
    need += demand[p];
    if (need <= supply) continue;
    res.safe = false;
    for (uint32_t k = 0; k < dones.size(); ++k) {
      if (seen[k] == p) {
        res.unmatched = dones[k].rec;
        break;
      }
    }
    return res;
  }
  return res;
}

}  // namespace

CounterResult MatchCounter(const hb::HappensBefore& hb, const std::vector<CounterOp>& adds,
                           const std::vector<CounterOp>& dones, uint64_t max_edges) {
  CounterResult res;
  if (dones.empty()) return res;
  // Increments grouped by goroutine, in program order.
  std::vector<std::pair<uint32_t, uint32_t>> groups;  // [begin, end) into adds
  for (uint32_t k = 0; k < adds.size();) {
    trace::GoroutineIndex g = hb.ops().GoroutineIndexOf(adds[k].rec);
    uint32_t j = k;
    while (j < adds.size() && hb.ops().GoroutineIndexOf(adds[j].rec) == g) ++j;
    groups.push_back({k, j});
    k = j;
  }
  if (groups.size() <= 1) return MatchOneGoroutine(hb, adds, dones);
  if (uint64_t(dones.size()) * (groups.size() + 1) + adds.size() * 2 > max_edges) {
    res.gave_up = true;
    return res;
  }
  // Nodes: 0 = source, 1 = sink, 2.. dones, then adds.
  const uint32_t kS = 0, kT = 1, kD = 2, kA = 2 + uint32_t(dones.size());
  Dinic net(kA + uint32_t(adds.size()));
  uint64_t need = 0;
  for (uint32_t k = 0; k < dones.size(); ++k) {
    net.AddEdge(kS, kD + k, dones[k].weight);  // edge k
    need += dones[k].weight;
  }
  const uint64_t inf = ~0ull / 8;
  for (uint32_t k = 0; k < adds.size(); ++k) net.AddEdge(kA + k, kT, adds[k].weight);
  for (const auto& [b, e] : groups) {
    for (uint32_t k = b + 1; k < e; ++k) net.AddEdge(kA + k, kA + k - 1, inf);
  }
  for (uint32_t k = 0; k < dones.size(); ++k) {
    for (const auto& [b, e] : groups) {
      // Largest j in [b, e) with adds[j] happening before the done.
      uint32_t lo = SeenPrefix(hb, adds, b, e, dones[k].rec);
      if (lo > b) net.AddEdge(kD + k, kA + lo - 1, inf);
    }
  }
  uint64_t flow = net.MaxFlow(kS, kT);
  if (flow >= need) return res;
  res.safe = false;
  for (uint32_t k = 0; k < dones.size(); ++k) {
    if (net.Residual(k) > 0) {
      res.unmatched = dones[k].rec;
      break;
    }
  }
  return res;
}

trace::RecordId ConcurrentAdd(const hb::HappensBefore& hb, const std::vector<CounterOp>& adds,
                              trace::RecordId dec) {
  for (const CounterOp& a : adds) {
    if (hb.Concurrent(a.rec, dec)) return a.rec;
  }
  return hb::kNoRecord;
}

}  // namespace gordian::detect
