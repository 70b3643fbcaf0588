// Replay fidelity on corpus programs: record, replay with `gordian replay`,
// and require the replayed trace to match (label "replay": needs Go).
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

namespace {

std::string Shell(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

TEST(ReplayFidelity, CorpusSample) {
  const char* src = getenv("GORDIAN_SOURCE_DIR");
  const char* bin = getenv("GORDIAN_BINARY_DIR");
  ASSERT_TRUE(src && bin);
  std::string s(src);
  std::string out = Shell(s + "/scripts/replay-fidelity " + bin + "/bin/gordian " + s +
                        "/tests/corpus/bugs/hasher_pool_never_closed " + s +
                        "/tests/corpus/bugs/collector_add_in_goroutine " + s +
                        "/tests/corpus/bugs/bank_transfer_lock_order 2>&1");
  EXPECT_NE(out.find("fidelity: 9/9 replays exact (100%)"), std::string::npos) << out;
}

}  // namespace
