// This file implements the clock builder's rules for channels
// (clock_builder.h): rendezvous of unbuffered channels (Joint), buffered
// slots and receives from closed channels (ChanOp), select and close.
#include <algorithm>

#include "gordian/hb/clock_builder.h"

namespace gordian::hb {

// Rule (Sync), Sulzmann and Stadtmüller §3.3: an unbuffered send and the
// receive that got its value (same channel, same value sequence number)
// complete together: both post clocks are max(inc(pre_s), inc(pre_r)). Each side's pre clock stays
// unaware of the other, which is what makes partners "concurrent".
void Builder::Joint(uint32_t g, RecordId a, uint32_t h, RecordId b) {
  Begin(g, a);
  Begin(h, b);
  if (tree_) {
    // Both become max(x, y) with both own entries: g's clock is built (the
    // partner's own entry in its overlay), h takes its tree and overlay
    // with g's own entry in place of its own. Neither tree changes unless
    // g's overlay is full; then its fold is made once, in the shared tree.
    Gor& sg = g_[g];
    Gor& sh = g_[h];
    ClockArena::Extra gx[kMaxExtras], hx[kMaxExtras];
    const uint32_t ng = GorExtras(g, gx), nh = GorExtras(h, hx);
    if (Slot(h) != kNoBlock && ViewKnows(sg.tc.root, {gx, ng}, h) >= sh.changed_at) {
      // g's clock includes h's (TreeJoin's shortcut, the other way round).
      RaiseEntry(g, Slot(h), sh.own);
    } else {
      TreeJoin(g, &sh.tc, {hx, nh}, ViewKnows(sh.tc.root, {hx, nh}, g));
    }
    ClockOverlay* og = sg.ov == kNoBlock ? nullptr : &ovs_[sg.ov];
    const uint32_t kept = og == nullptr ? 0 : og->n - (og->Get(Slot(h)) != 0 ? 1 : 0);
    // When either record gets a snapshot, both clocks go into one tree
    // now, g's own entry too: the two snapshots then share it, where two
    // overlays folded apart at End would copy the paths twice (every
    // clock: 20% slower and a quarter more nodes on chan-heavy/10000).
    const bool snapped = Clocked(a) || Clocked(b);
    if (og != nullptr && (snapped || kept + (Slot(g) != kNoBlock) > ClockOverlay::kCap)) FoldGor(g);
    if (snapped && Slot(g) != kNoBlock) arena_->SetMax(&sg.tc, Slot(g), sg.own, OwnStamp(g));
    if (sh.tc.root != sg.tc.root) arena_->Assign(&sh.tc, &sg.tc);
    else arena_->Freeze(&sg.tc);
    if (snapped) {
      if (sh.ov != kNoBlock) ovs_[sh.ov].Clear();
    } else if (sg.ov != kNoBlock || Slot(g) != kNoBlock) {
      ClockOverlay& oh = Ov(h);  // (may move ovs_)
      if (sg.ov != kNoBlock) oh = ovs_[sg.ov];
      else oh.Clear();
      if (Slot(h) != kNoBlock) oh.Remove(Slot(h));
      if (Slot(g) != kNoBlock) oh.Put(Slot(g), sg.own);
    } else if (sh.ov != kNoBlock) {
      ovs_[sh.ov].Clear();
    }
    for (Gor* x : {&sg, &sh}) {
      x->dirty = true;
      x->changed_at = std::max<Epoch>(x->own, 1);
    }
    End(g, a);
    End(h, b);
    Wake(h, g_[h].token);
    return;
  }
  uint32_t* __restrict x = Clk(g);
  uint32_t* __restrict y = Clk(h);
  Gor& sg = g_[g];
  Gor& sh = g_[h];
  const uint32_t w = width_;
  if (!store_.tracks_changes()) {
    bool cx, cy;
    JoinBoth(x, y, w, &cx, &cy);
    sg.dirty |= cx;
    sh.dirty |= cy;
  } else {
    for (uint32_t i = 0; i < w; ++i) {
      if (x[i] < y[i]) {
        x[i] = y[i];
        sg.dirty = true;
        if (!sg.rare->changed_bit[i]) { sg.rare->changed_bit[i] = 1; sg.rare->changed.push_back(i); }
      } else if (y[i] < x[i]) {
        y[i] = x[i];
        sh.dirty = true;
        if (!sh.rare->changed_bit[i]) { sh.rare->changed_bit[i] = 1; sh.rare->changed.push_back(i); }
      }
    }
  }
  End(g, a);
  End(h, b);
  Wake(h, g_[h].token);
}

// One channel operation: a ChanSend/ChanRecv record, or the chosen case
// `op` of the Select `own`.
void Builder::ChanOp(uint32_t g, RecordId own, RecordId op) {
  const Record& r = rs_[op];
  uint32_t c = ix_.ObjectOf(op);
  ChanDir dir = DirOf(r);
  if (rs_[own].tpost == 0 || c == kNoObject || (dir != ChanDir::Send && dir != ChanDir::Recv)) {
    // Blocked, nil channel or malformed: the operation ticks the clock only.
    Simple(g, own);
    return;
  }
  const ChannelInfo& ci = ix_.Channel(c);
  Chan& ch = chans_[c];

  // Rule (Receive-Closed) and its mirror for sends: close(x) happens before
  // a receive that returned the zero value because x was closed, and before
  // a send that panicked on it.
  if (r.flags & trace::kClosed) {
    if (ci.close_rec != kNoRecord && !Processed(ci.close_rec) && !force_) {
      ParkOnRecord(g, ci.close_rec);
      return;
    }
    Begin(g, own);
    Acquire(g, ch.close_clock);
    End(g, own);
    return;
  }
  if (r.val == 0) {  // no value number: nothing to tie it to
    Simple(g, own);
    return;
  }

  if (ci.capacity <= 0) {
    uint32_t p = dir == ChanDir::Send ? ix_.RecvOf(c, r.val) : ix_.SendOf(c, r.val);
    if (p == kNoRecord) {  // partner not recorded (e.g. a runtime timer)
      Simple(g, own);
      return;
    }
    uint32_t po = ix_.Owner(p);
    uint32_t h = trace::Value(ix_.GoroutineIndexOf(po));
    if (rs_[po].tpost == 0 || h == g) {
      Simple(g, own);
      return;
    }
    Gor& sh = g_[h];
    if (sh.state != kDone && sh.cursor == po && !OncePostDue(sh)) {
      Joint(g, own, h, po);
      return;
    }
    if (sh.state == kDone || sh.cursor > po || force_) {
      Simple(g, own);  // the partner was replayed alone (inconsistent trace)
      return;
    }
    ParkRendezvous(g);  // the partner's goroutine completes the pair
    return;
  }

  // Rules (Send) and (Receive), Sulzmann and Stadtmüller §3.4: a buffered
  // channel of capacity k is k slots, each carrying a clock. Value v uses slot
  // (v-1) mod k. The send of v waits for the receive of v-k (the slot's
  // previous value) and acquires the slot's clock, which that receive left
  // there; it then leaves its own clock in the slot. The receive of v
  // acquires the slot's clock (the send's) and leaves its own for the send
  // of v+k. So the i-th receive happens after the i-th send, and the
  // (i+k)-th send after the i-th receive.
  uint64_t cap = uint64_t(ci.capacity);
  uint32_t dep = dir == ChanDir::Send
                     ? (r.val > cap ? ix_.RecvOf(c, r.val - uint32_t(cap)) : kNoRecord)
                     : ix_.SendOf(c, r.val);
  if (dep != kNoRecord) {
    uint32_t dep_own = ix_.Owner(dep);
    if (rs_[dep_own].tpost != 0 && !Processed(dep_own) && !force_) {
      ParkOnRecord(g, dep_own);
      return;
    }
  }
  if (ch.ring.empty()) {
    ch.ring.assign(std::max<uint64_t>(1, std::min<uint64_t>(cap, ci.values)), kNoBlock);
  }
  uint32_t& slot = ch.ring[(r.val - 1) % cap % ch.ring.size()];
  Begin(g, own);
  Acquire(g, slot);
  Release(g, &slot);
  End(g, own);
}

// Rule (Default) and select: a default or blocked select only ticks; a
// chosen case is that channel operation, with the select's clocks.
void Builder::Select(uint32_t g, RecordId i) {
  uint32_t k = ix_.ChosenCase(i);
  if (k == kNoRecord) Simple(g, i);
  else ChanOp(g, i, k);
}

// Rule (Close): close releases the goroutine's clock to the channel (for
// receives that observe it closed). A close that panicked (already closed)
// happened after the first close.
void Builder::Close(uint32_t g, RecordId i) {
  uint32_t c = ix_.ObjectOf(i);
  if (c == kNoObject) {
    Simple(g, i);
    return;
  }
  if (rs_[i].flags & trace::kClosed) {
    uint32_t first = ix_.Channel(c).close_rec;
    if (first != kNoRecord && first != i && !Processed(first) && !force_) {
      ParkOnRecord(g, first);
      return;
    }
    Begin(g, i);
    Acquire(g, chans_[c].close_clock);
    End(g, i);
    return;
  }
  Begin(g, i);
  if (ix_.Channel(c).close_rec == i) Release(g, &chans_[c].close_clock);
  End(g, i);
}

}  // namespace gordian::hb
