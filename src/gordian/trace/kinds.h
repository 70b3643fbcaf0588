// This file owns the lookups over the table of record kinds (kinds.def):
// the object class a kind operates on, whether it blocks, whether a replay
// schedule orders it, and the names dumps, schedules and messages use. Every
// per-kind fact is a column of kinds.def; code asks here instead of switching
// on Kind.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "gordian/trace/event.h"

namespace gordian::trace {

// The kind of synchronisation object a record's obj names. Object ids of
// different classes are independent (a channel and a mutex may both be
// object 3). The values index arrays: None comes last.
enum class ObjClass : uint8_t { Chan, Mutex, RWMutex, WaitGroup, Once, Cond, None };
inline constexpr int kNumObjClasses = static_cast<int>(ObjClass::None);

struct KindInfo {
  const char* name = nullptr;  // the Kind constant's name; nullptr: not a kind
  bool blocking = false;
  bool controlled = false;
  bool at_post = false;
  ObjClass cls = ObjClass::None;
  const char* sched = "other";
  const char* op = "operation";
};

namespace kinds_internal {

// 256 entries, one per possible kind byte, so that a lookup never needs a
// bounds check; bytes that are no kind have a null name.
constexpr std::array<KindInfo, 256> MakeTable() {
  std::array<KindInfo, 256> t{};
#define GORDIAN_KIND(Name, n, blocking, controlled, at_post, cls, sched, op) \
  t[n] = KindInfo{#Name, blocking, controlled, at_post, ObjClass::cls, sched, op};
#include "gordian/trace/kinds.def"
#undef GORDIAN_KIND
  return t;
}

// The rows of kinds.def are numbered 0, 1, 2, ... in order.
constexpr bool Dense() {
  int next = 0;
#define GORDIAN_KIND(Name, n, ...) \
  if (n != next++ || static_cast<int>(Kind::Name) != n) return false;
#include "gordian/trace/kinds.def"
#undef GORDIAN_KIND
  return next == static_cast<int>(Kind::Count_);
}
static_assert(Dense(), "kinds.def: rows must be numbered 0, 1, 2, ... in order");

}  // namespace kinds_internal

inline constexpr std::array<KindInfo, 256> kKinds = kinds_internal::MakeTable();

constexpr const KindInfo& InfoOf(Kind k) { return kKinds[static_cast<uint8_t>(k)]; }

// Non-blocking operations carry tpre == tpost (one stamp).
constexpr bool IsBlocking(Kind k) { return InfoOf(k).blocking; }
// The object class a record kind operates on; None for kinds without one
// (goroutine, select, test and program records).
constexpr ObjClass ClassOf(Kind k) { return InfoOf(k).cls; }

}  // namespace gordian::trace
