// This file defines TempTrace for the pipeline's tests: a trace a
// TraceWriter wrote into a temporary directory, removed with it.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "gordian/trace/writer.h"

namespace gordian::pipeline {

struct TempTrace {
  std::string root, dir;  // dir = root/trace
  explicit TempTrace(const trace::TraceWriter& w) {
    root = (std::filesystem::temp_directory_path() / "gordian-pipeline-test-XXXXXX").string();
    EXPECT_NE(mkdtemp(root.data()), nullptr);
    dir = root + "/trace";
    std::string err;
    EXPECT_TRUE(w.Write(dir, &err)) << err;
  }
  ~TempTrace() { std::filesystem::remove_all(root); }
};

}  // namespace gordian::pipeline
