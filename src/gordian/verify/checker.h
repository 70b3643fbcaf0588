// This file declares the model checker of `gordian verify` (docs/verify.md): a
// bounded explicit-state search over every interleaving of a Model's processes
// (model.h) for one valuation of its parameters, with state hashing and
// partial-order reduction (a process's next step that touches nothing shared
// is taken alone). It reports each violation once, with the shortest-found
// sequence of steps that leads to it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gordian/report/finding.h"
#include "gordian/verify/model.h"

namespace gordian::verify {

struct Violation;

struct CheckOptions {
  // One value per Model::params entry, in order.
  std::vector<int64_t> param_values;
  // The values an unknown count (an empty Expr used as a capacity, delta or
  // loop bound) may take.
  std::vector<int64_t> unknown_values = {0, 1, 2};
  uint64_t max_states = 2'000'000;  // past it the result says "bounded"
  // Past this instant the search stops and the result says "bounded" (the
  // wall budget of a model, verify_model.h); max() for none. Looked at
  // every 64 states expanded (a clock read each), so it costs nothing measurable.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  int32_t max_processes = 64;       // more live processes: the path is cut
  int32_t max_objects = 256;
  int32_t max_depth = 10'000;       // steps on one path
  // Take a process's step that touches nothing shared alone (an ample set
  // of one), which finds the same violations in far fewer states. Off only
  // to measure what it saves.
  bool partial_order_reduction = true;
  // Set locals that no path reads again to nil, so states that differ only
  // in them are one. Off only to measure what it saves.
  bool dead_variable_reduction = true;
  // The confirmation's "disallow" (pipeline/verify_confirm.h): a violation
  // for which it returns true is not reported and its key stays open, so
  // the search goes on to the next state that violates the same way (the
  // next counterexample). Null: every violation is reported.
  std::function<bool(const Violation&)> reject;
  // The confirmation's stop: once a reported violation makes it return
  // true, the search ends there (a counterexample of the one bug it
  // confirms is all it needs, not the rest of a million states). Null:
  // the search goes on to the end.
  std::function<bool(const Violation&)> enough;
};

// One step of a counterexample: process `process` ran the instruction at
// `pc` of its template.
struct CheckStep {
  int32_t process = 0;
  int32_t template_index = 0;
  int32_t pc = 0;
  int32_t select_case = -1;  // for a select: the case it took (-1: default)
  bool blocks = false;       // the process is blocked here at the end
  // The object the step operates on: its index in the order the model
  // made its objects (0 first), or -1 (none, nil, or a make). An
  // environment step (a timer fires, a timeout cancels a context) has
  // process, template_index and pc -1 and names the timer's channel or the
  // context here.
  int32_t object = -1;
};

struct Violation {
  report::FindingKind kind = report::FindingKind::GlobalDeadlock;
  report::Primitive primitive = report::Primitive::None;  // leaks
  // Where it happens: the process and pc that panicked, or each process
  // blocked forever at the end (as blocks=true steps).
  std::vector<CheckStep> where;
  // The interleaving from the initial state, the violating step last.
  std::vector<CheckStep> steps;
  // A stable identity: the kind and the positions in `where`, so the same
  // bug found for several valuations is one finding.
  std::string key;
  // A liveness violation (liveness.h) is a lasso: steps[cycle_start..] up
  // to the blocks=true steps repeat forever. -1 for the others.
  int32_t cycle_start = -1;
};

struct CheckResult {
  std::vector<Violation> violations;  // one per key
  uint64_t states = 0;                // distinct states visited
  uint64_t transitions = 0;           // successors computed (visited or not)
  bool bounded = false;  // a limit of CheckOptions cut the search: no
                         // violation found does not mean none exists
  bool out_of_states = false;  // max_states was the limit that cut it
  bool out_of_time = false;    // deadline was
  std::string bound_reason;
  // Some move led to a visited state no deeper than its source. Every
  // cycle of the graph has such a move, and the reduced graph has a cycle
  // when the full one has (partial-order reduction keeps infinite runs):
  // false means no run is infinite, and the liveness search is skipped.
  bool may_cycle = false;
};

// Explores m (which must pass Validate) under opts.
CheckResult Check(const Model& m, const CheckOptions& opts);

// The checker's step function, for other searches over a model's states
// (the liveness search, liveness.h): every move of a state, unreduced,
// with its steps as a counterexample shows them.
class Stepper {
 public:
  // m must pass Validate and opts.param_values fit it, else ok() is false.
  Stepper(const Model& m, const CheckOptions& opts);
  ~Stepper();
  bool ok(std::string* error) const;
  std::vector<int32_t> Initial() const;
  // Makes s (n words) the current state and computes all its moves.
  void Expand(const int32_t* s, int32_t n);
  size_t NumMoves() const;
  // Move i's successor, and its steps (one, two for a rendezvous or a
  // signal, or an environment step: process -1 and the object).
  const int32_t* Succ(size_t i, int32_t* len) const;
  void Steps(size_t i, std::vector<CheckStep>* out) const;
  // Where process p is after move i: its pc, or -1 when it has ended.
  int32_t PcAfter(size_t i, int32_t p) const;
  // A limit (objects, processes) or a model error cut a move here.
  bool Cut(std::string* why) const;
  // Of the current state: its process slots; whether process p can panic
  // here (a move that ends the program); whether p is a live process of
  // the program (not ended, not the environment); p's position as a
  // blocked step (blocks=true) and what it waits on.
  int32_t NumProcesses() const;
  bool Panics(int32_t p) const;
  bool Live(int32_t p) const;
  CheckStep BlockedStep(int32_t p, report::Primitive* on) const;
  // Of the current state's object o: its buffered count when it is a
  // channel of capacity > 0 that no timer sends on, else -1.
  int32_t NumObjects() const;
  int32_t BufferedCount(int32_t o) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Runs v.steps from the initial state through the checker's own step
// function and checks that they reach v: a panic step (send on closed...)
// is the last step and panics with v.kind, or the blocks=true steps at the
// end are processes stuck in a state the checker reports as v (same key).
// False with *why saying which step could not be taken or what differs.
bool Replay(const Model& m, const CheckOptions& opts, const Violation& v, std::string* why);

}  // namespace gordian::verify
