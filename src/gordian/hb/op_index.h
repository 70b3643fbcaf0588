// This file defines the operation index, the one index of a trace: every
// synchronisation object (channel, mutex, RWMutex, WaitGroup, Once, Cond)
// under a dense id, with the records that operate on it, and for channels the
// exact partner tables (value sequence number -> send, -> receive) of seed
// 001 Appendix B; the goroutine and spawn record of every record, the tests
// of a `go test` run and which goroutine belongs to which, and how the
// program ended. It is built once per analysed trace (pipeline/
// analyze_trace.cc) and shared by the happens-before engine and every
// detector; detect/occurred_index.h builds findings from it.
//
// Goroutines have two numbers: the gid of the trace (1 = main, dense) and
// the 0-based index into Trace::goroutines (gid - 1); objects have the id
// the trace gives them and a dense number per class. The API takes and
// returns them as the distinct types of trace/ids.h (Gid, GoroutineIndex,
// ObjectId), so that one passed for the other does not compile; records
// (RecordId) and dense object numbers are plain uint32_t, the index of
// flat arrays.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gordian/hb/packed_ids.h"
#include "gordian/trace/ids.h"
#include "gordian/trace/trace.h"

namespace gordian::hb {

using trace::Gid;
using trace::GoroutineIndex;
using trace::ObjectId;
using trace::RecordId;

using trace::kNoRecord;
using trace::kNoStamp;
inline constexpr uint32_t kNoObject = 0xffffffffu;

// A test of a `go test` run, from its TestStart/TestEnd records.
struct TestInfo {
  uint32_t index = 0;
  std::string name;
  Gid gid = trace::kNoGid;   // goroutine that wrote TestStart
  uint32_t start = 0;        // stamp of TestStart
  uint32_t end = kNoStamp;   // stamp of TestEnd (kNoStamp if it never ended)
  RecordId end_rec = kNoRecord;  // the TestEnd record (kNoRecord if it never ended)
  bool failed = false;
};

// The object classes and the class of each record kind (None for kinds
// without one): trace/kinds.def.
using trace::ClassOf;
using trace::kNumObjClasses;
using trace::ObjClass;

// The direction of a channel operation record (ChanSend, ChanRecv, or a
// SelectCase); Close for ChanClose.
enum class ChanDir : uint8_t { None, Send, Recv, Close };
ChanDir DirOf(const trace::Record& r);

struct ChannelInfo {
  ObjectId raw{0};              // trace object id
  int64_t capacity = -1;        // from ChanMake; inferred (see capacity_known) otherwise
  bool capacity_known = false;  // false: no ChanMake record, capacity inferred from stamps
  RecordId make_rec = kNoRecord;
  RecordId close_rec = kNoRecord;  // the first close that did not panic
  uint32_t values = 0;          // highest value sequence number seen
};

class OpIndex {
 public:
  // Builds the index of t, which must outlive it. Oddities it works around
  // go to warnings().
  void Build(const trace::Trace& t);
  // How many times Build ran in this process (a test hook: an analysis
  // indexes each trace once).
  static uint64_t Builds();

  const trace::Trace& trace() const { return *t_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

  // Dense objects of a class: 0 .. Count(c)-1.
  uint32_t Count(ObjClass c) const { return static_cast<uint32_t>(cls_[int(c)].raw.size()); }
  // Dense id of a trace object id, or kNoObject.
  uint32_t Dense(ObjClass c, ObjectId raw) const;
  ObjectId Raw(ObjClass c, uint32_t dense) const { return ObjectId(cls_[int(c)].raw[dense]); }
  // Dense object of record i (its class is ClassOf(kind)), or kNoObject
  // (nil channel, kinds without object).
  // (Inlined always: it is in the loops over every record; outlined, the
  // index's build took 40% longer.)
  [[gnu::always_inline]] uint32_t ObjectOf(RecordId rec) const {
    if (!obj_.empty()) return obj_[rec];
    // Every class has a direct table: the record's raw id says it.
    const trace::Record& r = t_->records[rec];
    const ObjClass c = ClassOf(r.kind);
    if (c == ObjClass::None || r.obj == 0) return kNoObject;
    return cls_[int(c)].direct[r.obj];
  }
  // Starts loading what the per-record lookups read for rec (the clock
  // builder's scheduler knows records steps before it replays them).
  void PrefetchRecord(RecordId rec) const {
    if (!obj_.empty()) __builtin_prefetch(&obj_[rec]);
    if (!gor_narrow_) {
      __builtin_prefetch(&gor_[rec]);
    } else {
      __builtin_prefetch(&gor_mixed_[rec >> kGorBlockShift]);
    }
  }

  // Records operating on an object, in trace order (goroutine by goroutine,
  // program order within one). For channels this includes ChanMake, sends,
  // receives, closes and the SelectCase records naming the channel. Read
  // like a span (range for, size, indexing), stored packed (packed_ids.h).
  PackedIdRange Ops(ObjClass c, uint32_t dense) const {
    const Class& k = cls_[int(c)];
    return {&k.ops, k.off[dense], k.off[dense + 1]};
  }

  const ChannelInfo& Channel(uint32_t dense) const { return chans_[dense]; }
  // Exact partners: the send / receive record (ChanSend, ChanRecv or the
  // chosen SelectCase) that carried value `seq` of channel `dense`.
  RecordId SendOf(uint32_t dense, uint32_t seq) const;
  RecordId RecvOf(uint32_t dense, uint32_t seq) const;

  // For a SelectCase record: its Select record; otherwise rec itself.
  RecordId Owner(RecordId rec) const;
  // For a completed Select that chose a case: the chosen SelectCase record;
  // kNoRecord for default, blocked or malformed selects.
  RecordId ChosenCase(RecordId select_rec) const;
  // Goroutine index (gid - 1) of a record; kNoGoroutine outside every
  // goroutine.
  GoroutineIndex GoroutineIndexOf(RecordId rec) const {
    if (!gor_narrow_) return GoroutineIndex(gor_[rec]);
    const uint32_t block = rec >> kGorBlockShift;
    const uint32_t mixed = gor_mixed_[block];
    if (mixed == kUniformBlock) return GoroutineIndex(gor_order_[gor_[block]]);
    const uint8_t d = gor_delta_[(size_t{mixed} << kGorBlockShift) | (rec & kGorBlockMask)];
    return d == kNoGoroutineDelta ? trace::kNoGoroutine
                                  : GoroutineIndex(gor_order_[gor_[block] + d]);
  }
  // The gid of a record's goroutine; kNoGid outside every goroutine.
  Gid GidOf(RecordId rec) const { return trace::GidAt(GoroutineIndexOf(rec)); }
  // The exact communication partner of a send/receive/select (the record on
  // the other side: ChanSend, ChanRecv or a SelectCase), or kNoRecord.
  RecordId Partner(RecordId rec) const;

  // The GoSpawn record that created goroutine index g, or kNoRecord.
  RecordId SpawnOfIndex(GoroutineIndex g) const { return spawn_[trace::Value(g)]; }
  // The GoSpawn record that created goroutine gid, or kNoRecord (main,
  // unknown gids).
  RecordId SpawnOfGid(Gid gid) const {
    uint32_t g = trace::Value(trace::IndexOf(gid));
    return g < spawn_.size() ? spawn_[g] : kNoRecord;
  }
  // The Once.Do record that ran f for a dense Once, or kNoRecord.
  RecordId OnceRunner(uint32_t dense_once) const { return once_runner_[dense_once]; }
  // The Signal/Broadcast record that woke a completed CondWait, or kNoRecord.
  RecordId SignalOf(RecordId cond_wait_rec) const;
  // Number of CondWait records woken by a Signal/Broadcast record.
  uint32_t WaitersOf(RecordId signal_rec) const;

  // Records of an object by its trace id, in stamp (tpre) order, ties in
  // trace order; raw id 0 (a nil channel) included. Built on first use.
  std::span<const RecordId> OpsByStamp(ObjClass c, ObjectId raw) const;

  // Tests, in TestStart order.
  const std::vector<TestInfo>& tests() const { return tests_; }
  const TestInfo* TestByIndex(uint32_t index) const;
  // The TestCall records (a goroutine's call of a testing method on a
  // test's T), in trace order.
  const std::vector<RecordId>& TestCalls() const { return test_calls_; }
  // The test a goroutine's operation at stamp belongs to ("" for none: a
  // main program, or an operation outside every test).
  std::string TestOfGoroutine(Gid gid, uint32_t stamp) const;
  std::string TestOf(RecordId rec) const { return TestOfGoroutine(GidOf(rec), t_->records[rec].tpre); }
  // The ProgramExit record (the last one), or kNoRecord when the program
  // never exited (killed, or the trace was cut off).
  RecordId ExitRecord() const { return exit_rec_; }
  // The program ended by itself: a ProgramExit record or a meta
  // exit_status (trace::Summarize's `exited`).
  bool Exited() const { return exited_; }

  size_t MemoryBytes() const;

 private:
  struct Class {
    std::vector<uint32_t> raw;       // dense -> raw
    std::vector<uint32_t> direct;    // raw -> dense when raw ids are small
    std::vector<std::pair<uint32_t, uint32_t>> sorted;  // (raw, dense) otherwise
    std::vector<uint32_t> off;       // CSR offsets into ops, size Count()+1
    PackedIds ops;                   // in trace order: 1 or 2 bytes a record in most blocks
  };
  Class cls_[kNumObjClasses];
  const trace::Trace* t_ = nullptr;
  // The dense object of each record, only when some class's raw ids are
  // too sparse for a direct table (sorted pairs: a search a record);
  // otherwise ObjectOf reads the direct table (24 MB less at 6M records).
  std::vector<uint32_t> obj_;
  // The goroutine index of each record. Wide form: gor_ per record.
  // Narrow form (the reader's layout: ranges disjoint), when it fits: the
  // goroutines with records numbered in the order of their ranges
  // (gor_order_: number -> goroutine index), gor_ per block of 256 records
  // (the lowest number in it) and, for the blocks whose records are not
  // all of that goroutine, a byte per record in gor_delta_
  // (kNoGoroutineDelta: none), the block's place there in gor_mixed_
  // (kUniformBlock: all of gor_'s goroutine). A goroutine that runs long
  // (a pipeline stage) costs nothing per record: 0.2 MB instead of 24 MB
  // at 6M records. Numbering by range, not by goroutine index, keeps a
  // window of a trace (a few goroutines of a large table) narrow.
  static constexpr uint32_t kGorBlockShift = 8;
  static constexpr uint32_t kGorBlockMask = (1u << kGorBlockShift) - 1;
  static constexpr uint8_t kNoGoroutineDelta = 0xff;
  static constexpr uint32_t kUniformBlock = 0xffffffffu;
  bool gor_narrow_ = false;
  std::vector<uint32_t> gor_;
  std::vector<uint32_t> gor_mixed_;
  std::vector<uint8_t> gor_delta_;
  std::vector<uint32_t> gor_order_;
  void BuildGoroutineOf(const trace::Trace& t);
  std::vector<ChannelInfo> chans_;
  std::vector<uint32_t> seq_off_;    // per channel: base into send_/recv_ (values+1 entries)
  // The send and the receive of each value: one goroutine's sends (or
  // receives) of a channel lie close together, so most blocks are narrow.
  PackedIds send_, recv_;
  std::vector<RecordId> spawn_;
  std::vector<RecordId> once_runner_;
  // Cond: per cond, the waking Signal/Broadcast by ticket val; waiters per signal.
  std::vector<uint32_t> sig_off_;
  std::vector<RecordId> sig_;
  std::vector<std::pair<RecordId, uint32_t>> waiters_;  // (signal rec, count), sorted
  std::vector<std::string> warnings_;
  // Tests and the test of each gid: index into tests_, or -1 (decide by
  // time window, also -2: ambiguous) or -3 (outside every test).
  std::vector<TestInfo> tests_;
  std::vector<int32_t> test_of_gid_;
  std::vector<RecordId> test_calls_;
  RecordId exit_rec_ = kNoRecord;
  bool exited_ = false;
  // OpsByStamp: per class, ops re-sorted by stamp (same offsets), and the
  // records with raw id 0.
  mutable bool by_stamp_built_ = false;
  mutable std::vector<RecordId> by_stamp_[kNumObjClasses];
  mutable std::vector<RecordId> raw0_[kNumObjClasses];

  // The steps of Build (op_index.cc), in order; cls_of: the class of each
  // record kind.
  void NumberObjects(const uint8_t* cls_of);
  void NoteOperations(const uint8_t* cls_of, std::vector<RecordId>* test_ends);
  uint32_t PlaceOperations(const uint8_t* cls_of);
  void InferCapacities();
  void BuildCondTables();
  bool IsValueOp(RecordId i, RecordId sel) const;
  RecordId SelectOwning(RecordId i, RecordId sel) const;
  PackedIds* ValueSlot(RecordId i, uint32_t c, RecordId sel, size_t* slot);
  void BuildTests(const std::vector<RecordId>& test_ends);
  void BuildStampOrder() const;

  friend class Builder;
};

}  // namespace gordian::hb
