// This file defines the numbers of a trace as distinct types (as
// ThreadSanitizer's `enum class Sid`), so that one cannot be passed where
// another is expected: a goroutine's gid where its index is expected, an
// object id where a gid is expected. Each is an enum class over uint32_t:
// no runtime cost, and every conversion is spelled out (Value, IndexOf,
// GidAt).
//
//   Gid             a goroutine as the runtime numbered it in the trace
//                   (Goroutine::gid, Record::obj of GoSpawn): 1 = main, dense.
//   GoroutineIndex  a goroutine's 0-based position in Trace::goroutines and
//                   in every per-goroutine array: gid - 1.
//   ObjectId        an object as the trace names it (Record::obj of a
//                   channel or sync operation; 0 is the nil channel). The
//                   operation index numbers objects densely per class
//                   (hb::OpIndex::Dense); dense numbers stay uint32_t.
//
// RecordId, a record's position in Trace::records, is a plain alias of
// uint32_t, not an enum: it indexes every flat per-record array of the
// analysis's hot paths (hb/op_index.h, hb/clock_builder.h), where a
// conversion at each use would only add noise. The name says what a number
// is; the enums above keep a gid or an object id from being passed for it.
//
// The raw Record and Goroutine fields stay uint32_t: they are the on-disk
// layout (event.h); GidOf and ObjectIdOf read them as ids.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gordian/trace/trace.h"

namespace gordian::trace {

enum class Gid : uint32_t {};
enum class GoroutineIndex : uint32_t {};
enum class ObjectId : uint32_t {};
using RecordId = uint32_t;

// No goroutine: gid 0 (the parent of main), and its index.
inline constexpr Gid kNoGid{0};
inline constexpr GoroutineIndex kNoGoroutine{0xffffffffu};
// No record: a channel never made or closed, a goroutine nothing spawned
// (main), a program that never exited.
inline constexpr RecordId kNoRecord = 0xffffffffu;
// No stamp: later than every stamp of a trace (an event that never
// happened: a test that never ended, a program that did not crash).
inline constexpr uint32_t kNoStamp = 0xffffffffu;

// The enum ids (not RecordId: it is a plain number already).
template <typename Id>
concept TraceId = std::is_same_v<Id, Gid> || std::is_same_v<Id, GoroutineIndex> ||
                  std::is_same_v<Id, ObjectId>;

// The number behind an id, to index an array or print it.
template <TraceId Id>
constexpr uint32_t Value(Id id) {
  return static_cast<uint32_t>(id);
}

// The index of goroutine gid (kNoGoroutine for kNoGid), and back.
constexpr GoroutineIndex IndexOf(Gid gid) { return GoroutineIndex(Value(gid) - 1); }
constexpr Gid GidAt(GoroutineIndex g) { return Gid(Value(g) + 1); }

// The ids in the raw fields of a goroutine and of a record.
inline Gid GidOf(const Goroutine& g) { return Gid(g.gid); }
inline ObjectId ObjectIdOf(const Record& r) { return ObjectId(r.obj); }

}  // namespace gordian::trace
