// Confirmation of predicted bugs by replay (label "replay": needs Go): eleven
// corpus programs with predicted bugs of every rewritten kind must be
// confirmed, and each reproduce command must hit the same bug 20 times out
// of 20. The work is in scripts/confirm-corpus (about 3 minutes). That no
// correct corpus program gets a confirmed finding is checked by the corpus
// test (tests/corpus_check), which runs every program anyway.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "gordian/pipeline/shell_test.h"

namespace {

using gordian::pipeline::testing::Shell;

TEST(ConfirmByReplay, CorpusBugsConfirmedAndReproducible) {
  // The environment ctest sets, else paths derived from this file and from
  // the test binary (BUILD/src/gordian/pipeline/confirm_corpus_test).
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
  // One program per rewritten kind (agent_status_shutdown has two: the send
  // panics and the receive gets the zero value in the same schedule).
  std::string b = s + "/tests/corpus/bugs/";
  std::string progs;
  for (const char* p : {"lease_expiry_before_lock", "scraper_deadline_close", "fetcher_add_after_go",
                        "bank_transfer_lock_order", "agent_status_shutdown",
                        "eventbus_publish_holding_lock", "fetch_cancel_races_result",
                        "router_quit_races_jobs", "collector_add_in_goroutine",
                        "resolver_recursive_rlock", "refresher_logf_after_poll"}) {
    progs += " " + b + p;
  }
  std::string out = Shell(s + "/scripts/confirm-corpus " + bin + "/bin/gordian 20" + progs +
                          " 2>&1");
  for (const char* kind : {"unlock-of-unlocked", "send-on-closed", "negative-waitgroup",
                           "lock-order-deadlock", "recv-on-closed", "mixed-deadlock",
                           "goroutine-leak", "global-deadlock", "double-lock",
                           "testing-after-end"}) {
    EXPECT_NE(out.find(std::string("confirmed ") + kind), std::string::npos) << kind << "\n" << out;
  }
  // Every program, including the Add-inside-the-goroutine send-on-closed.
  size_t lines = 0;
  for (size_t at = out.find("reproduced 20/20"); at != std::string::npos;
       at = out.find("reproduced 20/20", at + 1)) {
    lines++;
  }
  EXPECT_EQ(lines, 12u) << out;
  EXPECT_EQ(out.find("CONFIRMED"), std::string::npos) << out;
  EXPECT_NE(out.find("confirm-corpus: ok"), std::string::npos) << out;
}

}  // namespace
