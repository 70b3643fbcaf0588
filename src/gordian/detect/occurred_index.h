// This file defines OccurredIndex: the occurred detectors' view of a trace's
// one index (hb/op_index.h) plus how a record becomes a report Location,
// Step or GoroutineInfo, and the few questions about the end of the run they
// share (the last operation of a goroutine, who holds a lock). It indexes
// nothing itself; it is a cheap view, one per detector run.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gordian/hb/op_index.h"
#include "gordian/report/finding.h"
#include "gordian/trace/trace.h"

namespace gordian::detect {

// The object classes whose ids are independent (a channel and a mutex may
// both be object 3), and the class of each record kind: trace/kinds.def.
using trace::ClassOf;
using trace::ObjClass;

using hb::TestInfo;
using trace::Gid;
using trace::GoroutineIndex;
using trace::ObjectId;
using trace::RecordId;

// Who holds a Mutex or RWMutex at the end of the trace: the Lock records
// that acquired it and were not released since.
struct LockHolders {
  RecordId writer = hb::kNoRecord;  // record of the holding Lock/TryLock, or kNoRecord
  std::vector<RecordId> readers;    // records of the holding RLocks
};

class OccurredIndex {
 public:
  // A view of ops (which must outlive it).
  explicit OccurredIndex(const hb::OpIndex& ops) : ops_(ops), t_(ops.trace()) {}
  // Indexes t (for callers without an index of it: tests, schedule runs).
  explicit OccurredIndex(const trace::Trace& t);

  const hb::OpIndex& ops() const { return ops_; }
  const trace::Trace& trace() const { return t_; }
  const trace::Record& rec(RecordId i) const { return t_.records[i]; }
  uint32_t size() const { return static_cast<uint32_t>(t_.records.size()); }

  Gid GidOf(RecordId rec) const { return ops_.GidOf(rec); }
  // The stable id of gid ("1.0.2"), or "g<gid>" when the reader gave none.
  std::string StableId(Gid gid) const;
  std::string StableId(GoroutineIndex g) const { return StableId(trace::GidAt(g)); }
  // The gid whose StableId is id, or kNoGid. The map is built at the
  // first call and kept: FillGoroutines asks for every finding.
  Gid GidOfStableId(const std::string& id) const;
  // Ordering stamp of a record: tpre (the moment the operation started).
  uint32_t Stamp(RecordId rec) const { return t_.records[rec].tpre; }
  bool IsUser(RecordId rec) const;
  // The record's site (an empty Site when the id is unknown).
  const trace::Site& SiteOf(RecordId rec) const;

  // The goroutine's last record that is not an aux SelectCase record, or
  // hb::kNoRecord if it has none.
  RecordId LastOp(Gid gid) const;
  // True when the goroutine's last operation never completed.
  bool BlockedForever(Gid gid) const;

  // Records of one object by trace id (ChanMake/Send/Recv/Close and
  // SelectCase for channels; every operation for sync objects) in stamp order.
  std::span<const RecordId> OpsOf(ObjClass f, ObjectId obj) const { return ops_.OpsByStamp(f, obj); }
  // The SelectCase records following a Select record.
  std::vector<RecordId> CasesOf(RecordId select_rec) const;

  // Tests, and which test a record belongs to ("" for none: a main program,
  // or an operation outside every test).
  const std::vector<TestInfo>& tests() const { return ops_.tests(); }
  // The ProgramExit record, or hb::kNoRecord when the program never exited
  // (killed, or the trace was cut off).
  RecordId ExitRecord() const { return ops_.ExitRecord(); }
  const TestInfo* TestByIndex(uint32_t index) const { return ops_.TestByIndex(index); }
  std::string TestOf(RecordId rec) const { return ops_.TestOf(rec); }
  std::string TestOfGoroutine(Gid gid, uint32_t stamp) const {
    return ops_.TestOfGoroutine(gid, stamp);
  }

  // The GoSpawn record that created gid (hb::kNoRecord for main / unknown).
  RecordId SpawnOfGid(Gid gid) const { return ops_.SpawnOfGid(gid); }

  // "x.go:12" (absolute path as recorded) of a record, or "an unknown place".
  std::string Where(RecordId rec) const;
  // "the channel made at x.go:5" / "a channel" / "a nil channel".
  std::string DescribeChan(ObjectId chan) const;
  // String table lookup ("" when out of range).
  std::string_view String(uint32_t id) const;

  // The holders of a lock (family Mutex or RWMutex) at the end of the
  // trace. Go locks are not owned: an unlock by any goroutine releases.
  LockHolders HoldersAtEnd(ObjClass f, ObjectId obj) const;

  report::Location Loc(RecordId rec, report::Role role) const;
  report::Step StepOf(RecordId rec, report::Role role, std::string what) const;
  report::GoroutineInfo GoroutineInfoOf(Gid gid) const;

 private:
  std::unique_ptr<hb::OpIndex> own_;  // the trace constructor's index
  const hb::OpIndex& ops_;
  const trace::Trace& t_;
  mutable std::unordered_map<std::string, Gid> gid_by_id_;  // GidOfStableId
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
// "file.go:line" of a record's site, for messages.
std::string ShortSite(const OccurredIndex& ix, trace::RecordId rec);

// The role a record plays as a location (send, recv, lock, ...).
report::Role RoleOf(const trace::Record& r);
// A short description of a record's operation for interleavings: "send",
// "receive", "close", "Lock", "Unlock", "Add(-1)", "Wait", "select", ...
std::string OpName(const trace::Record& r);

}  // namespace gordian::detect
