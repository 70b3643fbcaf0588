// This file declares the text and JSON dumps of a trace (`gordian trace
// dump`): one line per record with the goroutine's stable id, the stamps, the
// kind, the object, the source site and, for communications, the exact
// partner (the send a receive got its value from, or "closed").
//
// Text line:
//   <goroutine> <tpre>[-<tpost>|-never] <Kind> <details> <file:line> [<- / -> partner]
// JSON line (one object per record):
//   {"goroutine":"1.0","gid":2,"index":3,"kind":"ChanRecv","object":4,"val":1,
//    "flags":0,"aux":0,"file":"main.go","line":12,"function":"main.main",
//    "tpre":7,"tpost":9,"partner":{"goroutine":"1","kind":"ChanSend",
//    "file":"main.go","line":20,"tpre":6,"tpost":8}}
// "tpost" is 0 for an operation that never completed; "partner" is present
// only when there is one, and is {"closed":true,...} for a receive that saw
// a closed channel (with the close's goroutine and site when recorded).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "gordian/trace/trace.h"

namespace gordian::trace {

struct DumpOptions {
  bool json = false;
  // false: all records in global stamp order (the interleaving);
  // true: goroutine by goroutine, each in program order.
  bool by_goroutine = false;
  // Only this goroutine (a stable id), when non-empty.
  std::string goroutine;
};

// The name of a kind as in kinds.def ("ChanSend"), or "Kind(N)".
std::string KindName(Kind k);

// Writes the dump to out. Returns the number of lines written.
size_t DumpTrace(const Trace& t, const DumpOptions& opts, std::FILE* out);

// The same into a string (for tests).
std::string DumpTraceToString(const Trace& t, const DumpOptions& opts);

}  // namespace gordian::trace
