// The exact-partner check (docs/design.md, "Exact communication partners"):
// runs runtime/testdata/record/partners.go, whose goroutines send identifiable
// values on shared unbuffered and buffered channels, directly and through
// selects, and print what each receiver got; then checks, for every value,
// that the trace ties the receive to the very send the value came from (same
// channel, same value sequence number, and that send is the sender's n-th
// send, whose value is sender*1000000 + n).
//
// GORDIAN_PARTNER_RUNS (default 3) sets the runs per GOMAXPROCS value.
#include <cstdlib>
#include <sstream>

#include "gordian/instrument/go_test_util.h"

namespace gordian::instrument::gotest {
namespace {

using trace::Kind;
using trace::Record;
using trace::Trace;

struct SendInfo {
  uint32_t sender = 0;   // child index of the sender (its stable id is "1.<sender>")
  uint32_t ordinal = 0;  // its n-th completed send
};

// Checks one run. Returns the number of values checked.
size_t CheckRun(const std::string& out, const Trace& t, uint32_t senders, uint32_t per_sender) {
  // Values printed by each receiver, by child index.
  std::map<uint32_t, std::vector<int64_t>> printed;
  std::istringstream lines(out);
  std::string line;
  size_t total_printed = 0;
  while (std::getline(lines, line)) {
    std::istringstream f(line);
    std::string tag;
    uint32_t idx;
    f >> tag >> idx;
    if (tag != "R") continue;
    int64_t v;
    while (f >> v) printed[idx].push_back(v);
    total_printed += printed[idx].size();
  }
  EXPECT_EQ(total_printed, size_t{senders} * per_sender) << "the program lost values";

  // Completed sends by (channel, seq).
  std::map<std::pair<uint32_t, uint32_t>, SendInfo> sends;
  for (uint32_t j = 0; j < senders; j++) {
    const trace::Goroutine* g = ByStableId(t, "1." + std::to_string(j));
    if (g == nullptr) {
      ADD_FAILURE() << "no sender 1." << j;
      return 0;
    }
    uint32_t n = 0;
    auto add = [&](uint32_t obj, uint32_t seq) {
      auto [it, fresh] = sends.try_emplace({obj, seq}, SendInfo{j, n});
      EXPECT_TRUE(fresh) << "two sends with seq " << seq << " on channel " << obj;
      n++;
    };
    for (const Record& r : t.RecordsOf(*g)) {
      if (r.kind == Kind::ChanSend && r.tpost != 0) add(r.obj, r.val);
      if (r.kind == Kind::SelectCase && (r.flags & trace::kChosen) && (r.flags & trace::kDirSend)) {
        add(r.obj, r.val);
      }
    }
    EXPECT_EQ(n, per_sender) << "sender " << j;
  }

  size_t checked = 0;
  for (auto& [idx, values] : printed) {
    const trace::Goroutine* g = ByStableId(t, "1." + std::to_string(idx));
    if (g == nullptr) {
      ADD_FAILURE() << "no receiver 1." << idx;
      continue;
    }
    size_t k = 0;
    auto check = [&](uint32_t obj, uint32_t seq) {
      if (k >= values.size()) {
        ADD_FAILURE() << "receiver " << idx << " has more receives than values";
        return;
      }
      auto it = sends.find({obj, seq});
      if (it == sends.end()) {
        ADD_FAILURE() << "receiver " << idx << ": no send for channel " << obj << " seq " << seq;
      } else {
        int64_t expect = int64_t{it->second.sender} * 1000000 + it->second.ordinal;
        EXPECT_EQ(values[k], expect) << "receiver " << idx << " value " << k << ": the trace pairs it "
                                     << "with the wrong send (channel " << obj << " seq " << seq << ")";
        checked++;
      }
      k++;
    };
    for (const Record& r : t.RecordsOf(*g)) {
      if (r.kind == Kind::ChanRecv && r.tpost != 0 && !(r.flags & trace::kClosed)) check(r.obj, r.val);
      if (r.kind == Kind::SelectCase && (r.flags & trace::kChosen) && (r.flags & trace::kDirRecv) &&
          !(r.flags & trace::kClosed)) {
        check(r.obj, r.val);
      }
    }
    EXPECT_EQ(k, values.size()) << "receiver " << idx << ": receives in the trace vs values printed";
  }
  return checked;
}

TEST(Partners, ExactUnderStress) {
  if (!Env::Get().ok()) GTEST_SKIP() << Env::Get().error();
  fs::path bin = Env::Get().work() / "bin" / "partners.hook";
  ASSERT_EQ(Env::Get().Build(TestdataDir() + "/partners.go", bin, true), "");
  int runs = 3;
  if (const char* s = std::getenv("GORDIAN_PARTNER_RUNS")) runs = std::max(1, std::atoi(s));
  const uint32_t senders = 4, per_sender = 300;
  size_t checked = 0;
  for (int procs : {1, 2, 4}) {
    for (int run = 0; run < runs; run++) {
      fs::path dir = Env::Get().work() / "traces" / "partners";
      RunResult r = RunProgram(bin, "-s 4 -m 300 -sel 3 -range 2", dir,
                               "GOMAXPROCS=" + std::to_string(procs));
      ASSERT_EQ(r.status, 0) << r.err;
      Trace t;
      std::string err;
      ASSERT_TRUE(trace::ReadTrace(dir.string(), &t, &err)) << err;
      size_t n = CheckRun(r.out, t, senders, per_sender);
      EXPECT_EQ(n, size_t{senders} * per_sender) << "GOMAXPROCS=" << procs << " run " << run;
      checked += n;
      if (HasFailure()) return;
    }
  }
  RecordProperty("values_checked", static_cast<int>(checked));
}

}  // namespace
}  // namespace gordian::instrument::gotest
