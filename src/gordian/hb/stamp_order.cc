// This file implements the stamp order (stamp_order.h): per goroutine a
// cursor on its next step not given yet; each window takes, goroutine by
// goroutine, the steps whose stamps fall in it, then radix-sorts them.
#include "gordian/hb/stamp_order.h"

#include <algorithm>
#include <array>

namespace gordian::hb {

size_t internal::stamp_window_steps = size_t(1) << 18;

void StampOrder::First(Cursor* c) const {
  const trace::Record& r = t_->records[c->rec];
  c->post = !StepsAtPre(r);
  c->stamp = c->post ? r.tpost : r.tpre;
}

bool StampOrder::Advance(uint32_t g, Cursor* c) const {
  const trace::Record& r = t_->records[c->rec];
  if (!c->post && StepsAtPost(r)) {
    c->post = true;
    c->stamp = r.tpost;
    return true;
  }
  if (++c->rec >= t_->goroutines[g].end) return false;
  First(c);
  return true;
}

void StampOrder::Init(const trace::Trace& t, size_t window_steps) {
  t_ = &t;
  const uint32_t ng = static_cast<uint32_t>(t.goroutines.size());
  cur_.assign(ng, Cursor{});
  live_.clear();
  uint64_t steps = 0, lo = ~0ull, hi = 0;
  for (uint32_t g = 0; g < ng; ++g) {
    const trace::Goroutine& gr = t.goroutines[g];
    if (gr.begin >= gr.end) continue;
    for (uint32_t i = gr.begin; i < gr.end; ++i) {
      const trace::Record& r = t.records[i];
      steps += size_t(StepsAtPre(r)) + StepsAtPost(r);
      lo = std::min<uint64_t>(lo, StepsAtPre(r) ? r.tpre : r.tpost);
      hi = std::max<uint64_t>(hi, std::max(r.tpre, r.tpost));
    }
    cur_[g].rec = gr.begin;
    First(&cur_[g]);
    live_.push_back(g);
  }
  lo_ = lo;
  // Windows of at least two steps per goroutine, so that the scan of the
  // cursors costs no more than the steps it gives; and of 128 a goroutine
  // up to 2^20 steps, since the scan is
  // a cache miss per goroutine and window: with windows of 2^18 steps,
  // 10,000 goroutines spent 3-5% of the engine's time there. (Tests that
  // ask for fewer than 64 get 2 a goroutine.)
  window_steps_ = std::max<size_t>(window_steps, 2 * size_t(ng));
  if (window_steps >= 64) {
    window_steps_ = std::max(window_steps_, std::min<size_t>(128 * size_t(ng), size_t{1} << 20));
  }
  span_ = steps == 0 ? 1 : std::max<uint64_t>(1, (hi - lo + 1) * window_steps_ / steps);
}

bool StampOrder::Next(std::vector<uint64_t>* out) {
  out->clear();
  if (live_.empty()) return false;
  const uint64_t end = lo_ + span_;
  uint64_t next_lo = ~0ull;
  size_t kept = 0;
  for (uint32_t g : live_) {
    Cursor c = cur_[g];
    bool left = true;
    while (c.stamp < end) {
      out->push_back(uint64_t(c.stamp) << 32 | g);
      if (!Advance(g, &c)) {
        left = false;
        break;
      }
    }
    if (!left) continue;
    cur_[g] = c;
    next_lo = std::min<uint64_t>(next_lo, c.stamp);
    live_[kept++] = g;
  }
  live_.resize(kept);
  lo_ = next_lo;
  // Stamps need not be spread evenly: keep windows near their size.
  if (out->size() > 2 * window_steps_ && span_ > 1) span_ /= 2;
  else if (out->size() < window_steps_ / 2 && span_ < (1ull << 32)) span_ *= 2;
  SortByHighWord(out, &scratch_);
  return true;
}

void SortByHighWord(std::vector<uint64_t>* v, std::vector<uint64_t>* scratch) {
  constexpr int kBits = 11;
  constexpr uint32_t kBuckets = 1u << kBits;
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
    scratch->resize(v->size());
    for (uint64_t x : *v) (*scratch)[at[(x >> shift) & (kBuckets - 1)]++] = x;
    v->swap(*scratch);
  }
}

}  // namespace gordian::hb
