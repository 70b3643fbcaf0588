// This file defines WrittenTrace, for tests that make a trace with a
// TraceWriter and check what the reader gives back from disk.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "gordian/trace/trace.h"
#include "gordian/trace/writer.h"

namespace gordian::trace {

// The trace w writes to dir, as ReadTrace reads it back; a write or read
// that fails fails the test.
inline Trace WrittenTrace(const TraceWriter& w, const std::string& dir) {
  std::string err;
  EXPECT_TRUE(w.Write(dir, &err)) << err;
  Trace t;
  EXPECT_TRUE(ReadTrace(dir, &t, &err)) << err;
  return t;
}

}  // namespace gordian::trace
