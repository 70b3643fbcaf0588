// This file declares the text form of a trace (docs/trace-format.md, "Text
// form"): one line per record, plus the side tables, readable and writable
// by hand. FormatTextTrace writes every field, so that reading it back gives
// the same Trace; ParseTextTrace also accepts the short hand a person writes
// (stamps from line order, sites from the file's own lines, `go`, open
// records completed by `end`), which is how the detector tests' golden files
// (detect/testdata/golden) are written.
//
//   // gordian text trace
//   1 ChanMake obj=1
//   1 go 2
//   s: 2 ChanSend obj=1 val=1 open       // s starts to wait
//   1 ChanRecv obj=1 val=1
//   end s                                // and completes here
//
// The reader builds the Trace in memory, without a trace directory: it is a
// pure function (fuzzed by trace_fuzz), and the goroutine table comes from
// the same code ReadTrace uses (AssignStableIds), so a text trace and the
// binary trace it was written from read back equal.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gordian/trace/trace.h"

namespace gordian::trace {

// What a text trace says beyond the Trace: the names of labelled records
// and the line each record came from.
struct TextTraceInfo {
  std::map<std::string, uint32_t, std::less<>> labels;  // label -> index into Trace::records
  std::vector<uint32_t> lines;                          // index into Trace::records -> line (1-based)
};

// Parses text (named name in messages and in the sites of records without
// an explicit site). Fails on the first malformed line with
// "name:line: what is wrong"; never crashes on any input.
bool ParseTextTrace(std::string_view text, const std::string& name, Trace* out,
                    std::string* err, TextTraceInfo* info = nullptr);

// Reads the text trace in file path (name = path).
bool ReadTextTrace(const std::string& path, Trace* out, std::string* err,
                   TextTraceInfo* info = nullptr);

// The text form of t, every field explicit. Records appear in stamp order
// (the interleaving), each goroutine's in program order.
std::string FormatTextTrace(const Trace& t);

}  // namespace gordian::trace
