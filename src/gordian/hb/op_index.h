// This file defines the operation index: every synchronisation object of a
// trace (channel, mutex, RWMutex, WaitGroup, Once, Cond) under a dense id,
// with the records that operate on it, and for channels the exact partner
// tables (value sequence number -> send, -> receive) of seed 001 Appendix B.
// The happens-before engine builds it once; detectors read it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gordian/trace/trace.h"

namespace gordian::hb {

inline constexpr uint32_t kNoRecord = 0xffffffffu;
inline constexpr uint32_t kNoObject = 0xffffffffu;

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
  uint32_t raw = 0;             // trace object id
  int64_t capacity = -1;        // from ChanMake; inferred (see capacity_known) otherwise
  bool capacity_known = false;  // false: no ChanMake record, capacity inferred from stamps
  uint32_t make_rec = kNoRecord;
  uint32_t close_rec = kNoRecord;  // the first close that did not panic
  uint32_t values = 0;          // highest value sequence number seen
};

class OpIndex {
 public:
  // Builds the index. gor[i] is the goroutine index (gid - 1) of record i.
  void Build(const trace::Trace& t, std::vector<std::string>* warnings);

  // Dense objects of a class: 0 .. Count(c)-1.
  uint32_t Count(ObjClass c) const { return static_cast<uint32_t>(cls_[int(c)].raw.size()); }
  // Dense id of a trace object id, or kNoObject.
  uint32_t Dense(ObjClass c, uint32_t raw) const;
  uint32_t Raw(ObjClass c, uint32_t dense) const { return cls_[int(c)].raw[dense]; }
  // Dense object of record i (its class is ClassOf(kind)), or kNoObject
  // (nil channel, kinds without object).
  uint32_t ObjectOf(uint32_t rec) const { return obj_[rec]; }

  // Records operating on an object, in trace order (goroutine by goroutine,
  // program order within one). For channels this includes ChanMake, sends,
  // receives, closes and the SelectCase records naming the channel.
  std::span<const uint32_t> Ops(ObjClass c, uint32_t dense) const {
    const Class& k = cls_[int(c)];
    return {k.ops.data() + k.off[dense], k.off[dense + 1] - k.off[dense]};
  }

  const ChannelInfo& Channel(uint32_t dense) const { return chans_[dense]; }
  // Exact partners: the send / receive record (ChanSend, ChanRecv or the
  // chosen SelectCase) that carried value `seq` of channel `dense`.
  uint32_t SendOf(uint32_t dense, uint32_t seq) const;
  uint32_t RecvOf(uint32_t dense, uint32_t seq) const;

  // For a SelectCase record: its Select record; otherwise rec itself.
  uint32_t Owner(uint32_t rec) const;
  // For a completed Select that chose a case: the chosen SelectCase record;
  // kNoRecord for default, blocked or malformed selects.
  uint32_t ChosenCase(uint32_t select_rec) const;
  // Goroutine index (gid - 1) of a record.
  uint32_t GoroutineOf(uint32_t rec) const { return gor_[rec]; }
  // The exact communication partner of a send/receive/select (the record on
  // the other side: ChanSend, ChanRecv or a SelectCase), or kNoRecord.
  uint32_t Partner(uint32_t rec) const;

  // The GoSpawn record that created goroutine index g, or kNoRecord.
  uint32_t SpawnOf(uint32_t g) const { return spawn_[g]; }
  // The Once.Do record that ran f for a dense Once, or kNoRecord.
  uint32_t OnceRunner(uint32_t dense_once) const { return once_runner_[dense_once]; }
  // The Signal/Broadcast record that woke a completed CondWait, or kNoRecord.
  uint32_t SignalOf(uint32_t cond_wait_rec) const;
  // Number of CondWait records woken by a Signal/Broadcast record.
  uint32_t WaitersOf(uint32_t signal_rec) const;

  size_t MemoryBytes() const;

 private:
  struct Class {
    std::vector<uint32_t> raw;       // dense -> raw
    std::vector<uint32_t> direct;    // raw -> dense when raw ids are small
    std::vector<std::pair<uint32_t, uint32_t>> sorted;  // (raw, dense) otherwise
    std::vector<uint32_t> off;       // CSR offsets into ops, size Count()+1
    std::vector<uint32_t> ops;
  };
  Class cls_[kNumObjClasses];
  const trace::Trace* t_ = nullptr;
  std::vector<uint32_t> obj_;        // per record
  std::vector<uint32_t> gor_;        // per record
  std::vector<ChannelInfo> chans_;
  std::vector<uint32_t> seq_off_;    // per channel: base into send_/recv_ (values+1 entries)
  std::vector<uint32_t> send_, recv_;
  std::vector<uint32_t> spawn_;
  std::vector<uint32_t> once_runner_;
  // Cond: per cond, the waking Signal/Broadcast by ticket val; waiters per signal.
  std::vector<uint32_t> sig_off_, sig_;
  std::vector<std::pair<uint32_t, uint32_t>> waiters_;  // (signal rec, count), sorted

  friend class Builder;
};

}  // namespace gordian::hb
