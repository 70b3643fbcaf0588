// This file defines the whole run of one trace as the HTML report draws it
// (`gordian analyze --html`): every goroutine a lane, every operation a
// mark, in start order. It is columnar (one array per field) so that a
// 100,000-operation run is a few megabytes of JSON that the page's script
// reads without making an object per operation. pipeline/timeline_of_trace.h
// makes it from a trace; html.h writes it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gordian::report {

struct RunTimeline {
  std::string name;                 // the trace directory or package
  std::vector<std::string> lanes;   // per lane: "1.0 pkg.worker (spawned at w.go:12)"
  std::vector<std::string> ops;     // operation names ("send", "Lock", ...), by op code
  // The role of each op code in the drawing: "send", "recv" (arrows between
  // the two moving one value), "close", "lock", "unlock" (held bars),
  // "spawn", "panic", or "other".
  std::vector<std::string> op_roles;
  std::vector<std::string> sites;   // "file:line function", by site index; "" unknown
  // Per operation, in start order:
  std::vector<uint32_t> lane;       // index into lanes
  std::vector<uint16_t> op;         // index into ops
  std::vector<uint32_t> site;       // index into sites
  std::vector<uint8_t> blocked;     // 1: a blocking operation that never completed
  // The synchronisation object ((class << 32) | id as in report::Step; 0
  // none) and a channel value's sequence number (0 none): the script draws
  // send->receive arrows and lock-held bars from them.
  std::vector<uint64_t> object;
  std::vector<uint32_t> seq;
  size_t dropped = 0;               // operations left out past the size limit

  size_t size() const { return lane.size(); }
};

}  // namespace gordian::report
