// This file defines OccurredIndex: what the occurred detectors need to know
// about a trace beyond its raw records — which goroutine wrote a record,
// which test a goroutine belongs to, the operations on each channel and sync
// object in stamp order, and how a record becomes a report Location, Step
// or GoroutineInfo. It is built once per trace and shared by every occurred
// detector (occurred.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gordian/report/finding.h"
#include "gordian/trace/trace.h"

namespace gordian::detect {

// The object classes whose ids are independent (a channel and a mutex may
// both be object 3), and the class of each record kind: trace/kinds.def.
using trace::ClassOf;
using trace::ObjClass;

// A test of a `go test` run, from its TestStart/TestEnd records.
struct TestInfo {
  uint32_t index = 0;
  std::string name;
  uint32_t gid = 0;          // goroutine that wrote TestStart
  uint32_t start = 0;        // stamp of TestStart
  uint32_t end = UINT32_MAX; // stamp of TestEnd (UINT32_MAX if it never ended)
  bool failed = false;
};

// Who holds a Mutex or RWMutex at the end of the trace: the Lock records
// that acquired it and were not released since.
struct LockHolders {
  uint32_t writer = UINT32_MAX;  // record of the holding Lock/TryLock, or UINT32_MAX
  std::vector<uint32_t> readers; // records of the holding RLocks
};

class OccurredIndex {
 public:
  explicit OccurredIndex(const trace::Trace& t);

  const trace::Trace& trace() const { return t_; }
  const trace::Record& rec(uint32_t i) const { return t_.records[i]; }
  uint32_t size() const { return static_cast<uint32_t>(t_.records.size()); }

  uint32_t GidOf(uint32_t rec) const { return gid_of_[rec]; }
  // The stable id of gid ("1.0.2"), or "g<gid>" when the reader gave none.
  std::string StableId(uint32_t gid) const;
  // Ordering stamp of a record: tpre (the moment the operation started).
  uint32_t Stamp(uint32_t rec) const { return t_.records[rec].tpre; }
  bool IsUser(uint32_t rec) const;
  // The record's site (an empty Site when the id is unknown).
  const trace::Site& SiteOf(uint32_t rec) const;

  // The goroutine's last record that is not an aux SelectCase record, or
  // UINT32_MAX if it has none.
  uint32_t LastOp(uint32_t gid) const;
  // True when the goroutine's last operation never completed.
  bool BlockedForever(uint32_t gid) const;

  // Records of one object (ChanMake/Send/Recv/Close and SelectCase for
  // channels; every operation for sync objects) in stamp order.
  const std::vector<uint32_t>& OpsOf(ObjClass f, uint32_t obj) const;
  // For a SelectCase record, its Select record (UINT32_MAX if malformed).
  uint32_t SelectOf(uint32_t case_rec) const;
  // The SelectCase records following a Select record.
  std::vector<uint32_t> CasesOf(uint32_t select_rec) const;

  // Tests, and which test a record belongs to ("" for none: a main program,
  // or an operation outside every test).
  const std::vector<TestInfo>& tests() const { return tests_; }
  // The ProgramExit record, or UINT32_MAX when the program never exited
  // (killed, or the trace was cut off).
  uint32_t ExitRecord() const { return exit_rec_; }
  const TestInfo* TestByIndex(uint32_t index) const;
  std::string TestOf(uint32_t rec) const;
  std::string TestOfGoroutine(uint32_t gid, uint32_t stamp) const;

  // The GoSpawn record that created gid (UINT32_MAX for main / unknown).
  uint32_t SpawnOf(uint32_t gid) const;

  // "x.go:12" (absolute path as recorded) of a record, or "an unknown place".
  std::string Where(uint32_t rec) const;
  // "the channel made at x.go:5" / "a channel" / "a nil channel".
  std::string DescribeChan(uint32_t chan) const;
  // String table lookup ("" when out of range).
  std::string_view String(uint32_t id) const;

  // The holders of a lock (family Mutex or RWMutex) at the end of the
  // trace. Go locks are not owned: an unlock by any goroutine releases.
  LockHolders HoldersAtEnd(ObjClass f, uint32_t obj) const;

  report::Location Loc(uint32_t rec, report::Role role) const;
  report::Step StepOf(uint32_t rec, report::Role role, std::string what) const;
  report::GoroutineInfo GoroutineOf(uint32_t gid) const;

 private:
  const trace::Trace& t_;
  std::vector<uint32_t> gid_of_;
  std::map<std::pair<ObjClass, uint32_t>, std::vector<uint32_t>> ops_;
  std::vector<TestInfo> tests_;
  std::vector<int32_t> test_of_gid_;  // index into tests_ or -1 (resolved lazily in ctor)
  uint32_t exit_rec_ = UINT32_MAX;    // the ProgramExit record
  std::vector<uint32_t> spawn_of_;    // by gid
};

// Fills goroutines and interleaving of f from its locations and steps: every
// goroutine named by a location, in stable-id order; steps sorted by stamp.
void FinishFinding(const OccurredIndex& ix, report::Finding* f);
// Only the goroutines part of FinishFinding, for findings of other
// detectors (whose steps are in their own order): adds the goroutines named
// by locations and steps that f->goroutines lacks.
void FillGoroutines(const OccurredIndex& ix, report::Finding* f);

// The last path element of path ("x.go" of "/a/b/x.go"), for messages.
std::string BaseName(std::string_view path);

// The role a record plays as a location (send, recv, lock, ...).
report::Role RoleOf(const trace::Record& r);
// A short description of a record's operation for interleavings: "send",
// "receive", "close", "Lock", "Unlock", "Add(-1)", "Wait", "select", ...
std::string OpName(const trace::Record& r);

}  // namespace gordian::detect
