// This file owns GoroutineOps: a trace's controlled operations (the ones
// a schedule orders) per goroutine, by the goroutine's index in the trace
// or by its stable id (its spawn path, the name a schedule gives it). The
// rewrite of a finding reads them per goroutine, the checks of a replay
// against its schedule and its expectations by stable id, 700,000 of them
// in a large confirmation: one flat array of record indices with offsets
// per goroutine, and one hash of the stable ids, instead of a vector per
// goroutine or a string-keyed map of vectors rebuilt by each check.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gordian/trace/ids.h"
#include "gordian/trace/trace.h"

namespace gordian::schedule {

class GoroutineOps {
 public:
  // Whether Of (a hash of every stable id) is wanted: a reader by index
  // alone (the rewrite) does without the hash of 100,000 ids.
  enum class Lookup { kByIndex, kByIndexAndPath };

  // t must outlive this (the stable ids are looked up in place).
  explicit GoroutineOps(const trace::Trace& t, Lookup lookup = Lookup::kByIndexAndPath);

  // The record indices of the controlled operations of the goroutine whose
  // stable id is path, in program order; empty when t has no such goroutine.
  // Only with Lookup::kByIndexAndPath.
  std::span<const trace::RecordId> Of(std::string_view path) const;

  // Per goroutine of t (i < goroutines(), t.goroutines' order): Ops(i), its
  // controlled operations (none without a stable id), and Path(i), the
  // stable id by which Of finds it ("" for none: no stable id, or, with
  // kByIndexAndPath, one that an earlier goroutine has).
  size_t goroutines() const { return paths_.size(); }
  std::string_view Path(size_t i) const { return paths_[i]; }
  std::span<const trace::RecordId> Ops(size_t i) const {
    return {recs_.data() + start_[i], recs_.data() + start_[i + 1]};
  }

 private:
  std::vector<std::string_view> paths_;  // per goroutine: its stable id, into t, or ""
  std::vector<uint32_t> start_;          // Ops(i) = recs_[start_[i], start_[i+1])
  std::vector<trace::RecordId> recs_;
  std::unordered_map<std::string_view, uint32_t> index_;  // stable id -> i (kByIndexAndPath)
};

// Whether r's site is `site` ("file:line", as trace::SiteText writes it),
// without building the text.
bool SiteIs(const trace::Trace& t, const trace::Record& r, std::string_view site);

}  // namespace gordian::schedule
