// This file defines IdRecycler: the ids of a pool whose slots are handed
// out and given back (the clock pools of the happens-before engine, the
// tree clocks' node arena). A freed id is reused before a new one is
// issued, so the pool's storage grows only with the slots in use at once.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace gordian::hb {

class IdRecycler {
 public:
  // A freed id, or the next never-issued one; *fresh says which (the pool
  // then makes room for it).
  uint32_t Take(bool* fresh) {
    if (!free_.empty()) {
      uint32_t id = free_.back();
      free_.pop_back();
      *fresh = false;
      return id;
    }
    *fresh = true;
    return next_++;
  }
  void Give(uint32_t id) { free_.push_back(id); }
  uint64_t in_use() const { return uint64_t(next_) - free_.size(); }
  // Ids issued so far: 0 .. issued()-1, in use or free.
  uint32_t issued() const { return next_; }
  // Replaces the free list (a collection that found which issued ids are
  // unreachable); the last one is reused first.
  void SetFree(std::vector<uint32_t> free) { free_ = std::move(free); }
  void Clear() {
    free_.clear();
    next_ = 0;
  }

 private:
  uint32_t next_ = 0;  // the next never-issued id
  std::vector<uint32_t> free_;
};

}  // namespace gordian::hb
