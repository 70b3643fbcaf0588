// This file owns GoroutineOps: a trace's controlled operations (the ones
// a schedule orders) per goroutine, found by the goroutine's stable id
// (its spawn path, the name a schedule gives it). The checks of a replay
// against its schedule and its expectations look up every scheduled
// operation here, 700,000 of them in a large confirmation: one flat array
// of record indices with offsets per goroutine, and one hash of the stable
// ids, instead of a string-keyed map of vectors rebuilt by each check.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gordian/trace/trace.h"

namespace gordian::schedule {

class GoroutineOps {
 public:
  // t must outlive this (the stable ids are looked up in place).
  explicit GoroutineOps(const trace::Trace& t);

  // The record indices of the controlled operations of the goroutine whose
  // stable id is path, in program order; empty when t has no such goroutine.
  std::span<const uint32_t> Of(std::string_view path) const;

  // Every goroutine with a stable id, in trace order: Path(i) and Ops(i)
  // for i < goroutines().
  size_t goroutines() const { return paths_.size(); }
  std::string_view Path(size_t i) const { return paths_[i]; }
  std::span<const uint32_t> Ops(size_t i) const {
    return {recs_.data() + start_[i], recs_.data() + start_[i + 1]};
  }

 private:
  std::vector<std::string_view> paths_;  // stable ids, into t's goroutines
  std::vector<uint32_t> start_;          // Ops(i) = recs_[start_[i], start_[i+1])
  std::vector<uint32_t> recs_;
  std::unordered_map<std::string_view, uint32_t> index_;  // stable id -> i
};

// Whether r's site is `site` ("file:line", as trace::SiteText writes it),
// without building the text.
bool SiteIs(const trace::Trace& t, const trace::Record& r, std::string_view site);

}  // namespace gordian::schedule
