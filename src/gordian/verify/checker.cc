// This file owns the model checker's search (checker.h): the breadth-first
// search with partial-order reduction over the states the step function
// (checker_expand.cc) makes, kept in the state store (checker_state.h), that
// reports each violation once with a shortest-found counterexample; and
// Stepper, the step function for other searches (liveness.h).
#include "gordian/verify/checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_set>

#include "gordian/verify/checker_internal.h"

namespace gordian::verify {
namespace checker_internal {

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

}  // namespace checker_internal

using namespace checker_internal;

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
  bool enough = false;  // opts.enough said so: stop
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
      if (opts.enough && opts.enough(r.violations.back())) {
        enough = true;
        return;
      }
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
  for (uint32_t cur = 0; cur < store.size() && !full && !enough; ++cur) {
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
    if (enough) break;
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

}  // namespace gordian::verify
