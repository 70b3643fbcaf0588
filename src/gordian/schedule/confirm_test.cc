// Confirmation of predicted bugs by replay (label "replay": needs Go): four
// corpus programs with predicted bugs of four kinds must be confirmed, and
// each reproduce command must hit the same bug 20 times out of 20; no
// correct corpus program may get a confirmed bug. The work is in
// scripts/confirm-corpus (about 2 minutes).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
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

TEST(ConfirmByReplay, CorpusBugsConfirmedAndReproducibleCorrectNever) {
  // The environment ctest sets, else paths derived from this file and from
  // the test binary (BUILD/src/gordian/schedule/confirm_test).
  namespace fs = std::filesystem;
  const char* src_env = getenv("GORDIAN_SOURCE_DIR");
  const char* bin_env = getenv("GORDIAN_BINARY_DIR");
  std::string s = src_env ? src_env
                          : fs::path(__FILE__).parent_path().parent_path().parent_path()
                                .parent_path().string();
  std::string bin = bin_env ? bin_env
                            : fs::read_symlink("/proc/self/exe").parent_path().parent_path()
                                  .parent_path().parent_path().string();
  ASSERT_TRUE(fs::exists(s + "/scripts/confirm-corpus")) << s;
  ASSERT_TRUE(fs::exists(bin + "/bin/gordian")) << bin;
  std::string b = s + "/tests/corpus/bugs/";
  std::string out = Shell(s + "/scripts/confirm-corpus " + bin + "/bin/gordian 20 " + b +
                          "lease_expiry_before_lock " + b + "scraper_deadline_close " + b +
                          "fetcher_add_after_go " + b + "bank_transfer_lock_order -- " + s +
                          "/tests/corpus/correct/* 2>&1");
  for (const char* kind : {"unlock-of-unlocked", "send-on-closed", "negative-waitgroup",
                           "lock-order-deadlock"}) {
    EXPECT_NE(out.find(std::string("confirmed ") + kind), std::string::npos) << kind << "\n" << out;
  }
  EXPECT_EQ(out.find("CONFIRMED"), std::string::npos) << out;
  EXPECT_NE(out.find("confirm-corpus: ok"), std::string::npos) << out;
}

}  // namespace
