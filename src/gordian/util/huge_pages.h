// This file owns the request for transparent huge pages on the analysis's big
// flat arrays (docs/scale.md, "How the engine gets there"). The clock builder
// reads a goroutine's next record, its index entries and its clock-need byte
// at a random place of arrays of hundreds of MB at nearly every step, once
// thousands of goroutines take turns: with 4 KiB pages each of those reads
// also misses the TLB (a page walk, two-dimensional under a hypervisor). 2 MiB
// pages cover such an array with a few hundred TLB entries.
//
// The request is advice (madvise MADV_HUGEPAGE) on the whole 2 MiB pages
// inside an allocation, given before its pages are first touched, so that
// the first touch faults in a huge page. It works where the kernel's
// transparent_hugepage mode is "madvise" or "always" and costs nothing
// where it is "never" or unsupported (the call fails and is ignored).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gordian::util {

// Allocations smaller than this are not worth a huge page (they hold at
// most a few whole ones, and a partly used huge page costs resident memory).
inline constexpr size_t kHugePageMinBytes = size_t(8) << 20;
inline constexpr uintptr_t kHugePageBytes = uintptr_t(2) << 20;

// Advises huge pages for the whole 2 MiB pages inside [p, p + bytes).
inline void AdviseHugePages(const void* p, size_t bytes) {
#ifdef MADV_HUGEPAGE
  if (p == nullptr) return;
  const uintptr_t lo = (reinterpret_cast<uintptr_t>(p) + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  const uintptr_t hi = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHugePageBytes - 1);
  if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

// v->reserve(n) and huge pages for its storage, before anything is written
// there: call it on an empty vector, then resize or append.
template <class T>
void ReserveHuge(std::vector<T>* v, size_t n) {
  v->reserve(n);
  if (v->capacity() * sizeof(T) >= kHugePageMinBytes) {
    AdviseHugePages(v->data(), v->capacity() * sizeof(T));
  }
}

// v->assign(n, x) with huge pages for a vector that holds no storage yet
// (a vector with storage is assigned in place, its pages kept).
template <class T>
void AssignHuge(std::vector<T>* v, size_t n, const T& x) {
  if (v->capacity() < n) {
    std::vector<T>().swap(*v);
    ReserveHuge(v, n);
  }
  v->assign(n, x);
}

}  // namespace gordian::util
