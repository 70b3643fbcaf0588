// This file defines RandomHandOff, the channel step the random runs of the
// differential tests share (clock_needs_test.cc, read_goroutines_test.cc):
// a receive that sees the close, a send or receive on a buffered channel of
// capacity 2, or an unbuffered rendezvous.
#pragma once

#include <cstdint>

#include "gordian/hb/trace_builder.h"

namespace gordian::detect::testing {

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

}  // namespace gordian::detect::testing
