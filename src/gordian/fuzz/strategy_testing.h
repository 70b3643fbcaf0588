// This file holds what the strategies' tests share: a strategy's proposals
// for a trace built in memory (hb/trace_builder.h), and where an operation
// sits in a proposed schedule.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gordian/fuzz/strategy.h"
#include "gordian/hb/happens_before.h"
#include "gordian/hb/op_index.h"

namespace gordian::fuzz::testing {

// The proposals of s for the run recorded in t (no findings; a trace
// directory that does not exist, so schedules have no invocation; the
// run's random numbers from seed).
// With ran, the run followed that candidate and added coverage when
// added_coverage says so.
inline std::vector<Candidate> ProposeFor(Strategy& s, const trace::Trace& t, uint64_t seed = 1,
                                         const Candidate* ran = nullptr,
                                         bool added_coverage = false) {
  hb::OpIndex ops;
  ops.Build(t);
  hb::HappensBefore e;
  std::string err;
  EXPECT_TRUE(e.Build(ops, &err)) << err;
  std::vector<report::Finding> findings;
  const std::string dir = "/nonexistent/trace";
  std::vector<Candidate> out;
  Rng rng(seed);
  s.Propose(AnalysedRun{t, dir, e, findings, rng, ran, added_coverage}, &out);
  return out;
}

// The proposals of a strategy S with its default settings for the run
// recorded in t, as ProposeFor with its defaults.
template <class S>
std::vector<Candidate> DefaultProposals(const trace::Trace& t) {
  S s;
  return ProposeFor(s, t);
}

// Position in s of the first operation at site ("a.go:10"), or -1.
inline int PosOf(const schedule::Schedule& s, const std::string& site) {
  for (size_t i = 0; i < s.ops.size(); i++) {
    if (s.ops[i].site == site) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace gordian::fuzz::testing
