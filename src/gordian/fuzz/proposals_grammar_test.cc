// Property test: every schedule any strategy proposes, for random runs of
// channels (buffered and not, closed), selects with and without a default,
// mutexes and WaitGroups, is one the replay runtime accepts: its text goes
// through ParseSchedule, the reader that refuses exactly what the runtime
// refuses (schedule/testdata/grammar). A proposal the runtime refused
// ("INDEX is not the goroutine's next index") cost a run and said nothing.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gordian/fuzz/rng.h"
#include "gordian/fuzz/strategy.h"
#include "gordian/fuzz/strategy_testing.h"
#include "gordian/hb/trace_builder.h"
#include "gordian/schedule/schedule.h"

namespace gordian::fuzz {
namespace {

using hb::testing::TraceBuilder;

// A random run: a main goroutine and a few workers that hand values over
// channels, take mutexes, select (with a default now and then), close a
// channel and count down a WaitGroup.
trace::Trace RandomWorkersRun(uint64_t seed) {
  Rng rng(seed);
  TraceBuilder b;
  b.set_auto_sites(true);
  const uint32_t workers = 2 + static_cast<uint32_t>(rng.Below(3));
  std::vector<uint32_t> gs = {1};
  for (uint32_t i = 0; i < workers; i++) gs.push_back(b.Go(1));
  std::vector<uint32_t> chans;
  std::vector<bool> buffered, closed;
  for (int i = 0; i < 3; i++) {
    bool buf = rng.Chance(0.5);
    chans.push_back(b.MakeChan(1, buf ? 2 : 0));
    buffered.push_back(buf);
    closed.push_back(false);
  }
  uint32_t mu = b.NewObject();
  uint32_t wg = b.NewObject();
  b.WgAdd(1, wg, static_cast<int32_t>(workers));
  std::vector<uint32_t> fill(chans.size(), 0);
  const int steps = 10 + static_cast<int>(rng.Below(30));
  for (int s = 0; s < steps; s++) {
    uint32_t g = gs[rng.Below(gs.size())];
    size_t c = rng.Below(chans.size());
    switch (rng.Below(5)) {
      case 0: {  // a hand-off
        uint32_t r = gs[rng.Below(gs.size())];
        if (closed[c]) {
          b.RecvClosed(g, chans[c]);
        } else if (buffered[c]) {
          if (fill[c] < 2) {
            b.Send(g, chans[c]);
            fill[c]++;
          } else {
            b.Recv(r, chans[c]);
            fill[c]--;
          }
        } else if (r != g) {
          auto snd = b.SendBegin(g, chans[c]);
          b.Recv(r, chans[c]);
          b.Complete(snd);
        }
        break;
      }
      case 1:  // a critical section
        b.Lock(g, mu);
        b.Unlock(g, mu);
        break;
      case 2: {  // a select: a send into a buffer with room, else its default
        size_t d = (c + 1) % chans.size();
        if (!closed[c] && buffered[c] && fill[c] < 2) {
          b.Select(g, {{chans[c], true}, {chans[d], false}}, 0, rng.Chance(0.5));
          fill[c]++;
        } else if (!closed[d] && !(buffered[d] && fill[d] > 0)) {
          b.Select(g, {{chans[d], false}}, -1, true);
        }
        break;
      }
      case 3:  // a close, once
        if (!closed[c] && fill[c] == 0 && rng.Chance(0.3)) {
          b.Close(g, chans[c]);
          closed[c] = true;
        }
        break;
      default:
        break;
    }
  }
  for (uint32_t i = 1; i < gs.size(); i++) b.Done(gs[i], wg);
  b.Wait(1, wg);
  return b.Finish();
}

TEST(ProposalsGrammar, EveryStrategysProposalsParse) {
  size_t proposals = 0;
  for (uint64_t seed = 1; seed <= 150; seed++) {
    trace::Trace t = RandomWorkersRun(seed);
    for (auto& s : DefaultStrategies()) {
      for (const Candidate& c : testing::ProposeFor(*s, t, seed)) {
        proposals++;
        std::string text = schedule::FormatSchedule(c.schedule);
        schedule::Schedule back;
        std::string err;
        EXPECT_TRUE(schedule::ParseSchedule(text, &back, &err))
            << "seed " << seed << ", strategy " << s->Name() << ", proposal " << c.key << ": "
            << err << "\n" << text;
      }
    }
  }
  EXPECT_GT(proposals, 300u) << "the random runs should give the strategies material";
}

}  // namespace
}  // namespace gordian::fuzz
