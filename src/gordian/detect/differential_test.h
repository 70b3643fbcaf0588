// This file holds what the differential tests of the engine's reductions
// share (clock_needs_test.cc, read_goroutines_test.cc): the steps of their
// random runs (RandomSteps, RandomHandOff, RandomTest), the bug and warning
// findings they compare, and the golden traces they compare them on.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gordian/detect/occurred.h"
#include "gordian/detect/predict.h"
#include "gordian/hb/happens_before.h"
#include "gordian/hb/trace_builder.h"
#include "gordian/trace/text.h"

namespace gordian::detect::testing {

// The steps of a random run: each picks a goroutine g (pick()), then from
// rng a mutex m below mutexes, a channel c below chans and a kind below
// kinds, in that order; step(i, kind, g, m, c) makes step i.
template <class Rng, class Pick, class Step>
void RandomSteps(Rng& rng, uint32_t steps, int mutexes, int chans, uint32_t kinds, Pick pick,
                 Step step) {
  for (uint32_t i = 0; i < steps; ++i) {
    uint32_t g = pick();
    int m = static_cast<int>(rng() % mutexes), c = static_cast<int>(rng() % chans);
    step(i, static_cast<uint32_t>(rng() % kinds), g, m, c);
  }
}

// One hand-off on channel ch by goroutine g. fill counts the values in a
// buffered channel's buffer; the receiver is fixed_receiver, or any() when
// that is 0 (called only then, so that the runs' random streams do not
// depend on it).
template <class AnyReceiver>
void RandomHandOff(hb::testing::TraceBuilder& b, uint32_t g, uint32_t ch, bool buffered,
                   bool closed, uint32_t* fill, uint32_t fixed_receiver, AnyReceiver any) {
  if (closed) {
    b.RecvClosed(g, ch);
    return;
  }
  uint32_t r = fixed_receiver != 0 ? fixed_receiver : any();
  if (buffered) {
    if (*fill < 2 && g != r) {
      b.Send(g, ch);
      ++*fill;
    } else if (*fill > 0) {
      b.Recv(r, ch);
      --*fill;
    }
  } else if (r != g) {
    auto snd = b.SendBegin(g, ch);
    b.Recv(r, ch);
    b.Complete(snd);
  }
}

// At one step in ten (by rng), a test that goroutine g starts and ends.
template <class Rng>
void RandomTest(hb::testing::TraceBuilder& b, Rng& rng, uint32_t g, uint32_t step) {
  if (rng() % 10 == 0) {
    b.TestStart(g, step, "T");
    b.TestEnd(g, step);
  }
}

// The bug and warning findings (no Info) of t under hb, built from ops:
// the occurred detectors, with hb's possible partners, then the
// predictions.
inline std::vector<report::Finding> BugAndWarningFindings(const trace::Trace& t,
                                                          const hb::OpIndex& ops,
                                                          const hb::HappensBefore& hb) {
  OccurredOptions oo;
  oo.ops = &ops;
  oo.hb = &hb;
  oo.partners = [&hb](uint32_t rec, std::vector<uint32_t>* p) { FindPossiblePartners(hb, rec, p); };
  std::vector<report::Finding> found = DetectOccurred(t, oo);
  PredictBugs(t, hb, &found);
  std::erase_if(found, [](const report::Finding& f) { return f.severity == report::Severity::Info; });
  return found;
}

// Calls f(trace, file name) for each golden trace (GORDIAN_GOLDEN_DIR,
// *.trace) that parses.
template <class F>
void ForEachGoldenTrace(F f) {
  for (const auto& e : std::filesystem::directory_iterator(GORDIAN_GOLDEN_DIR)) {
    if (e.path().extension() != ".trace") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    trace::Trace t;
    std::string err;
    if (!trace::ParseTextTrace(ss.str(), e.path().filename().string(), &t, &err)) continue;
    f(t, e.path().filename().string());
  }
}

}  // namespace gordian::detect::testing
