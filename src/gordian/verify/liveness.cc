// This file owns the liveness search (liveness.h): the unreduced state
// graph built breadth-first with the checker's step function (Stepper),
// then for each candidate (a process that may stay blocked, a buffered
// channel that may stay non-empty) the fair strongly connected components
// of the part of the graph where the candidate's condition holds, refined
// as in Emerson and Lei's algorithm: a choice outcome that is possible in
// a component but never taken in it removes the states where it is
// possible, and the rest is split again; a component left is fair when
// every actor enabled in all its states steps in it (weak fairness needs
// no refinement: a smaller cycle cannot make such an actor step). A fair
// component is shown as a lasso through it that takes every actor and
// choice outcome it needs.
#include "gordian/verify/liveness.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace gordian::verify {
namespace {

using report::FindingKind;
using report::Primitive;

constexpr uint32_t kNone = UINT32_MAX;
constexpr int32_t kMaxActors = 64;  // processes and environment objects: bits of a mask

uint64_t Hash(const int32_t* s, int32_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(n);
  for (int32_t i = 0; i < n; ++i) {
    h = (h ^ static_cast<uint32_t>(s[i])) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  return h;
}

// One move of the graph.
struct Edge {
  uint32_t to = 0;
  uint16_t move = 0;      // its index among the source's moves (Stepper)
  int16_t recv_obj = -1;  // a buffered channel it receives from
  uint64_t procs = 0;     // the processes that step
  uint64_t env = 0;       // the environment object that steps (a bit)
  int32_t label[2] = {-1, -1};  // choice outcomes it takes (ids)
};

// The unreduced graph: states (their words), per state its edges, who is
// enabled, which processes are live, which buffered channels hold values.
struct Graph {
  std::vector<int32_t> words;
  std::vector<uint64_t> start;  // per state, into words; one more at the end
  std::vector<uint32_t> table;  // open addressing: state index + 1, 0 empty
  std::vector<uint32_t> parent;
  std::vector<uint16_t> parent_move;
  std::vector<uint32_t> depth;
  std::vector<uint32_t> edge_begin;  // per expanded state; one more at the end
  std::vector<Edge> edges;
  std::vector<uint64_t> enabled_procs, enabled_env, live, nonempty;
  // Choice outcome ids: (process, template, pc, case, pc after).
  std::unordered_map<std::string, int32_t> label_ids;

  uint32_t size() const { return static_cast<uint32_t>(start.size()) - 1; }
  const int32_t* State(uint32_t i) const { return words.data() + start[i]; }
  int32_t Len(uint32_t i) const { return static_cast<int32_t>(start[i + 1] - start[i]); }

  // The index of s, and whether it is new.
  std::pair<uint32_t, bool> Insert(const int32_t* s, int32_t n) {
    if (static_cast<size_t>(size() + 1) * 2 > table.size()) Grow();
    const size_t mask = table.size() - 1;
    for (size_t i = Hash(s, n) & mask;; i = (i + 1) & mask) {
      if (table[i] == 0) {
        table[i] = size() + 1;
        words.insert(words.end(), s, s + n);
        start.push_back(words.size());
        return {size() - 1, true};
      }
      const uint32_t x = table[i] - 1;
      if (Len(x) == n && std::memcmp(State(x), s, sizeof(int32_t) * n) == 0) return {x, false};
    }
  }
  void Grow() {
    std::vector<uint32_t> t(std::max<size_t>(table.size() * 2, 1 << 10), 0);
    const size_t mask = t.size() - 1;
    for (uint32_t x : table) {
      if (x == 0) continue;
      size_t i = Hash(State(x - 1), Len(x - 1)) & mask;
      while (t[i] != 0) i = (i + 1) & mask;
      t[i] = x;
    }
    table.swap(t);
  }
};

bool IsChoice(const Instr& in) {
  return in.kind == InstrKind::kChoice || in.kind == InstrKind::kSelect ||
         (in.kind == InstrKind::kBranch && in.expr.Unknown());
}

// Scratch space of Components, sized to the graph once: a state's Tarjan
// index and low link are valid when its stamp is the current call's.
struct TarjanScratch {
  explicit TarjanScratch(size_t n) : index(n), low(n), stamp(n, 0), on_stack(n, 0) {}
  std::vector<uint32_t> index, low, stamp;
  std::vector<uint8_t> on_stack;
  uint32_t gen = 0;
};

// The strongly connected components of the states with in[s] == mark, over
// the edges `keep` accepts; only components with an edge inside them.
template <typename Keep>
std::vector<std::vector<uint32_t>> Components(const Graph& g, const std::vector<uint32_t>& nodes,
                                              const std::vector<uint32_t>& in, uint32_t mark, Keep keep,
                                              TarjanScratch& t) {
  std::vector<std::vector<uint32_t>> out;
  const uint32_t gen = ++t.gen;
  std::vector<uint32_t> stack;
  struct Frame {
    uint32_t v, e;
  };
  std::vector<Frame> call;
  uint32_t next = 0;
  const uint32_t expanded = static_cast<uint32_t>(g.edge_begin.size()) - 1;
  auto member = [&](uint32_t v) { return v < expanded && in[v] == mark; };
  auto visit = [&](uint32_t v) {
    t.stamp[v] = gen;
    t.index[v] = t.low[v] = next++;
    stack.push_back(v);
    t.on_stack[v] = 1;
    call.push_back({v, g.edge_begin[v]});
  };
  for (uint32_t root : nodes) {
    if (t.stamp[root] == gen) continue;
    visit(root);
    while (!call.empty()) {
      Frame& f = call.back();
      if (f.e < g.edge_begin[f.v + 1]) {
        const Edge& e = g.edges[f.e++];
        if (!member(e.to) || !keep(e)) continue;
        if (t.stamp[e.to] != gen) {
          visit(e.to);
        } else if (t.on_stack[e.to]) {
          t.low[f.v] = std::min(t.low[f.v], t.index[e.to]);
        }
        continue;
      }
      const uint32_t v = f.v;
      call.pop_back();
      if (!call.empty()) t.low[call.back().v] = std::min(t.low[call.back().v], t.low[v]);
      if (t.low[v] != t.index[v]) continue;
      std::vector<uint32_t> comp;
      for (uint32_t w = kNone; w != v;) {
        w = stack.back();
        stack.pop_back();
        t.on_stack[w] = 0;
        comp.push_back(w);
      }
      // Nontrivial: more than one state, or a self loop.
      bool cyclic = comp.size() > 1;
      for (uint32_t k = g.edge_begin[v]; !cyclic && k < g.edge_begin[v + 1]; ++k)
        cyclic = g.edges[k].to == v && keep(g.edges[k]);
      if (cyclic) out.push_back(std::move(comp));
    }
  }
  return out;
}

class Search {
 public:
  Search(Stepper& st, Graph& g) : st_(st), g_(g), tarjan_(g.size()) {
    in_.assign(g.size(), 0);
  }

  // A fair component of the states `cand` accepts over the edges `keep`
  // accepts; empty when none.
  template <typename Cand, typename Keep>
  std::vector<uint32_t> FairComponent(const std::vector<uint32_t>& cyclic, Cand cand, Keep keep) {
    std::vector<std::vector<uint32_t>> work(1);
    for (uint32_t s : cyclic)
      if (cand(s)) work[0].push_back(s);
    while (!work.empty()) {
      std::vector<uint32_t> set = std::move(work.back());
      work.pop_back();
      const uint32_t mark = ++mark_;
      for (uint32_t s : set) in_[s] = mark;
      for (std::vector<uint32_t>& c : Components(g_, set, in_, mark, keep, tarjan_)) {
        const uint32_t cm = ++mark_;
        for (uint32_t s : c) in_[s] = cm;
        std::unordered_set<int32_t> taken;
        uint64_t steps_p = 0, steps_e = 0, cont_p = ~uint64_t{0}, cont_e = ~uint64_t{0};
        for (uint32_t s : c) {
          cont_p &= g_.enabled_procs[s];
          cont_e &= g_.enabled_env[s];
          for (uint32_t k = g_.edge_begin[s]; k < g_.edge_begin[s + 1]; ++k) {
            const Edge& e = g_.edges[k];
            if (e.to >= in_.size() || in_[e.to] != cm || !keep(e)) continue;
            steps_p |= e.procs;
            steps_e |= e.env;
            for (int32_t l : e.label)
              if (l >= 0) taken.insert(l);
          }
        }
        // A choice outcome possible here but never taken in c: a fair run
        // cannot stay where it is possible.
        std::vector<uint32_t> rest;
        for (uint32_t s : c) {
          bool unfair = false;
          for (uint32_t k = g_.edge_begin[s]; !unfair && k < g_.edge_begin[s + 1]; ++k)
            for (int32_t l : g_.edges[k].label) unfair = unfair || (l >= 0 && !taken.count(l));
          if (!unfair) rest.push_back(s);
        }
        if (rest.size() < c.size()) {
          if (!rest.empty()) work.push_back(std::move(rest));
          continue;
        }
        if ((cont_p & ~steps_p) == 0 && (cont_e & ~steps_e) == 0) return c;
      }
    }
    return {};
  }

  // A lasso through component c: the BFS path to its shallowest state,
  // then a cycle back to it that takes a step of every actor stepping in
  // c, every choice outcome taken in c, and visits a state where each
  // actor that does not step in c is disabled.
  void Lasso(const std::vector<uint32_t>& c, std::vector<CheckStep>* prefix, std::vector<CheckStep>* cycle,
             uint32_t* entry, std::vector<uint32_t>* cycle_states, std::vector<uint16_t>* cycle_moves,
             const std::function<bool(const Edge&)>& keep) {
    const uint32_t cm = ++mark_;
    for (uint32_t s : c) in_[s] = cm;
    uint32_t s0 = c[0];
    for (uint32_t s : c)
      if (g_.depth[s] < g_.depth[s0]) s0 = s;
    *entry = s0;
    // The prefix.
    std::vector<std::pair<uint32_t, uint16_t>> chain;  // (parent, move)
    for (uint32_t x = s0; g_.parent[x] != kNone; x = g_.parent[x]) chain.push_back({g_.parent[x], g_.parent_move[x]});
    std::reverse(chain.begin(), chain.end());
    for (auto [from, mv] : chain) AppendSteps(from, mv, prefix);
    // What the cycle must cover.
    uint64_t steps_p = 0, steps_e = 0, any_p = 0, any_e = 0;
    std::unordered_set<int32_t> labels;
    for (uint32_t s : c) {
      any_p |= g_.enabled_procs[s];
      any_e |= g_.enabled_env[s];
      for (uint32_t k = g_.edge_begin[s]; k < g_.edge_begin[s + 1]; ++k) {
        const Edge& e = g_.edges[k];
        if (in_[e.to] != cm || !keep(e)) continue;
        steps_p |= e.procs;
        steps_e |= e.env;
        for (int32_t l : e.label)
          if (l >= 0) labels.insert(l);
      }
    }
    uint64_t need_p = steps_p, need_e = steps_e;
    uint64_t need_off_p = any_p & ~steps_p, need_off_e = any_e & ~steps_e;
    auto note_state = [&](uint32_t s) {
      need_off_p &= g_.enabled_procs[s];
      need_off_e &= g_.enabled_env[s];
    };
    auto note_edge = [&](const Edge& e) {
      need_p &= ~e.procs;
      need_e &= ~e.env;
      for (int32_t l : e.label) labels.erase(l);
    };
    uint32_t cur = s0;
    note_state(cur);
    cycle_states->push_back(cur);
    // Breadth-first within c from cur to the nearest edge (or state) that
    // covers something still needed; then that way is taken.
    auto walk = [&](bool home) {
      std::unordered_map<uint32_t, uint32_t> via;  // state -> edge index it was reached by
      std::deque<uint32_t> q = {cur};
      via[cur] = kNone;
      uint32_t goal_state = kNone, goal_edge = kNone;
      while (!q.empty() && goal_state == kNone) {
        const uint32_t u = q.front();
        q.pop_front();
        for (uint32_t k = g_.edge_begin[u]; k < g_.edge_begin[u + 1]; ++k) {
          const Edge& e = g_.edges[k];
          if (in_[e.to] != cm || !keep(e)) continue;
          bool useful;
          if (home) {
            useful = e.to == s0;
          } else {
            useful = (e.procs & need_p) || (e.env & need_e) || (~g_.enabled_procs[e.to] & need_off_p) ||
                     (~g_.enabled_env[e.to] & need_off_e);
            for (int32_t l : e.label) useful = useful || (l >= 0 && labels.count(l));
          }
          if (useful) {
            goal_state = u;
            goal_edge = k;
            break;
          }
          if (!via.count(e.to)) {
            via[e.to] = k;
            q.push_back(e.to);
          }
        }
      }
      if (goal_edge == kNone) return false;
      std::vector<uint32_t> path = {goal_edge};
      for (uint32_t x = goal_state; via[x] != kNone;) {
        const uint32_t k = via[x];
        path.push_back(k);
        // The source of edge k: the state whose edge range holds it.
        x = static_cast<uint32_t>(std::upper_bound(g_.edge_begin.begin(), g_.edge_begin.end(), k) -
                                  g_.edge_begin.begin()) - 1;
      }
      std::reverse(path.begin(), path.end());
      for (uint32_t k : path) {
        const Edge& e = g_.edges[k];
        AppendSteps(cur, e.move, cycle);
        cycle_moves->push_back(e.move);
        note_edge(e);
        cur = e.to;
        note_state(cur);
        cycle_states->push_back(cur);
      }
      return true;
    };
    while ((need_p || need_e || need_off_p || need_off_e || !labels.empty()) && walk(false)) {
    }
    if (cur != s0 || cycle->empty()) walk(true);
  }

  void AppendSteps(uint32_t from, uint16_t move, std::vector<CheckStep>* out) {
    st_.Expand(g_.State(from), g_.Len(from));
    std::vector<CheckStep> steps;
    st_.Steps(move, &steps);
    out->insert(out->end(), steps.begin(), steps.end());
  }

 private:
  Stepper& st_;
  Graph& g_;
  std::vector<uint32_t> in_;
  uint32_t mark_ = 0;
  TarjanScratch tarjan_;
};

}  // namespace

bool MayRunForever(const Model& m) {
  for (const Template& t : m.templates) {
    for (size_t pc = 0; pc < t.code.size(); ++pc) {
      const Instr& in = t.code[pc];
      const int32_t here = static_cast<int32_t>(pc);
      switch (in.kind) {
        case InstrKind::kJump: if (in.a <= here) return true; break;
        case InstrKind::kBranch: if (in.a <= here || in.b <= here) return true; break;
        case InstrKind::kChoice:
          for (int32_t x : in.targets) if (x <= here) return true;
          break;
        case InstrKind::kSelect:
          if (in.a >= 0 && in.a <= here) return true;
          for (const SelectCase& c : in.cases) if (c.target <= here) return true;
          break;
        case InstrKind::kOnceBegin: if (in.b <= here) return true; break;
        case InstrKind::kMakeTimer: if (in.c == 1) return true; break;
        default: break;
      }
    }
  }
  return false;
}

namespace {

// Notes the first reason a limit cut the search.
void Bound(LivenessResult* r, const std::string& why) {
  if (!r->bounded) r->bound_reason = why;
  r->bounded = true;
}

// The reachable graph of st's model from its initial state, into g, each
// state with its edges and what is enabled, live and buffered in it; a
// limit cut is noted on r.
void Explore(const Model& m, const CheckOptions& opts, Stepper& st, Graph& g, LivenessResult* r) {
  std::string err;
  auto bound = [&](const std::string& why) { Bound(r, why); };
  g.start.push_back(0);
  const std::vector<int32_t> init = st.Initial();
  g.Insert(init.data(), static_cast<int32_t>(init.size()));
  g.parent.push_back(kNone);
  g.parent_move.push_back(0);
  g.depth.push_back(0);
  std::vector<CheckStep> steps;
  std::vector<int32_t> cur;
  bool full = false;
  for (uint32_t s = 0; s < g.size() && !full; ++s) {
    if ((s & 63) == 63 && opts.deadline != std::chrono::steady_clock::time_point::max() &&
        std::chrono::steady_clock::now() >= opts.deadline) {
      bound(fmt::format("the wall budget ran out after {} states", g.size()));
      r->out_of_time = true;
      break;
    }
    cur.assign(g.State(s), g.State(s) + g.Len(s));
    st.Expand(cur.data(), static_cast<int32_t>(cur.size()));
    if (st.Cut(&err)) bound(err);
    g.edge_begin.push_back(static_cast<uint32_t>(g.edges.size()));
    const int32_t np = st.NumProcesses(), no = st.NumObjects();
    if (np > kMaxActors) {
      bound(fmt::format("more than {} process slots", kMaxActors));
      g.enabled_procs.push_back(0), g.enabled_env.push_back(0), g.live.push_back(0), g.nonempty.push_back(0);
      continue;
    }
    uint64_t enabled = 0, env = 0, live = 0, nonempty = 0;
    for (int32_t p = 0; p < np; ++p) {
      if (st.Live(p)) live |= uint64_t{1} << p;
      if (st.Panics(p)) enabled |= uint64_t{1} << p;
    }
    for (int32_t o = 0; o < std::min(no, kMaxActors); ++o)
      if (st.BufferedCount(o) > 0) nonempty |= uint64_t{1} << o;
    for (size_t i = 0; i < st.NumMoves() && i < UINT16_MAX; ++i) {
      Edge e;
      e.move = static_cast<uint16_t>(i);
      st.Steps(i, &steps);
      int32_t nl = 0;
      for (const CheckStep& c : steps) {
        if (c.process < 0) {
          if (c.object >= 0 && c.object < kMaxActors) e.env = uint64_t{1} << c.object;
          continue;
        }
        e.procs |= uint64_t{1} << c.process;
        const Instr& in = m.templates[c.template_index].code[c.pc];
        const bool recv = in.kind == InstrKind::kRecv ||
                          (in.kind == InstrKind::kSelect && c.select_case >= 0 && !in.cases[c.select_case].send);
        if (recv && c.object >= 0 && c.object < kMaxActors && (nonempty >> c.object & 1))
          e.recv_obj = static_cast<int16_t>(c.object);
        if (IsChoice(in) && nl < 2) {
          const std::string key = fmt::format("{} {} {} {} {}", c.process, c.template_index, c.pc, c.select_case,
                                              st.PcAfter(i, c.process));
          auto [it, added] = g.label_ids.emplace(key, static_cast<int32_t>(g.label_ids.size()));
          e.label[nl++] = it->second;
        }
      }
      enabled |= e.procs;
      env |= e.env;
      int32_t len = 0;
      const int32_t* succ = st.Succ(i, &len);
      auto [to, fresh] = g.Insert(succ, len);
      e.to = to;
      g.edges.push_back(e);
      if (fresh) {
        g.parent.push_back(s);
        g.parent_move.push_back(static_cast<uint16_t>(i));
        g.depth.push_back(g.depth[s] + 1);
        if (g.size() >= opts.max_states) {
          bound(fmt::format("more than {} states (max_states)", opts.max_states));
          r->out_of_states = true;
          full = true;
        }
      }
    }
    g.enabled_procs.push_back(enabled);
    g.enabled_env.push_back(env);
    g.live.push_back(live);
    g.nonempty.push_back(nonempty);
    // A state full stopped in the middle of still has all its edges; the
    // states after it are not expanded and belong to no component.
  }
  g.edge_begin.push_back(static_cast<uint32_t>(g.edges.size()));
}

// The message at the head of buffered channel o after prefix: the first
// send on o that no receive took (FIFO); false when the prefix does not
// show it.
bool BufferHead(const Model& m, const std::vector<CheckStep>& prefix, int32_t o, CheckStep* head) {
  int32_t sends = 0, recvs = 0;
  for (const CheckStep& s : prefix) {
    if (s.process < 0 || s.object != o) continue;
    const Instr& in = m.templates[s.template_index].code[s.pc];
    const bool send = in.kind == InstrKind::kSend ||
                      (in.kind == InstrKind::kSelect && s.select_case >= 0 && in.cases[s.select_case].send);
    const bool recv = in.kind == InstrKind::kRecv ||
                      (in.kind == InstrKind::kSelect && s.select_case >= 0 && !in.cases[s.select_case].send);
    sends += send;
    recvs += recv;
  }
  bool found = false;
  int32_t seen = 0;
  for (const CheckStep& s : prefix) {
    if (s.process < 0 || s.object != o) continue;
    const Instr& in = m.templates[s.template_index].code[s.pc];
    const bool send = in.kind == InstrKind::kSend ||
                      (in.kind == InstrKind::kSelect && s.select_case >= 0 && in.cases[s.select_case].send);
    if (send && ++seen == recvs + 1) {
      *head = s;
      found = true;
      break;
    }
  }
  (void)sends;
  return found;
}

}  // namespace

LivenessResult CheckLiveness(const Model& m, const CheckOptions& opts) {
  LivenessResult r;
  Stepper st(m, opts);
  std::string err;
  if (!st.ok(&err)) {
    r.bounded = true;
    r.bound_reason = err;
    return r;
  }
  auto bound = [&](const std::string& why) { Bound(&r, why); };
  Graph g;
  Explore(m, opts, st, g, &r);
  r.states = g.size();

  // The states on some cycle at all: the candidates live there.
  Search search(st, g);
  std::vector<uint32_t> all;
  for (uint32_t s = 0; s + 1 < g.edge_begin.size(); ++s) all.push_back(s);
  std::vector<uint32_t> everywhere(g.size(), 1);
  std::vector<uint32_t> cyclic;
  TarjanScratch scratch(g.size());
  for (auto& c : Components(g, all, everywhere, 1, [](const Edge&) { return true; }, scratch))
    cyclic.insert(cyclic.end(), c.begin(), c.end());
  if (cyclic.empty()) return r;
  std::sort(cyclic.begin(), cyclic.end());

  std::unordered_set<std::string> keys;
  uint64_t blocked_some = 0, nonempty_some = 0;
  for (uint32_t s : cyclic) {
    blocked_some |= g.live[s] & ~g.enabled_procs[s];
    nonempty_some |= g.nonempty[s];
  }
  // partial-deadlock: process p blocked in every state of a fair cycle.
  auto out_of_time = [&] {
    if (opts.deadline == std::chrono::steady_clock::time_point::max() ||
        std::chrono::steady_clock::now() < opts.deadline)
      return false;
    bound(fmt::format("the wall budget ran out in the cycle search of {} states", g.size()));
    r.out_of_time = true;
    return true;
  };
  // A lasso through component c (Search::Lasso; the states and moves of
  // its cycle are not needed here).
  struct FoundLasso {
    std::vector<CheckStep> prefix, cycle;
    uint32_t entry = 0;
  };
  auto lasso = [&](const std::vector<uint32_t>& c, const std::function<bool(const Edge&)>& keep) {
    FoundLasso l;
    std::vector<uint32_t> cs;
    std::vector<uint16_t> cmoves;
    search.Lasso(c, &l.prefix, &l.cycle, &l.entry, &cs, &cmoves, keep);
    return l;
  };
  // Adds v, shown at `where` and reached by lasso l, unless a violation
  // with its key is in already; where_last: where ends v's steps too.
  auto add = [&](Violation v, const CheckStep& where, FoundLasso& l, bool where_last) {
    v.key = fmt::format("{} {}:{}", report::KindName(v.kind), where.template_index, where.pc);
    if (!keys.insert(v.key).second) return;
    v.where = {where};
    v.steps = std::move(l.prefix);
    v.cycle_start = static_cast<int32_t>(v.steps.size());
    v.steps.insert(v.steps.end(), l.cycle.begin(), l.cycle.end());
    if (where_last) v.steps.push_back(where);
    r.violations.push_back(std::move(v));
  };
  for (int32_t p = 0; p < kMaxActors; ++p) {
    if (!(blocked_some >> p & 1)) continue;
    if (out_of_time()) return r;
    const uint64_t bit = uint64_t{1} << p;
    auto cand = [&](uint32_t s) { return (g.live[s] & bit) && !(g.enabled_procs[s] & bit); };
    auto keep = [](const Edge&) { return true; };
    std::vector<uint32_t> c = search.FairComponent(cyclic, cand, keep);
    if (c.empty()) continue;
    Violation v;
    v.kind = FindingKind::PartialDeadlock;
    FoundLasso l = lasso(c, keep);
    st.Expand(g.State(l.entry), g.Len(l.entry));
    CheckStep where = st.BlockedStep(p, &v.primitive);
    add(std::move(v), where, l, true);
  }
  // undelivered-message: buffered channel o non-empty in every state of a
  // fair cycle in which nobody receives from it.
  for (int32_t o = 0; o < kMaxActors; ++o) {
    if (!(nonempty_some >> o & 1)) continue;
    if (out_of_time()) return r;
    const uint64_t bit = uint64_t{1} << o;
    auto cand = [&](uint32_t s) { return (g.nonempty[s] & bit) != 0; };
    std::function<bool(const Edge&)> keep = [o](const Edge& e) { return e.recv_obj != o; };
    std::vector<uint32_t> c = search.FairComponent(cyclic, cand, keep);
    if (c.empty()) continue;
    Violation v;
    v.kind = FindingKind::UndeliveredMessage;
    v.primitive = Primitive::None;
    FoundLasso l = lasso(c, keep);
    CheckStep head;
    const bool found = BufferHead(m, l.prefix, o, &head);
    if (!found) continue;  // (a value the prefix does not show: cannot be)
    add(std::move(v), head, l, false);
  }
  return r;
}

}  // namespace gordian::verify
