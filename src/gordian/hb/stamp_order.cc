// This file implements the stamp order (stamp_order.h): one pass over each
// goroutine's records, then a radix sort on the stamps.
#include "gordian/hb/stamp_order.h"

#include <array>

namespace gordian::hb {

std::vector<uint64_t> StampOrder(const trace::Trace& t) {
  const auto& rs = t.records;
  size_t count = 0;
  for (const trace::Goroutine& gr : t.goroutines) {
    for (uint32_t i = gr.begin; i < gr.end; ++i) count += size_t(StepsAtPre(rs[i])) + StepsAtPost(rs[i]);
  }
  std::vector<uint64_t> order;
  order.reserve(count);
  // Goroutine by goroutine, each record's steps in its order: the stable
  // sort on stamps then leaves equal stamps in (goroutine, record) order.
  for (uint32_t g = 0; g < t.goroutines.size(); ++g) {
    const trace::Goroutine& gr = t.goroutines[g];
    for (uint32_t i = gr.begin; i < gr.end; ++i) {
      const trace::Record& r = rs[i];
      if (StepsAtPre(r)) order.push_back(uint64_t(r.tpre) << 32 | g);
      if (StepsAtPost(r)) order.push_back(uint64_t(r.tpost) << 32 | g);
    }
  }
  SortByHighWord(&order);
  return order;
}

void SortByHighWord(std::vector<uint64_t>* v) {
  constexpr int kBits = 11;
  constexpr uint32_t kBuckets = 1u << kBits;
  std::vector<uint64_t> tmp;
  std::array<size_t, kBuckets> at;
  for (int shift = 32; shift < 64; shift += kBits) {
    at.fill(0);
    for (uint64_t x : *v) ++at[(x >> shift) & (kBuckets - 1)];
    bool one_bucket = false;
    for (size_t c : at) one_bucket |= c == v->size();
    if (one_bucket) continue;  // every value has this digit: nothing moves
    size_t sum = 0;
    for (size_t& c : at) {
      size_t k = c;
      c = sum;
      sum += k;
    }
    tmp.resize(v->size());
    for (uint64_t x : *v) tmp[at[(x >> shift) & (kBuckets - 1)]++] = x;
    v->swap(tmp);
  }
}

}  // namespace gordian::hb
