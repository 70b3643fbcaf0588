// This file owns the text of Go's race detector reports (the ThreadSanitizer
// runtime inside a -race binary) and their parser. One report:
//
//   ==================
//   WARNING: DATA RACE
//   Write at 0x00c000018258 by goroutine 9:
//     pkg.(*T).bump()
//         /src/pkg/x.go:11 +0x90
//     ...
//
//   Previous read at 0x00c000018258 by main goroutine:
//     ...
//
//   Goroutine 9 (running) created at:
//     pkg.TestX()
//         /src/pkg/x_test.go:17 +0x11c
//     ...
//   ==================
//
// The access lines also come as "Read at", "Previous write at", "Atomic
// write at", and a stack may be "[failed to restore the stack]". The parser
// is defensive: the text may be cut short (a killed program), interleaved
// with other output (a log written to stderr), or of a later Go release
// that words things differently. A block without two accesses is skipped
// and counted, never guessed at.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gordian::race {

struct Frame {
  std::string function;  // "pkg.(*T).bump" (without the trailing "()")
  std::string file;      // as the binary was compiled (absolute, or "_testmain.go")
  uint32_t line = 0;
};

struct Access {
  bool write = false;
  bool atomic = false;   // "Atomic read/write" (a racing non-atomic access is the other one)
  // The detector's goroutine number ("by goroutine 9"): its own thread id,
  // in creation order, not Go's goid; "main goroutine" is 1; 0 unknown.
  uint64_t race_id = 0;
  std::vector<Frame> stack;  // innermost first; empty when the detector lost it
};

struct Creation {
  uint64_t race_id = 0;
  std::vector<Frame> stack;  // where the goroutine was created, innermost first
};

struct RaceReport {
  Access current;   // the access that found the race ("Write at ...")
  Access previous;  // the earlier one ("Previous read at ...")
  std::vector<Creation> created;  // "Goroutine N (...) created at:" blocks
};

// Parses every "WARNING: DATA RACE" block of text. A block that does not
// have both accesses is skipped and counted in *skipped (may be null).
std::vector<RaceReport> ParseRaceLog(std::string_view text, size_t* skipped = nullptr);

}  // namespace gordian::race
