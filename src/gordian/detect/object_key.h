// This file says how a report names the synchronisation object of a trace
// record and the channel value it carries (report::Step::object and seq,
// report::RunTimeline): the HTML report pairs sends with receives, closes
// with the operations they affect and locks with unlocks by them.
#pragma once

#include <cstdint>

#include "gordian/trace/event.h"
#include "gordian/trace/kinds.h"

namespace gordian::detect {

// (class + 1) << 32 | the trace's object id: ids of different classes never
// meet; 0 for a record on no object (or a nil channel).
inline uint64_t ObjectKeyOf(const trace::Record& r) {
  trace::ObjClass cls = trace::ClassOf(r.kind);
  if (cls == trace::ObjClass::None || r.obj == 0) return 0;
  return (uint64_t{static_cast<uint8_t>(cls)} + 1) << 32 | r.obj;
}

// The sequence number of the value a send, receive or chosen select case
// moved (trace/kinds.def: a receive got the value of the send with the same
// number); 0 for other records.
inline uint32_t ValueSeqOf(const trace::Record& r) {
  bool moves_value = r.kind == trace::Kind::ChanSend || r.kind == trace::Kind::ChanRecv ||
                     (r.kind == trace::Kind::SelectCase && (r.flags & trace::kChosen));
  return moves_value ? r.val : 0;
}

}  // namespace gordian::detect
