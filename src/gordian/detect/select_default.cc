// Whether a select can take its default in another schedule
// (select_default.h).
#include "gordian/detect/select_default.h"

#include "gordian/trace/event.h"

namespace gordian::detect {

bool DefaultPossible(const hb::HappensBefore& e, trace::RecordId q) {
  const trace::Trace& t = e.trace();
  const hb::OpIndex& ops = e.ops();
  const trace::Record& s = t.records[q];
  if (s.kind != trace::Kind::Select) return true;
  for (uint32_t k = q + 1; k <= q + s.aux && k < t.records.size(); ++k) {
    if (t.records[k].kind != trace::Kind::SelectCase) break;
    uint32_t d = ops.ObjectOf(k);
    if (d == hb::kNoObject) continue;  // a nil channel is never ready
    uint32_t close = ops.Channel(d).close_rec;
    if (close != hb::kNoRecord && e.Before(close, q)) return false;
  }
  return true;
}

}  // namespace gordian::detect
