// This file implements the accounting of the analysis memory budget
// (memory_budget.h).
#include "gordian/pipeline/memory_budget.h"

namespace gordian::pipeline {

bool MemoryBudget::ClockBudgetFor(uint64_t records, uint64_t goroutines,
                                  uint64_t* clock_bytes) const {
  uint64_t fixed = EngineFixedBytes(records, goroutines);
  if (left() < fixed) return false;
  *clock_bytes = left() - fixed;
  return true;
}

uint64_t TraceBytes(const trace::Trace& t) {
  uint64_t n = t.records.capacity() * sizeof(trace::Record) +
               t.goroutines.capacity() * sizeof(trace::Goroutine) +
               t.sites.capacity() * sizeof(trace::Site) +
               t.strings.capacity() * sizeof(std::string);
  for (const trace::Site& s : t.sites) n += s.file.capacity() + s.function.capacity();
  for (const std::string& s : t.strings) n += s.capacity();
  return n;
}

uint64_t EngineFixedBytes(uint64_t records, uint64_t goroutines) {
  // The snapshot ids, at most about 8 bytes a record (hb::SnapshotIds keeps
  // runs of equal ids: usually a third of that, known only after the
  // build); a goroutine's replay state, its waiter list and its start (a
  // few cache lines).
  return records * 8 + goroutines * 256;
}

}  // namespace gordian::pipeline
