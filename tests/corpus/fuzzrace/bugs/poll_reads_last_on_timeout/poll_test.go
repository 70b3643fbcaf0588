// A poller asks a source for a value in a goroutine and waits for it up to
// a second; on timeout it returns the last value it saw. The goroutine
// stores the value in p.last before it sends, and the answer's receive
// orders that store before the caller's use. The timeout branch has no such
// order: it reads p.last while the goroutine may be writing it (data race).
//
// Why `go test -race` and `gordian test -race` do not show it: the source
// answers at once, so the select always takes the answer and the timeout
// branch never runs; the race detector only sees accesses that run. What
// finds it: `gordian fuzz -race`, whose select strategy takes the timer's
// case, so the read on that branch runs beside the store.
package poll_reads_last_on_timeout

import (
	"testing"
	"time"
)

type Poller struct {
	last   int
	misses int
}

func (p *Poller) Poll(source func() int) int {
	answer := make(chan int, 1) // a late answer never blocks its goroutine
	go func() {
		v := source()
		p.last = v // want: data-race occurred
		answer <- v
	}()
	select {
	case v := <-answer:
		return v
	case <-time.After(time.Second):
		p.misses++
		return p.last
	}
}

func TestPollGetsTheAnswer(t *testing.T) {
	p := &Poller{}
	if v := p.Poll(func() int { return 42 }); v != 42 && v != 0 {
		t.Fatalf("got %d", v)
	}
}
